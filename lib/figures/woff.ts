import { inflateSync } from 'node:zlib';

/**
 * Converts a WOFF 1.0 font (W3C WOFF File Format 1.0: a 44-byte header, a 20-byte directory entry per
 * table, each table zlib-compressed unless that would not make it smaller) back into the TrueType/OpenType
 * file it wraps, so fontconfig can read it. Tables keep the WOFF directory's order (sorted by tag, as
 * the format requires) and are padded to 4 bytes. Throws on anything that is not a well-formed WOFF.
 */
export function woffToSfnt(woff: Buffer, what = 'font'): Buffer {
  if (woff.length < 44 || woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error(`${what}: not a WOFF 1.0 file`);
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables: Array<{ tag: number; checksum: number; data: Buffer }> = [];
  for (let i = 0; i < numTables; i++) {
    const at = 44 + 20 * i;
    if (at + 20 > woff.length) throw new Error(`${what}: WOFF directory runs past the end of the file`);
    const tag = woff.readUInt32BE(at);
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const checksum = woff.readUInt32BE(at + 16);
    if (offset + compLength > woff.length) throw new Error(`${what}: WOFF table ${i} runs past the end of the file`);
    const stored = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : Buffer.from(stored);
    if (data.length !== origLength) throw new Error(`${what}: WOFF table ${i} inflates to ${data.length} bytes, expected ${origLength}`);
    tables.push({ tag, checksum, data });
  }
  const entrySelector = Math.floor(Math.log2(Math.max(1, numTables)));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + 16 * numTables);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const chunks: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const rec = 12 + 16 * i;
    header.writeUInt32BE(t.tag, rec);
    header.writeUInt32BE(t.checksum, rec + 4);
    header.writeUInt32BE(offset, rec + 8);
    header.writeUInt32BE(t.data.length, rec + 12);
    const padded = Buffer.alloc(Math.ceil(t.data.length / 4) * 4);
    t.data.copy(padded);
    chunks.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(chunks);
}
