import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { openFileSink } from '../../lib/kst-io/sink';

function withDir(body: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'kst-sink-'));
  try {
    body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('openFileSink: nothing at the path until commit; then exactly the chunks, no temporary file left', () => {
  withDir((dir) => {
    const path = join(dir, 'sub', 'space.txt');
    const sink = openFileSink(path);
    sink.write('00\n');
    sink.write('11\n');
    assert.equal(existsSync(path), false, 'not visible before commit');
    sink.commit();
    assert.equal(readFileSync(path, 'utf8'), '00\n11\n');
    assert.deepEqual(readdirSync(join(dir, 'sub')), ['space.txt']);
  });
});

test('openFileSink: abort leaves an existing file untouched and removes the temporary file', () => {
  withDir((dir) => {
    const path = join(dir, 'space.txt');
    writeFileSync(path, 'old\n');
    const sink = openFileSink(path);
    sink.write('new\n');
    sink.abort();
    sink.abort(); // a second abort is harmless
    assert.equal(readFileSync(path, 'utf8'), 'old\n');
    assert.deepEqual(readdirSync(dir), ['space.txt']);
  });
});

test('openFileSink: an OS error is an InputError naming the path and the code', () => {
  withDir((dir) => {
    const file = join(dir, 'plain');
    writeFileSync(file, '');
    // a regular file used as a directory: ENOTDIR (or EEXIST from mkdir) when opening
    const path = join(file, 'space.txt');
    assert.throws(
      () => openFileSink(path),
      (e: unknown) => e instanceof InputError && e.where.file === path && e.message.startsWith(`cannot write ${path}: `) && /: (ENOTDIR|EEXIST) \(.+\)$/.test(e.message),
    );
  });
});
