/**
 * lib/io/write-all.ts: writeChunk writes every byte or throws; it never returns after a short write.
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeChunk } from '../../lib/io/write-all';

// The module object itself: lib/io/write-all.ts calls writeSync through it.
const fs = require('node:fs') as typeof import('node:fs');
const realWrite = fs.writeSync as (fd: number, buffer: Uint8Array, offset: number, length: number) => number;

/** Runs `f` with writeSync replaced by `fake`; returns how often the fake was called. */
function withWrite(fake: (fd: number, buffer: Uint8Array, offset: number, length: number) => number, f: () => void): number {
  const write = mock.method(fs, 'writeSync', fake);
  try {
    f();
  } finally {
    write.mock.restore();
  }
  return write.mock.callCount();
}

function scratchFile(): { file: string; fd: number } {
  const file = join(mkdtempSync(join(tmpdir(), 'kstbench-write-all-')), 'out.bin');
  return { file, fd: openSync(file, 'w') };
}

test('short writes are continued from where they stopped until every byte is written', () => {
  const { file, fd } = scratchFile();
  const calls = withWrite((d, b, off, len) => realWrite(d, b, off, Math.min(len, 5)), () => writeChunk(fd, 'héllo, wörld: 18 b'));
  closeSync(fd);
  assert.equal(readFileSync(file, 'utf8'), 'héllo, wörld: 18 b');
  assert.equal(calls, 4, '20 bytes (two of them two-byte characters) in writes of at most 5');
});

test('a full disk after a short write: the ENOSPC of the next write is thrown, not swallowed', () => {
  const { fd } = scratchFile();
  let room = 3;
  const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
  assert.throws(
    () =>
      withWrite((d, b, off, len) => {
        if (room === 0) throw enospc;
        const n = realWrite(d, b, off, Math.min(len, room));
        room -= n;
        return n;
      }, () => writeChunk(fd, 'more than three bytes')),
    (e) => e === enospc,
  );
  closeSync(fd);
});

test('a full non-blocking pipe (EAGAIN) waits 1, 2, 4 … 64 ms between tries, then writes the rest', () => {
  const { file, fd } = scratchFile();
  let busy = 9;
  const waits: number[] = [];
  withWrite(
    (d, b, off, len) => {
      if (busy-- > 0) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN', syscall: 'write' });
      return realWrite(d, b, off, len);
    },
    () => writeChunk(fd, Uint8Array.from([1, 2, 3]), (ms) => waits.push(ms)),
  );
  closeSync(fd);
  assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 64, 64, 64]);
  assert.deepEqual([...readFileSync(file)], [1, 2, 3]);
});
