import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

test('sample: --out over the file-size limit (ulimit -f) is EFBIG on one line, and the old file is kept whole', () => {
  // Under RLIMIT_FSIZE the first write stores what fits and returns a short count; the next one fails
  // with EFBIG (Node ignores SIGXFSZ). The atomic writer used to trust the short write and rename a
  // truncated file into place with exit 0; a full disk (ENOSPC) behaves the same way.
  const dir = tempDir();
  const out = join(dir, 'states.json');
  writeFileSync(out, 'old\n');
  // 14 independent tasks: 16,384 states, so a sample of 2,000 is tens of kilobytes.
  const domain = join(dir, 'wide.json');
  const components = Array.from({ length: 14 }, (_, i) => ({ id: `T${i}`, description: `task ${i}` }));
  writeFileSync(domain, JSON.stringify({ id: 'wide', title: 'wide', source: 'test', components, prerequisites: [] }));
  const args = ['sample', '--domain', domain, '--n', '2000', '--seed', '1', '--out', out];
  const r = spawnSync('sh', ['-c', 'ulimit -f 8 && exec "$@"', 'sh', process.execPath, join(ROOT, 'bin', 'kstbench.js'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 1, `exit ${r.status}: ${r.stderr}`);
  assert.equal(r.stderr, `kstbench sample: cannot write ${out}: EFBIG (file too large: over the file-size limit (ulimit -f) or what the file system allows)\n`);
  assert.equal(readFileSync(out, 'utf8'), 'old\n');
  assert.deepEqual(readdirSync(dir).sort(), ['states.json', 'wide.json']);
  // The control: the same command without the limit writes more than the limit allows (8 blocks of 512 bytes in dash, of 1024 in bash).
  const unlimited = kstbench(args, { timeoutMs: 30_000 });
  assert.equal(unlimited.code, 0, unlimited.stderr);
  assert.ok(readFileSync(out).length > 8 * 1024, 'the sample is larger than the limit');
});
