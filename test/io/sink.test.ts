/** The streaming sink (lib/io/sink.ts) under the same target rules as writeFileAtomic: device, FIFO, link. */
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { openFileSink } from '../../lib/io';

test('openFileSink: a link to /dev/null is written through and kept; a link to a file replaces the file, keeps the link', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-sink2-'));
  try {
    const dev = join(dir, 'dev');
    symlinkSync('/dev/null', dev);
    const s = openFileSink(dev);
    s.write('a');
    s.commit();
    assert.ok(lstatSync(dev).isSymbolicLink());
    const real = join(dir, 'real.txt');
    writeFileSync(real, 'old');
    const link = join(dir, 'link.txt');
    symlinkSync(real, link);
    const t = openFileSink(link);
    t.write('new');
    t.commit();
    assert.equal(readFileSync(real, 'utf8'), 'new');
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.deepEqual(readdirSync(dir).sort(), ['dev', 'link.txt', 'real.txt']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('openFileSink: a full device fails naming the path the user gave', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-sink2-'));
  try {
    const full = join(dir, 'full');
    symlinkSync('/dev/full', full);
    const s = openFileSink(full);
    assert.throws(() => s.write('x'.repeat(5000)), (err: unknown) => err instanceof InputError && err.message === `cannot write ${full}: ENOSPC (no space left on the device)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('openFileSink: a temporary left by a killed writer of the same file (SIGKILL mid-stream) is removed when the next one starts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-sink-'));
  const out = join(dir, 'space.srbt');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
  writeFileSync(join(dir, `.space.srbt.${dead}.tmp`), 'the first 300 MB of a space');
  const s = openFileSink(out);
  s.write('whole\n');
  s.commit();
  assert.deepEqual(readdirSync(dir), ['space.srbt']);
  assert.equal(readFileSync(out, 'utf8'), 'whole\n');
});
