/** scripts/run-tests.js removes each test process's TMPDIR when the process is gone (docs/testing.md, Temporary folders). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/files';

test('the runner leaves nothing in its temporary folder after a test that made a folder and a file there', () => {
  const outer = mkdtempSync(join(tmpdir(), 'kstbench-runner-tmp-'));
  try {
    const r = spawnSync(process.execPath, ['scripts/run-tests.js', '--jobs', '1', 'test/architecture/tmpdir-probe'], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: outer },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /1 files, 1 tests: 1 passed/);
    assert.deepEqual(readdirSync(outer), [], 'the process TMPDIR (and the probe\'s folder in it) is gone');
  } finally {
    rmSync(outer, { recursive: true, force: true });
  }
});
