import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kstbench, tempDir, ROOT } from '../support/cli';

// An --out that cannot be made is a one-line error naming the path (exit 1), never a stack or a hang.
// /proc matters: Node's recursive mkdir never returns there, and the collector's SIGTERM handler
// cannot run while a synchronous loop spins, so the process could not even be stopped.
const domains = join(ROOT, 'test', 'fixtures', 'analyze', 'domains');

test('collect: --out under /proc ends at once with ENOENT and the resume command', () => {
  const r = kstbench(['collect', '--domains', domains, '--models', 'simulated:sim-a', '--out', '/proc/kstbench-collect'], { timeoutMs: 30_000 });
  assert.equal(r.code, 1, `exit ${r.code} (null: killed after 30 s): ${r.stderr}`);
  assert.match(r.stderr, /^kstbench collect: cannot write \/proc\/kstbench-collect\S*: ENOENT \(no such file or directory\); fix it, then resume with: kstbench collect /m);
});

test('collect: --out naming a regular file is EEXIST on one line, and the file is untouched', () => {
  const dir = tempDir();
  const file = join(dir, 'run');
  writeFileSync(file, 'keep');
  const r = kstbench(['collect', '--domains', domains, '--models', 'simulated:sim-a', '--out', file], { timeoutMs: 30_000 });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /cannot write .*run\S*: (EEXIST|ENOTDIR) /);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.deepEqual(readdirSync(dir), ['run']);
});
