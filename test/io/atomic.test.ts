/**
 * lib/io/atomic.ts: a file is either the old one or the complete new one; a set of files is written
 * only when every one of them could be staged; no temporary sibling is ever left behind; an OS error is
 * Node's own (code, syscall) naming the target path.
 */
import { test, mock } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, type PathLike } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic, writeFilesAtomic } from '../../lib/io/atomic';
import { onWriteNotice } from '../../lib/io/target';

// The module object itself (an `import * as` namespace is a copy): lib/io/atomic.ts calls renameSync through it.
const fs = require('node:fs') as typeof import('node:fs');

const temp = () => mkdtempSync(join(tmpdir(), 'kstbench-atomic-'));
/** Every file below `dir`, relative, sorted (temporary siblings start with "."). */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map(String).sort();
}

test('writeFileAtomic makes the folders, writes the bytes, replaces an old file and leaves no temporary file', () => {
  const dir = temp();
  const file = join(dir, 'a', 'b', 'out.txt');
  writeFileAtomic(file, 'first\n');
  assert.equal(readFileSync(file, 'utf8'), 'first\n');
  writeFileAtomic(file, Uint8Array.from([0x68, 0x69])); // "hi"
  assert.equal(readFileSync(file, 'utf8'), 'hi');
  assert.deepEqual(tree(dir), ['a', join('a', 'b'), join('a', 'b', 'out.txt')]);
});

test('a path component that is a file: ENOTDIR naming the path on one line, nothing written', () => {
  const dir = temp();
  writeFileSync(join(dir, 'plain'), 'x');
  const target = join(dir, 'plain', 'sub', 'out.csv');
  assert.throws(
    () => writeFilesAtomic([{ path: join(dir, 'first.csv'), data: '1\n' }, { path: target, data: '2\n' }]),
    (e: NodeJS.ErrnoException) => e.code === 'ENOTDIR' && e.syscall === 'mkdir' && e.message.includes(join(dir, 'plain')) && !e.message.includes('\n'),
  );
  // The first file had been staged; it is removed with its temporary sibling: no output at all.
  assert.deepEqual(tree(dir), ['plain']);
});

test('a target that is a directory: EISDIR before any rename, so the other files are not written either', () => {
  const dir = temp();
  mkdirSync(join(dir, 'table.csv'));
  assert.throws(
    () => writeFilesAtomic([{ path: join(dir, 'first.csv'), data: '1\n' }, { path: join(dir, 'table.csv'), data: '2\n' }]),
    (e: NodeJS.ErrnoException) => e.code === 'EISDIR' && e.syscall === 'rename' && e.path === join(dir, 'table.csv') && !e.message.includes('\n'),
  );
  assert.deepEqual(tree(dir), ['table.csv']);
});

test('the folder of a target disappears before its rename: ENOENT naming the target, no temporary file left', () => {
  const dir = temp();
  const keep = join(dir, 'keep.txt');
  const gone = join(dir, 'gone', 'out.txt');
  const real = fs.renameSync;
  // Remove gone/ (and the staged temporary file in it) just before its rename: the race a user deleting
  // the output folder mid-write would cause.
  const rename = mock.method(fs, 'renameSync', (from: PathLike, to: PathLike) => {
    if (to === gone) rmSync(join(dir, 'gone'), { recursive: true });
    return real(from, to);
  });
  try {
    assert.throws(
      () => writeFilesAtomic([{ path: keep, data: 'k' }, { path: gone, data: 'g' }]),
      (e: NodeJS.ErrnoException) => e.code === 'ENOENT' && e.syscall === 'rename' && e.path === gone && !e.message.includes('\n'),
    );
  } finally {
    rename.mock.restore();
  }
  assert.equal(rename.mock.callCount(), 2, 'both renames were attempted through the mock');
  // The file renamed before the failure is complete; nothing else, no temporary sibling.
  assert.deepEqual(tree(dir), ['keep.txt']);
  assert.equal(readFileSync(keep, 'utf8'), 'k');
});

test('a rename that fails for a later file removes every temporary file not yet renamed', () => {
  const dir = temp();
  const files = ['a.txt', 'b.txt', 'c.txt'].map((n) => ({ path: join(dir, n), data: n }));
  const real = fs.renameSync;
  const rename = mock.method(fs, 'renameSync', (from: PathLike, to: PathLike) => {
    if (to === files[1]!.path) throw Object.assign(new Error(`ENOSPC: no space left on device, rename '${String(from)}' -> '${String(to)}'`), { code: 'ENOSPC', syscall: 'rename', path: String(from) });
    return real(from, to);
  });
  try {
    assert.throws(() => writeFilesAtomic(files), (e: NodeJS.ErrnoException) => e.code === 'ENOSPC' && e.path === files[1]!.path);
  } finally {
    rename.mock.restore();
  }
  assert.deepEqual(tree(dir), ['a.txt']);
});

test('a disk that fills in the middle of a write: ENOSPC naming the target, the old file kept, no temporary file', () => {
  // write(2) on a file system with 10 bytes left stores those 10 and returns 10 (a short write); only
  // the next write fails with ENOSPC. A writer that trusts one writeSync to write everything renamed the
  // first 10 bytes over the old file and reported success (`kstbench sample --out` on a full tmpfs).
  const dir = temp();
  const file = join(dir, 'states.json');
  writeFileSync(file, 'old\n');
  const real = fs.writeSync as (fd: number, buffer: Uint8Array, offset: number, length: number) => number;
  let room = 10;
  const write = mock.method(fs, 'writeSync', (fd: number, buffer: Uint8Array, offset = 0, length = buffer.length - offset) => {
    if (room === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    const n = real(fd, buffer, offset, Math.min(length, room));
    room -= n;
    return n;
  });
  try {
    assert.throws(
      () => writeFileAtomic(file, 'x'.repeat(100)),
      (e: NodeJS.ErrnoException) => e.code === 'ENOSPC' && e.syscall === 'write' && e.path === file,
    );
  } finally {
    write.mock.restore();
  }
  assert.equal(write.mock.callCount(), 2, 'the short write, then the one that found the disk full');
  assert.equal(readFileSync(file, 'utf8'), 'old\n');
  assert.deepEqual(tree(dir), ['states.json']);
});

test('a temporary file left by a killed writer (its pid gone) is removed by the next write of that file and named on stderr; a live one is kept', () => {
  const dir = temp();
  const file = join(dir, 'space.jsonl');
  writeFileSync(file, 'old\n');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!; // exited: its pid names no process now
  const live = process.ppid;
  const left = join(dir, `.space.jsonl.${dead}.tmp`);
  const writing = join(dir, `.space.jsonl.${live}.tmp`);
  const other = join(dir, `.other.jsonl.${dead}.tmp`);
  for (const f of [left, writing, other]) writeFileSync(f, 'half a space');
  const notes: string[] = [];
  const previous = onWriteNotice((m) => notes.push(m));
  try {
    writeFileAtomic(file, 'new\n');
  } finally {
    onWriteNotice(previous);
  }
  assert.equal(readFileSync(file, 'utf8'), 'new\n');
  assert.deepEqual(tree(dir), [`.other.jsonl.${dead}.tmp`, `.space.jsonl.${live}.tmp`, 'space.jsonl'], 'only the dead writer’s temporary of this file is gone');
  assert.deepEqual(notes, [`removed ${left}, left by an earlier run (pid ${dead}) that was killed before it finished writing space.jsonl`]);
});
