import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDir } from '../../lib/io/dirs';

const scratch = (): string => mkdtempSync(join(tmpdir(), 'kstbench-dirs-'));

test('ensureDir creates every missing level and accepts a directory that exists', () => {
  const root = scratch();
  const deep = join(root, 'a', 'b', 'c');
  ensureDir(deep);
  assert.ok(statSync(deep).isDirectory());
  ensureDir(deep);
  ensureDir(root);
  assert.ok(statSync(join(root, 'a', 'b')).isDirectory());
});

test('ensureDir: a file where the directory should be is EEXIST, a file above it ENOTDIR', () => {
  const root = scratch();
  const file = join(root, 'f');
  writeFileSync(file, '');
  assert.throws(() => ensureDir(file), (e: NodeJS.ErrnoException) => e.code === 'EEXIST' && e.path === file);
  assert.throws(() => ensureDir(join(file, 'x', 'y')), (e: NodeJS.ErrnoException) => e.code === 'ENOTDIR');
});

test('ensureDir ends with ENOENT under /proc, where mkdirSync({ recursive: true }) never returns', () => {
  assert.ok(statSync('/proc').isDirectory(), 'the test machines are Linux, with /proc');
  assert.throws(() => ensureDir('/proc/kstbench-no/such'), (e: NodeJS.ErrnoException) => e.code === 'ENOENT' && e.path === '/proc/kstbench-no');
});
