/** Size-limited input reads (lib/io/read.ts): devices and FIFOs refused by type, never opened; a size cap. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { readInputText } from '../../lib/io';

test('readInputText refuses /dev/zero and a FIFO by type (no endless read, no wait for a writer)', () => {
  assert.throws(() => readInputText('/dev/zero', 'domain file'), (err: unknown) => err instanceof InputError && err.message === '/dev/zero: cannot read domain file (it is a character device, not a regular file)');
  const dir = mkdtempSync(join(tmpdir(), 'kst-read-'));
  try {
    const fifo = join(dir, 'in');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    assert.throws(() => readInputText(fifo), /it is a named pipe \(FIFO\), not a regular file/);
    assert.throws(() => readInputText(dir), /cannot read file \(EISDIR\)/);
    assert.throws(() => readInputText(join(dir, 'missing')), /cannot read file \(ENOENT\)/);
    const file = join(dir, 'big.txt');
    writeFileSync(file, 'x'.repeat(101));
    assert.throws(() => readInputText(file, 'file', 100), /101 bytes, more than the 100-byte limit/);
    assert.equal(readInputText(file, 'file', 101), 'x'.repeat(101));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
