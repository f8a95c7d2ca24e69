/**
 * lib/figures/woff.ts: WOFF 1.0 back to the TrueType/OpenType file it wraps. The expected bytes are
 * built here by hand from the two format descriptions (W3C WOFF 1.0 §3–§5; the OpenType table directory).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { woffToSfnt } from '../../lib/figures/woff';

const tag = (s: string) => Buffer.from(s, 'latin1').readUInt32BE(0);

/** A WOFF with the given tables (sorted by tag as the format requires), each compressed when that is smaller. */
function woff(tables: Array<{ tag: string; data: Buffer; checksum: number; forceStored?: boolean }>, flavor = 0x00010000): Buffer {
  const header = Buffer.alloc(44);
  header.write('wOFF', 0, 'latin1');
  header.writeUInt32BE(flavor, 4);
  header.writeUInt16BE(tables.length, 12);
  const dir = Buffer.alloc(20 * tables.length);
  const bodies: Buffer[] = [];
  let offset = 44 + dir.length;
  tables.forEach((t, i) => {
    const z = deflateSync(t.data);
    const stored = t.forceStored || z.length >= t.data.length ? t.data : z;
    dir.writeUInt32BE(tag(t.tag), 20 * i);
    dir.writeUInt32BE(offset, 20 * i + 4);
    dir.writeUInt32BE(stored.length, 20 * i + 8);
    dir.writeUInt32BE(t.data.length, 20 * i + 12);
    dir.writeUInt32BE(t.checksum, 20 * i + 16);
    bodies.push(stored);
    offset += stored.length;
  });
  return Buffer.concat([header, dir, ...bodies]);
}

test('two tables, one compressed and one stored: the sfnt header, directory and 4-byte padded tables', () => {
  const glyf = Buffer.alloc(40, 0x41); // 40 × "A": compresses
  const head = Buffer.from([1, 2, 3, 4, 5]); // 5 bytes: stored, padded to 8
  const sfnt = woffToSfnt(woff([{ tag: 'glyf', data: glyf, checksum: 0x11111111 }, { tag: 'head', data: head, checksum: 0x22222222 }]));
  // Header: flavor, numTables 2, searchRange 2^floor(log2 2)·16 = 32, entrySelector 1, rangeShift 2·16 − 32 = 0.
  assert.deepEqual([sfnt.readUInt32BE(0), sfnt.readUInt16BE(4), sfnt.readUInt16BE(6), sfnt.readUInt16BE(8), sfnt.readUInt16BE(10)], [0x00010000, 2, 32, 1, 0]);
  // Directory: 12 + 2·16 = 44 bytes, then glyf at 44 (40 bytes), head at 84 (5 bytes, padded to 88 in all → 92 total).
  const entry = (i: number) => [sfnt.readUInt32BE(12 + 16 * i), sfnt.readUInt32BE(16 + 16 * i), sfnt.readUInt32BE(20 + 16 * i), sfnt.readUInt32BE(24 + 16 * i)];
  assert.deepEqual(entry(0), [tag('glyf'), 0x11111111, 44, 40]);
  assert.deepEqual(entry(1), [tag('head'), 0x22222222, 84, 5]);
  assert.equal(sfnt.length, 92);
  assert.ok(sfnt.subarray(44, 84).equals(glyf));
  assert.ok(sfnt.subarray(84, 92).equals(Buffer.from([1, 2, 3, 4, 5, 0, 0, 0])));
});

test('five tables: searchRange 64, entrySelector 2, rangeShift 16 (5·16 − 64)', () => {
  const tables = ['cmap', 'glyf', 'head', 'hhea', 'maxp'].map((t, i) => ({ tag: t, data: Buffer.alloc(4, i), checksum: i }));
  const sfnt = woffToSfnt(woff(tables, 0x4f54544f)); // 'OTTO' flavour is kept
  assert.deepEqual([sfnt.readUInt32BE(0), sfnt.readUInt16BE(4), sfnt.readUInt16BE(6), sfnt.readUInt16BE(8), sfnt.readUInt16BE(10)], [0x4f54544f, 5, 64, 2, 16]);
});

test('malformed input is refused with a message naming the font', () => {
  assert.throws(() => woffToSfnt(Buffer.from('not a font'), 'x.woff'), { message: 'x.woff: not a WOFF 1.0 file' });
  const good = woff([{ tag: 'glyf', data: Buffer.alloc(40, 1), checksum: 0 }]);
  const noDir = Buffer.from(good.subarray(0, 44));
  assert.throws(() => woffToSfnt(noDir, 'f'), { message: 'f: WOFF directory runs past the end of the file' });
  assert.throws(() => woffToSfnt(good.subarray(0, good.length - 1), 'f'), { message: 'f: WOFF table 0 runs past the end of the file' });
  const lying = Buffer.from(good);
  lying.writeUInt32BE(41, 44 + 12); // origLength 41, but the stream inflates to 40
  assert.throws(() => woffToSfnt(lying, 'f'), { message: 'f: WOFF table 0 inflates to 40 bytes, expected 41' });
});

test('the pinned DejaVu Sans WOFF unpacks to a TrueType file whose tables are the WOFF\'s, in order, at their original lengths', () => {
  const file = require.resolve('@fontsource/dejavu-sans/files/dejavu-sans-latin-400-normal.woff');
  const w = readFileSync(file);
  const sfnt = woffToSfnt(w, file);
  const n = w.readUInt16BE(12);
  assert.equal(sfnt.readUInt32BE(0), w.readUInt32BE(4));
  assert.equal(sfnt.readUInt16BE(4), n);
  for (let i = 0; i < n; i++) {
    assert.equal(sfnt.readUInt32BE(12 + 16 * i), w.readUInt32BE(44 + 20 * i), `tag ${i}`);
    assert.equal(sfnt.readUInt32BE(24 + 16 * i), w.readUInt32BE(44 + 20 * i + 12), `length ${i}`);
  }
  // WOFF header field totalSfntSize (offset 16) is the size of the uncompressed font, padding included.
  assert.equal(sfnt.length, w.readUInt32BE(16));
});
