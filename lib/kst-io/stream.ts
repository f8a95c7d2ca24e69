// lib/kst's modules themselves, not its index: the index also loads sampling and presentation
// (seedrandom, lib/stats), which `kstbench space` and `export` never use (CLI start-up).
import type { Domain } from '../kst/domain';
import { outerFringeBits } from '../kst/fringe';
import { countForJson, forEachStateBits, type WalkedSpace } from '../kst/space';
import { compileStructure } from '../kst/structure';

/**
 * A space written state by state as bytes: the 0/1 rows of the kstIO formats (streamStates) and
 * kstbench's JSON Lines (writeSpaceJsonLines). Both write each state from its bitset into 1 MiB
 * buffers, each handed to the sink once full, with no string built per state. A new buffer follows,
 * so a sink may keep the one it got, unless the sink consumes each chunk before it returns
 * (consumingSink: a synchronous write); then the one buffer is filled again, which saves the page
 * faults and garbage collection of a fresh MiB per chunk (about 30–40 ms CPU of the CLI's 105 MiB
 * SRBT file of the bench's random 77-item basis).
 */

/** What an export writes to: text for headers, bytes for the rows of a streamed space. */
export type ChunkSink = ((chunk: string | Uint8Array) => void) & { readonly consumesChunks?: true };

/** A sink that is done with each chunk when `write` returns (it writes it out or copies it), so writers may reuse their buffer. */
export function consumingSink(write: (chunk: string | Uint8Array) => void): ChunkSink {
  return Object.assign((chunk: string | Uint8Array) => write(chunk), { consumesChunks: true as const });
}

/** Bytes per chunk handed to the sink when streaming a space. */
const STREAM_BYTES = 1 << 20;

/** The states a writer visits: a walked space (walkSpace), or by default a walk of the domain's space. */
type States = Pick<WalkedSpace, 'forEach'>;

function statesOf(domain: Domain, space: States | undefined): States {
  if (space) return space;
  const s = compileStructure(domain);
  return { forEach: (visit) => void forEachStateBits(s, visit) };
}

/**
 * Every state as a 0/1 line (cells joined by `separator`: "" or ","), in the order `space` visits them
 * (by default a walk of the space). Returns the number of rows written.
 */
export function streamStates(domain: Domain, separator: '' | ',', sink: ChunkSink, space?: States): number {
  const n = compileStructure(domain).n;
  const step = separator === '' ? 1 : 2;
  const lineBytes = n * step + (separator === '' ? 1 : 0);
  const size = Math.max(STREAM_BYTES, lineBytes);
  // 8 bytes of slack: a row without separators is written 8 cells at a time and may run 7 cells past its end.
  let buffer = new Uint8Array(size + 8);
  let view = new DataView(buffer.buffer);
  let at = 0;
  let rows = 0;
  const comma = separator.charCodeAt(0);
  statesOf(domain, space).forEach((bits) => {
    rows++;
    if (at + lineBytes > size) {
      sink(buffer.subarray(0, at));
      if (!sink.consumesChunks) {
        buffer = new Uint8Array(size + 8);
        view = new DataView(buffer.buffer);
      }
      at = 0;
    }
    if (step === 1) {
      // Each byte of the bitset as its 8 ASCII cells, two 32-bit stores from CELLS_LOW/CELLS_HIGH
      // (bits past n are 0; the cells they write are overwritten by the newline and the next row).
      let i = at;
      for (let w = 0, x = 0; x < n; w++, x += 32) {
        const word = bits[w]!;
        for (let b = 0; b < 32 && x + b < n; b += 8, i += 8) {
          const byte = (word >>> b) & 255;
          view.setInt32(i, CELLS_LOW[byte]!, true);
          view.setInt32(i + 4, CELLS_HIGH[byte]!, true);
        }
      }
      buffer[at + n] = 10;
    } else {
      let i = at;
      for (let w = 0, x = 0; x < n; w++) {
        const word = bits[w]!;
        const end = Math.min(n, x + 32);
        for (let b = 0; x < end; x++, b++, i += 2) {
          buffer[i] = 48 | ((word >>> b) & 1);
          buffer[i + 1] = comma;
        }
      }
      buffer[i - 1] = 10;
    }
    at += lineBytes;
  });
  if (at > 0) sink(buffer.subarray(0, at));
  return rows;
}

/** CELLS_LOW[byte] / CELLS_HIGH[byte]: the ASCII cells '0'/'1' of bits 0–3 / 4–7 of a byte, as a little-endian 32-bit word. */
const [CELLS_LOW, CELLS_HIGH] = [0, 4].map((first) =>
  Int32Array.from({ length: 256 }, (_, byte) => {
    let cells = 0;
    for (let k = 0; k < 4; k++) cells |= (48 | ((byte >>> (first + k)) & 1)) << (8 * k);
    return cells;
  }),
) as [Int32Array, Int32Array];

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
// Each list's "[" is written over the comma before its first ID (or alone when the list is empty).
const LINE_START = ascii('{"state":');
const LINE_MIDDLE = ascii('],"outer_fringe":');
const LINE_END = ascii(']}\n');

/**
 * `kstbench space`'s JSON Lines: a first line {"domain","components","structure","notions","states"},
 * then one line {"state":[IDs],"outer_fringe":[IDs]} per state in the order `space` visits them, IDs
 * in canonical order. Each line is written from the state's bitset and its outer fringe's into the
 * buffer: every ID with the comma before it is encoded once (the bytes of JSON.stringify), and one of
 * at most 8 bytes is written by two 32-bit stores (the bytes past it are overwritten by what follows).
 */
export function writeSpaceJsonLines(domain: Domain, space: WalkedSpace, sink: ChunkSink): void {
  const s = compileStructure(domain);
  const header = { domain: domain.id, components: domain.ids, structure: domain.quasiOrdinal ? 'quasi-ordinal' : 'general', notions: domain.notions, states: countForJson(space.count) };
  sink(`${JSON.stringify(header)}\n`);
  const ids = encodedIds(s.ids);
  // The longest line: every ID in the state or in the fringe (never both), a comma before each, and "[" for an empty list.
  const lineBytes = LINE_START.length + LINE_MIDDLE.length + LINE_END.length + ids.bytes.length + 2;
  const size = Math.max(STREAM_BYTES, lineBytes);
  let buffer = new Uint8Array(size + 8);
  let view = new DataView(buffer.buffer);
  let at = 0;
  const put = (part: Uint8Array): void => {
    for (let k = 0; k < part.length; k++) buffer[at++] = part[k]!;
  };
  const list = (bits: Uint32Array): void => {
    const from = at;
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w]!;
      while (word !== 0) {
        const low = word & -word;
        const i = (w << 5) + 31 - Math.clz32(low);
        const length = ids.length[i]!;
        if (length <= 8) {
          view.setInt32(at, ids.low[i]!, true);
          view.setInt32(at + 4, ids.high[i]!, true);
          at += length;
        } else for (let k = ids.start[i]!, end = ids.start[i + 1]!; k < end; k++) buffer[at++] = ids.bytes[k]!;
        word ^= low;
      }
    }
    if (at === from) buffer[at++] = 91;
    else buffer[from] = 91;
  };
  const fringe = new Uint32Array(s.words);
  space.forEach((bits) => {
    if (at + lineBytes > size) {
      sink(buffer.subarray(0, at));
      if (!sink.consumesChunks) {
        buffer = new Uint8Array(size + 8);
        view = new DataView(buffer.buffer);
      }
      at = 0;
    }
    put(LINE_START);
    list(bits);
    put(LINE_MIDDLE);
    list(outerFringeBits(s, bits, fringe));
    put(LINE_END);
  });
  if (at > 0) sink(buffer.subarray(0, at));
}

/**
 * Each ID's JSON text (JSON.stringify) as UTF-8 with a comma before it, packed: ID i is
 * bytes[start[i] .. start[i + 1]), length[i] bytes; low[i] and high[i] are its first 8 bytes as two
 * little-endian 32-bit words (zero-padded).
 */
function encodedIds(ids: readonly string[]): { bytes: Uint8Array; start: Int32Array; length: Int32Array; low: Int32Array; high: Int32Array } {
  const encoder = new TextEncoder();
  const parts = ids.map((id) => encoder.encode(`,${JSON.stringify(id)}`));
  const start = new Int32Array(ids.length + 1);
  parts.forEach((part, i) => (start[i + 1] = start[i]! + part.length));
  const bytes = new Uint8Array(start[ids.length]!);
  parts.forEach((part, i) => bytes.set(part, start[i]!));
  const word = (part: Uint8Array, from: number): number => {
    let value = 0;
    for (let k = 0; k < 4; k++) value |= (part[from + k] ?? 0) << (8 * k);
    return value;
  };
  return {
    bytes,
    start,
    length: Int32Array.from(parts, (part) => part.length),
    low: Int32Array.from(parts, (part) => word(part, 0)),
    high: Int32Array.from(parts, (part) => word(part, 4)),
  };
}
