import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { isOsError, osErrorMeaning, osErrorMessage, osInputError, osWriteErrorAt } from '../../lib/io/os-error';

const osError = (code: string, syscall: string, path?: string) => Object.assign(new Error(`${code}: ${syscall}`), { code, syscall, ...(path ? { path } : {}) });

test('ENOSPC and EACCES: one line naming the path, with the resume command when given', () => {
  const enospc = osError('ENOSPC', 'write', '/out/attempts.jsonl');
  assert.ok(isOsError(enospc));
  assert.equal(osErrorMessage(enospc, 'kstbench collect …'), 'cannot write /out/attempts.jsonl: ENOSPC (no space left on the device); fix it, then resume with: kstbench collect …');
  const eacces = osError('EACCES', 'open', '/ro/run.json');
  assert.match(osErrorMessage(eacces), /^cannot write \/ro\/run.json: EACCES \(permission denied\)$/);
});

test('ENOTDIR, EISDIR, EROFS, EEXIST: each code has its own wording; the verb follows the syscall', () => {
  assert.equal(osErrorMessage(osError('ENOTDIR', 'mkdir', '/data/file/out')), 'cannot write /data/file/out: ENOTDIR (a path component is a file, not a directory)');
  assert.equal(osErrorMessage(osError('EISDIR', 'read', '/data/prices')), 'cannot read /data/prices: EISDIR (a directory is where a file is expected)');
  assert.equal(osErrorMessage(osError('EROFS', 'rename', '/mnt/ro/run.json.tmp')), 'cannot write /mnt/ro/run.json.tmp: EROFS (read-only file system)');
  assert.equal(osErrorMessage(osError('EEXIST', 'mkdir', '/out')), 'cannot write /out: EEXIST (a file of that name is in the way)');
  assert.equal(osErrorMessage(osError('ENOENT', 'stat', '/missing')), 'cannot read /missing: ENOENT (no such file or directory)');
  // rename/copyfile carry the destination in `dest` when `path` is absent
  const copy = Object.assign(new Error('x'), { code: 'ENOSPC', syscall: 'copyfile', dest: '/full/disk' });
  assert.equal(osErrorMessage(copy), 'cannot write /full/disk: ENOSPC (no space left on the device)');
  assert.equal(osErrorMessage(osError('EMFILE', 'open')), 'cannot write (unknown path): EMFILE (too many open files)');
});

test('isOsError: only a system error with a known code and a syscall', () => {
  assert.equal(isOsError(new Error('plain')), false);
  assert.equal(isOsError(null), false);
  assert.equal(isOsError(Object.assign(new Error('x'), { code: 'ENOSPC' })), false, 'no syscall: not from the OS');
  assert.equal(isOsError(Object.assign(new Error('x'), { code: 'ERR_INVALID_ARG_TYPE', syscall: 'open' })), false, 'a Node argument error');
  assert.equal(isOsError(osError('EDQUOT', 'write', '/q')), true);
});

test('real errors from the file system: a directory under a file (ENOTDIR), a directory opened as a file (EISDIR)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-os-error-'));
  const file = join(dir, 'plain');
  writeFileSync(file, 'x');
  let caught: unknown;
  try {
    mkdirSync(join(file, 'sub'));
  } catch (err) {
    caught = err;
  }
  assert.ok(isOsError(caught));
  assert.equal(osErrorMessage(caught), `cannot write ${join(file, 'sub')}: ENOTDIR (a path component is a file, not a directory)`);
  try {
    writeFileSync(dir, 'x');
    assert.fail('writing to a directory should throw');
  } catch (err) {
    assert.ok(isOsError(err));
    assert.equal(osErrorMessage(err), `cannot write ${dir}: EISDIR (a directory is where a file is expected)`);
  }
  // Node's readFileSync of a directory fails in read(2), whose error carries no path: the message
  // can then only say so (callers that know the path should name it).
  try {
    readFileSync(dir);
    assert.fail('reading a directory should throw');
  } catch (err) {
    assert.ok(isOsError(err));
    assert.equal(osErrorMessage(err), 'cannot read (unknown path): EISDIR (a directory is where a file is expected)');
  }
});

test('osInputError is an InputError naming the file, with the same one-line message', () => {
  const err = osInputError(osError('EACCES', 'open', '/ro/attempts.jsonl'), 'kstbench collect --out /ro');
  assert.ok(err instanceof InputError);
  assert.equal(err.message, 'cannot write /ro/attempts.jsonl: EACCES (permission denied); fix it, then resume with: kstbench collect --out /ro');
  assert.deepEqual(err.where, { file: '/ro/attempts.jsonl' });
});

test('osErrorMeaning: the words for a known code, the code itself for an unknown one', () => {
  assert.equal(osErrorMeaning('ENOSPC'), 'no space left on the device');
  assert.equal(osErrorMeaning('ENOTDIR'), 'a path component is a file, not a directory');
  assert.equal(osErrorMeaning('EWHATEVER'), 'EWHATEVER');
});

test('osWriteErrorAt names the target the caller asked for, not the temporary sibling the syscall saw', () => {
  const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write', path: '/out/.space.txt.42.tmp' });
  const e = osWriteErrorAt('/out/space.txt', enospc);
  assert.equal(e.message, 'cannot write /out/space.txt: ENOSPC (no space left on the device)');
  assert.equal(e.where.file, '/out/space.txt');
  assert.equal(osWriteErrorAt('standard output', new Error('broken')).message, 'cannot write standard output: broken');
});

test('real errors a user meets: a name too long (ENAMETOOLONG), a loop of links (ELOOP), a file over ulimit -f (EFBIG): each known, in words', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-os-error-'));
  const long = join(dir, 'a'.repeat(300));
  const loop = join(dir, 'loop');
  symlinkSync(loop, loop);
  const caught = (f: () => void): unknown => {
    try {
      f();
    } catch (err) {
      return err;
    }
    return assert.fail('expected an OS error');
  };
  const tooLong = caught(() => mkdirSync(long));
  assert.ok(isOsError(tooLong));
  assert.equal(osErrorMessage(tooLong), `cannot write ${long}: ENAMETOOLONG (file name too long)`);
  const looped = caught(() => writeFileSync(loop, 'x'));
  assert.ok(isOsError(looped));
  assert.equal(osErrorMessage(looped), `cannot write ${loop}: ELOOP (too many levels of symbolic links)`);
  // EFBIG comes from write(2) past RLIMIT_FSIZE (test/cli/out-paths.test.ts meets it for real); its shape:
  const big = Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG', errno: -27, syscall: 'write', path: '/out/states.json' });
  assert.ok(isOsError(big));
  assert.equal(osErrorMessage(big), 'cannot write /out/states.json: EFBIG (file too large: over the file-size limit (ulimit -f) or what the file system allows)');
});
