/**
 * Writes that never clobber (lib/io/target.ts through writeFileAtomic): a symlink to a device (the
 * device stand-in: a test cannot mknod), a FIFO, a symlink to a regular file, a dangling link and a
 * directory, each in a temporary folder. The device and the FIFO must still be what they were.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { onWriteNotice, writeFileAtomic, writeTarget } from '../../lib/io';
import { osErrorMessage } from '../../lib/io/os-error';

function withDir(body: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kst-target-'));
  return Promise.resolve(body(dir)).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test('a link to a character device is written through: the link stays a link, /dev/null stays a device, no temporary file', () =>
  withDir((dir) => {
    const link = join(dir, 'null');
    symlinkSync('/dev/null', link);
    const notes: string[] = [];
    const previous = onWriteNotice((m) => notes.push(m));
    try {
      writeFileAtomic(link, 'discarded\n');
    } finally {
      onWriteNotice(previous);
    }
    assert.ok(lstatSync(link).isSymbolicLink(), 'the link was replaced');
    assert.ok(lstatSync('/dev/null').isCharacterDevice());
    assert.deepEqual(readdirSync(dir), ['null']);
    assert.match(notes.join('\n'), /null is a character device: written through directly \(not atomically, no temporary file\)/);
  }));

test('a full device names the file it could not write (ENOSPC, not "(unknown path)")', () =>
  withDir((dir) => {
    const link = join(dir, 'full');
    symlinkSync('/dev/full', link);
    assert.throws(
      () => writeFileAtomic(link, 'x'.repeat(10000)),
      (err: unknown) => osErrorMessage(err as NodeJS.ErrnoException) === `cannot write ${link}: ENOSPC (no space left on the device)`,
    );
  }));

test('a FIFO with a reader is written through (the reader gets the bytes); with none it is refused, not waited on', () =>
  withDir(async (dir) => {
    const fifo = join(dir, 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    assert.throws(() => writeFileAtomic(fifo, 'x'), (err: unknown) => err instanceof InputError && /named pipe \(FIFO\) with no reader/.test(err.message));
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (d) => (got += d));
    const done = new Promise((resolve) => reader.on('close', resolve));
    // Let cat open its end first (under load that can take seconds); never wait on a reader that is not there.
    let written = false;
    for (let i = 0; i < 1500 && !written && writeTarget(fifo).mode === 'through'; i++) {
      try {
        writeFileAtomic(fifo, 'through the pipe\n');
        written = true;
      } catch (err) {
        if (!(err instanceof InputError)) throw err;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    if (!written) reader.kill();
    assert.ok(written, 'cat did not open the FIFO within 30 s');
    await done;
    assert.equal(got, 'through the pipe\n');
    assert.ok(lstatSync(fifo).isFIFO(), 'the FIFO was replaced');
    assert.deepEqual(readdirSync(dir), ['pipe']);
  }));

test('a link to a regular file: the file it points to is replaced atomically, the link is kept', () =>
  withDir((dir) => {
    mkdirSync(join(dir, 'real'));
    const target = join(dir, 'real', 'out.json');
    writeFileSync(target, 'old');
    const link = join(dir, 'out.json');
    symlinkSync(target, link);
    writeFileAtomic(link, 'new');
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readFileSync(target, 'utf8'), 'new');
    assert.deepEqual(readdirSync(join(dir, 'real')), ['out.json']);
  }));

test('a dangling link and a directory are refused by what they are, leaving nothing behind', () =>
  withDir((dir) => {
    const dangling = join(dir, 'gone');
    symlinkSync(join(dir, 'nowhere'), dangling);
    assert.throws(() => writeFileAtomic(dangling, 'x'), /symbolic link to a missing file/);
    mkdirSync(join(dir, 'folder'));
    assert.throws(() => writeFileAtomic(join(dir, 'folder'), 'x'), (err: unknown) => (err as NodeJS.ErrnoException).code === 'EISDIR');
    assert.deepEqual(readdirSync(dir).sort(), ['folder', 'gone']);
    assert.deepEqual(readdirSync(join(dir, 'folder')), []);
  }));

test('writeTarget: an OS error of the look itself (a name too long, a loop of links) is one line saying "cannot write", not "cannot read"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-target-'));
  const long = join(dir, `${'a'.repeat(300)}.json`);
  assert.throws(() => writeTarget(long), (e: unknown) => e instanceof InputError && e.message === `cannot write ${long}: ENAMETOOLONG (file name too long)`);
  const loop = join(dir, 'loop');
  symlinkSync(loop, loop);
  const through = join(loop, 'out.json');
  assert.throws(() => writeTarget(through), (e: unknown) => e instanceof InputError && e.message === `cannot write ${through}: ELOOP (too many levels of symbolic links)`);
  // The control: a plain new name in the same folder is an atomic target.
  assert.equal(writeTarget(join(dir, 'out.json')).mode, 'atomic');
});
