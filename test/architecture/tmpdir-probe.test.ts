/**
 * scripts/run-tests.js gives each test process a TMPDIR of its own (docs/testing.md, Temporary
 * folders): a folder of tempDir lies in it. run-tests-tmpdir.test.ts runs this file through the
 * runner and checks the runner removed that TMPDIR, folder and all, once the process was gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tempDir } from '../support/files';

test('a test process runs with a TMPDIR of its own: tempDir makes its folders there', () => {
  const dir = tempDir('kstbench-probe-');
  writeFileSync(join(dir, 'left.txt'), 'the runner removes this with the process TMPDIR\n');
  assert.match(basename(dirname(dir)), /^kstbench-test-process-/);
});
