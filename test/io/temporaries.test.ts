/**
 * Every temporary file is listed from before its creation to its rename, and removed on every exit:
 * an exception, process.exit, and (through the CLI's handler, test/cli/interrupt.test.ts) a signal.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveTemporaries, openFileSink, removeLiveTemporaries, temporarySibling, trackTemporary } from '../../lib/io';

const ROOT = join(__dirname, '..', '..');

test('an open sink lists its temporary file; commit and abort take it off the list', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-tmp-'));
  try {
    const a = openFileSink(join(dir, 'a.txt'));
    assert.deepEqual(liveTemporaries(), [temporarySibling(join(dir, 'a.txt'))]);
    a.write('x');
    a.commit();
    const b = openFileSink(join(dir, 'b.txt'));
    b.abort();
    assert.deepEqual(liveTemporaries(), []);
    const c = openFileSink(join(dir, 'c.txt'));
    c.write('half');
    assert.deepEqual(removeLiveTemporaries(), { removed: 1, left: [] });
    assert.deepEqual(readdirSync(dir), ['a.txt']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a process that exits (process.exit) mid-write leaves no temporary file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-tmp-'));
  try {
    const script = `const { openFileSink } = require(${JSON.stringify(join(ROOT, 'lib', 'io'))}); const s = openFileSink(${JSON.stringify(join(dir, 'out.txt'))}); s.write('half'); process.exit(3);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(run.status, 3, run.stderr);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(existsSync(join(dir, 'out.txt')), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a listed temporary folder is removed with what is in it (the figure browser\'s profile)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-temporaries-'));
  const profile = join(dir, 'kstbench-chromium-x');
  mkdirSync(join(profile, 'Default'), { recursive: true });
  writeFileSync(join(profile, 'Default', 'Preferences'), '{}');
  trackTemporary(profile);
  assert.ok(removeLiveTemporaries().removed >= 1);
  assert.deepEqual(readdirSync(dir), []);
});

test('a temporary that cannot be removed is reported with its code, not thrown, and the others are still removed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-temporaries-'));
  const stuck = join(dir, 'kstbench-chromium-stuck');
  const other = join(dir, 'other.tmp');
  writeFileSync(other, 'x');
  trackTemporary(stuck);
  trackTemporary(other);
  const busy = (path: string) => {
    if (path === stuck) throw Object.assign(new Error('ENOTEMPTY: directory not empty'), { code: 'ENOTEMPTY' });
    rmSync(path, { force: true });
  };
  assert.deepEqual(removeLiveTemporaries(busy), { removed: 1, left: [{ path: stuck, code: 'ENOTEMPTY' }] });
  assert.equal(existsSync(other), false);
  assert.deepEqual(liveTemporaries(), []);
  rmSync(dir, { recursive: true, force: true });
});

