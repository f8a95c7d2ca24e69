/** Size-limited input reads (lib/io/read.ts): devices and FIFOs refused by type, never opened; a size cap; strict UTF-8. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import seedrandom from 'seedrandom';
import { readInputText } from '../../lib/io';
import { firstInvalidUtf8 } from '../../lib/io/read';
import { ROOT } from '../support/files';
import { RUN_TYPESCRIPT } from '../support/typescript';

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

test('readUtf8File has the same guards: a FIFO given as a models file is refused, not waited on; a size cap', () => {
  // In a child with a time limit: before the guard, readFileSync on the FIFO waited for a writer for ever.
  const dir = mkdtempSync(join(tmpdir(), 'kst-read-'));
  try {
    const fifo = join(dir, 'models.json');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(101));
    const script = `
      const { readUtf8File } = require(${JSON.stringify(join(ROOT, 'lib', 'io', 'read.ts'))});
      const { loadModelsFile } = require(${JSON.stringify(join(ROOT, 'lib', 'collect', 'providers', 'endpoints.ts'))});
      const tryIt = (f) => { try { f(); return 'read'; } catch (err) { return err.constructor.name + ': ' + err.message; } };
      const [fifo, big] = process.argv.slice(1);
      console.log(JSON.stringify([
        tryIt(() => loadModelsFile(fifo)),
        tryIt(() => readUtf8File('/dev/zero', (why) => 'zero (' + why + ')')),
        tryIt(() => readUtf8File(big, (why) => 'big (' + why + ')', 100)),
        readUtf8File(big, (why) => why, 101).length,
      ]));`;
    const child = spawnSync(process.execPath, [...RUN_TYPESCRIPT, '-e', script, fifo, big], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(child.signal, null, `the child hung (killed by ${child.signal})`);
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), [
      `InputError: ${fifo}: cannot read the models file (it is a named pipe (FIFO), not a regular file)`,
      'InputError: zero (it is a character device, not a regular file)',
      'InputError: big (101 bytes, more than the 100-byte limit for one input file)',
      101,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readInputText refuses invalid UTF-8 with the line and byte offset of the first bad sequence; a BOM stays in the text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-read-'));
  try {
    const file = join(dir, 'domain.json');
    writeFileSync(file, Buffer.concat([Buffer.from('{\n"a": 1,\n"b": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"\n}\n')]));
    // 0xed 0xa0 0x80 is a UTF-16 surrogate (U+D800) written as UTF-8: ill-formed.
    assert.throws(() => readInputText(file, 'domain file'), (err: unknown) =>
      err instanceof InputError && err.where.line === 3 && err.message === `${file}:3: invalid UTF-8 at byte offset 16 (0xed 0xa0 0x80 0x22); save the file as UTF-8`);
    writeFileSync(file, Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    assert.equal(readInputText(file), '\ufeff{}');
    writeFileSync(file, Buffer.from('a\nb\u00e9'));
    assert.equal(readInputText(file), 'a\nb\u00e9');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('firstInvalidUtf8 finds where the WHATWG decoder first puts U+FFFD, on 3000 seeded random byte strings', () => {
  const random = seedrandom('first-invalid-utf8');
  // Bytes drawn mostly from the ranges where UTF-8's rules bite (leads, continuations, edges).
  const edges = [0x00, 0x41, 0x0a, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff];
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const lenient = new TextDecoder('utf-8');
  let invalid = 0;
  for (let trial = 0; trial < 3000; trial++) {
    const bytes = Uint8Array.from({ length: Math.floor(random() * 12) }, () => edges[Math.floor(random() * edges.length)]!);
    const at = firstInvalidUtf8(bytes);
    if (at === bytes.length) {
      assert.doesNotThrow(() => fatal.decode(bytes), `bytes ${Array.from(bytes)}`);
      continue;
    }
    invalid++;
    assert.throws(() => fatal.decode(bytes), `bytes ${Array.from(bytes)}`);
    const before = fatal.decode(bytes.subarray(0, at)); // everything before it is well-formed
    assert.ok(lenient.decode(bytes).startsWith(before + '\ufffd'), `bytes ${Array.from(bytes)}: offset ${at}`);
  }
  assert.ok(invalid > 1000 && invalid < 3000, `${invalid} invalid strings: the draw tests both outcomes`);
});
