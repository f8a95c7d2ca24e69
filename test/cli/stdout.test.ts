/**
 * Standard output that cannot take the output: a full device (/dev/full), a file over the size limit
 * (ulimit -f, as a full disk: the first write is short), a reader that left (`| head -c 10`). One line
 * naming standard output and exit 1, or, for a reader that left, nothing and the command's own exit
 * code: never a stack trace, never exit 0 after a short write. cli/kstbench.ts forwards the worker's
 * output (forwardStdout).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kstbench, tempDir, ROOT } from '../support/cli';

const BIN = join(ROOT, 'bin', 'kstbench.js');
const ENOSPC_LINE = (command: string) => `kstbench${command ? ` ${command}` : ''}: cannot write standard output: ENOSPC (no space left on the device)\n`;

/** A domain of 14 independent tasks (16,384 states): `sample --n 20000` prints over a megabyte, more than a pipe holds. */
function wideDomain(dir: string): string {
  const file = join(dir, 'wide.json');
  const components = Array.from({ length: 14 }, (_, i) => ({ id: `T${i}`, description: `task ${i}` }));
  writeFileSync(file, JSON.stringify({ id: 'wide', title: 'wide', source: 'test', components, prerequisites: [] }));
  return file;
}

/** Runs the CLI with standard output on `/dev/full`. */
function toDevFull(args: string[]) {
  const full = openSync('/dev/full', 'w');
  try {
    const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', full, 'pipe'], timeout: 30_000 });
    return { code: r.status, stderr: r.stderr };
  } finally {
    closeSync(full);
  }
}

test('standard output on /dev/full: one line naming standard output, exit 1 (a command in the worker, a short one, the main help)', () => {
  const domain = wideDomain(tempDir());
  for (const [command, args] of [
    ['sample', ['sample', '--domain', domain, '--n', '20000', '--seed', '1']],
    ['fringe', ['fringe', '--domain', join(ROOT, 'data', 'raw', 'domains', 'slope.json'), '--state', 'SL1']],
    ['', ['--help']],
  ] as const) {
    const r = toDevFull([...args]);
    assert.equal(r.stderr, ENOSPC_LINE(command), `kstbench ${args.join(' ')}`);
    assert.equal(r.code, 1);
  }
  // The control: the same commands succeed on a regular file (what /dev/full refuses is the writing).
  assert.equal(kstbench(['fringe', '--domain', join(ROOT, 'data', 'raw', 'domains', 'slope.json'), '--state', 'SL1']).code, 0);
});

test('standard output redirected to a file over the size limit (a full disk): exit 1 with the reason, not exit 0 with a cut file', () => {
  // The first write stores what fits and returns a short count; Node's forwarding ignored the count.
  const dir = tempDir();
  const domain = wideDomain(dir);
  const out = join(dir, 'states.json');
  const r = spawnSync('sh', ['-c', 'ulimit -f 64 && exec "$@" > "$OUT"', 'sh', process.execPath, BIN, 'sample', '--domain', domain, '--n', '20000', '--seed', '1'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, OUT: out },
    timeout: 30_000,
  });
  assert.equal(r.stderr, 'kstbench sample: cannot write standard output: EFBIG (file too large: over the file-size limit (ulimit -f) or what the file system allows)\n');
  assert.equal(r.status, 1);
  assert.ok(statSync(out).size <= 64 * 1024, 'the limit held');
  const whole = kstbench(['sample', '--domain', domain, '--n', '20000', '--seed', '1']);
  assert.ok(whole.stdout.length > 64 * 1024, `the control is larger than the limit (${whole.stdout.length} bytes)`);
});

test('a reader that leaves early (| head -c 10): the first bytes, no error, the command exit code', () => {
  const domain = wideDomain(tempDir());
  const r = spawnSync('bash', ['-c', '"$@" | head -c 10; echo " exit ${PIPESTATUS[0]}"', 'bash', process.execPath, BIN, 'sample', '--domain', domain, '--n', '20000', '--seed', '1'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.stderr, '', 'no EPIPE stack trace');
  assert.equal(r.stdout, '{\n  "schem exit 0\n', 'the first 10 bytes of the sample, then the exit code of kstbench');
});
