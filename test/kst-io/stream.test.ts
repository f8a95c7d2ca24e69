import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bitsToIds, buildDomain, compileStructure, enumerateStates, forEachStateBits, outerFringeBits, UNLIMITED, walkSpace, type Domain } from '../../lib/kst';
import { countForJson, countStatesExact } from '../../lib/kst/space';
import { consumingSink, exportStructure, streamStates, writeSpaceJsonLines } from '../../lib/kst-io';
import { tiny } from '../kst/random-poset';
import { exported } from './helpers';

const text = (chunks: Iterable<string | Uint8Array>): string => [...chunks].map((c) => (typeof c === 'string' ? c : Buffer.from(c).toString('utf8'))).join('');

/**
 * The two routes to c of test/kst/basis.test.ts, then a chain of 66 items after d, each by either
 * route ({a,c,d,c0…ck} and {b,c,d,c0…ck}): 70 items (three words), one part, 10 + 3 · 66 = 208 states.
 */
function wideRoutes(): Domain {
  const chain = Array.from({ length: 66 }, (_, i) => `c${i}`);
  const ids = ['a', 'b', 'c', 'd', ...chain];
  const basis = [['a'], ['b'], ['a', 'c'], ['b', 'c'], ['a', 'c', 'd'], ['b', 'c', 'd'], ...chain.flatMap((_, i) => [['a', 'c', 'd', ...chain.slice(0, i + 1)], ['b', 'c', 'd', ...chain.slice(0, i + 1)]])];
  return buildDomain({ id: 'wide-routes', title: 't', source: 'test', components: ids.map((id) => ({ id, description: id })), basis });
}

const anyBudget = () => 'the test walk';

test('streamStates: one 0/1 line per state, cells joined by the separator, rows counted', () => {
  // A → B over {A, B, C}: states ∅, A, C, AB, AC, ABC (6) as A B C codes
  const d = tiny(['A', 'B', 'C'], [['A', 'B']]);
  const chunks: string[] = [];
  assert.equal(streamStates(d, ',', (c) => chunks.push(text([c]))), 6);
  assert.equal(chunks.length, 1, 'six lines fit in one batch');
  assert.deepEqual(chunks[0]!.split('\n').filter(Boolean).sort(), ['0,0,0', '0,0,1', '1,0,0', '1,0,1', '1,1,0', '1,1,1']);
  let plain = '';
  streamStates(d, '', (c) => (plain += text([c])));
  assert.ok(plain.endsWith('\n'));
  assert.deepEqual(plain.split('\n').filter(Boolean).sort(), ['000', '001', '100', '101', '110', '111']);
});

test('streamStates writes the rows of a walked space in its order, kept or walked again; exportStructure writes the same file from it', () => {
  const d = wideRoutes();
  assert.equal(d.quasiOrdinal, false);
  const streamed: Array<string | Uint8Array> = [];
  assert.equal(streamStates(d, '', (c) => streamed.push(c)), 208);
  const rows = text(streamed).split('\n').slice(0, -1);
  assert.ok(rows.every((r) => /^[01]{70}$/.test(r)), 'every row 70 cells of 0/1, nothing past the row');
  const states = enumerateStates(d).map((state) => d.ids.map((id) => (state.includes(id) ? '1' : '0')).join(''));
  assert.deepEqual([...rows].sort(), states.sort(), 'the rows are the states, cells in item order');
  const kept = walkSpace(d, UNLIMITED, anyBudget);
  const walked = walkSpace(d, UNLIMITED, anyBudget, 208 * 12 - 1);
  assert.deepEqual([kept.how, walked.how], ['kept', 'walked']);
  for (const space of [kept, walked]) {
    const again: Array<string | Uint8Array> = [];
    assert.equal(streamStates(d, '', (c) => again.push(c), space), 208);
    assert.equal(text(again), text(streamed), space.how);
  }
  for (const format of ['srbt', 'kst', 'matrix', 'csv'] as const) {
    for (const space of [kept, walked]) {
      let fromWalk = '';
      exportStructure(d, 'space', format, (c) => (fromWalk += text([c])), undefined, space);
      assert.equal(fromWalk, exported(d, 'space', format), `${format}, ${space.how}`);
    }
  }
  assert.match(exported(d, 'space', 'srbt'), /^#SRBT v2\.0 space ASCII\n70\n208\n/);
});

/** kstbench space's JSON Lines as the writer before this one built them: a string per state, from JSON.stringify. */
function jsonLinesByStrings(d: Domain): string {
  const s = compileStructure(d);
  const header = { domain: d.id, components: d.ids, structure: d.quasiOrdinal ? 'quasi-ordinal' : 'general', notions: d.notions, states: countForJson(countStatesExact(d)) };
  let out = `${JSON.stringify(header)}\n`;
  forEachStateBits(s, (bits) => {
    out += `${JSON.stringify({ state: bitsToIds(s, bits), outer_fringe: bitsToIds(s, outerFringeBits(s, bits)) })}\n`;
  });
  return out;
}

test('writeSpaceJsonLines writes the bytes JSON.stringify gives, line by line: IDs short and long, empty lists, chunks past 1 MiB', () => {
  // IDs of 1 to 12 characters: up to 5 an ID with its quotes and comma is written by two 32-bit stores, from 6 byte by byte.
  const mixed = tiny(
    Array.from({ length: 12 }, (_, i) => 'abcdefghijkl'.slice(0, i + 1)),
    [['a', 'abc'], ['ab', 'abcdefgh'], ['abcdef', 'abcdefghijkl']],
  );
  // 12 independent items of 60 characters: 4,096 lines of up to 780 bytes, 3 MB, more than one 1 MiB chunk.
  const long = tiny(Array.from({ length: 12 }, (_, i) => `item-${String(i).padStart(55, '0')}`), [], 'long');
  for (const d of [mixed, tiny(['A', 'B', 'C'], [['A', 'B']]), wideRoutes(), long]) {
    const chunks: Array<string | Uint8Array> = [];
    for (const space of [walkSpace(d, UNLIMITED, anyBudget), walkSpace(d, UNLIMITED, anyBudget, 1)]) {
      chunks.length = 0;
      writeSpaceJsonLines(d, space, (c) => chunks.push(c));
      assert.equal(text(chunks), jsonLinesByStrings(d), `${d.id}, ${space.how}`);
    }
    if (d === long) assert.ok(chunks.length > 2, `${chunks.length} chunks: the header and more than one of lines`);
  }
  assert.match(jsonLinesByStrings(mixed), /\n\{"state":\[\],"outer_fringe":\["a","ab","abcd","abcde","abcdef","abcdefg","abcdefghi","abcdefghij","abcdefghijk"\]\}\n/);
});

test('a consuming sink (the CLI\'s synchronous file write) gets the same bytes as a keeping one, its one buffer refilled across 1 MiB chunks', () => {
  // 12 independent items of 60 characters: 4,096 states, 3 MB of JSON Lines and 53 kB of SRBT rows; 20
  // independent items: 1,048,576 rows of 21 bytes, 21 MiB of SRBT, so both writers refill their buffer.
  const long = tiny(Array.from({ length: 12 }, (_, i) => `item-${String(i).padStart(55, '0')}`), [], 'long');
  const wide = tiny(Array.from({ length: 20 }, (_, i) => `i${i}`), [], 'wide');
  const writers = [
    ['JSON Lines', long, (sink: Parameters<typeof writeSpaceJsonLines>[2]) => writeSpaceJsonLines(long, walkSpace(long, UNLIMITED, anyBudget), sink)],
    ['SRBT', wide, (sink: Parameters<typeof writeSpaceJsonLines>[2]) => exportStructure(wide, 'space', 'srbt', sink, undefined, walkSpace(wide, UNLIMITED, anyBudget))],
  ] as const;
  for (const [what, , write] of writers) {
    const kept: Array<string | Uint8Array> = [];
    write((c) => kept.push(c));
    const copied: Buffer[] = [];
    const buffers = new Set<ArrayBufferLike>();
    write(
      consumingSink((c) => {
        if (typeof c !== 'string') buffers.add(c.buffer);
        copied.push(Buffer.from(typeof c === 'string' ? Buffer.from(c) : c));
      }),
    );
    assert.ok(kept.length > 2, `${what}: ${kept.length} chunks, more than one of rows`);
    assert.equal(buffers.size, 1, `${what}: one buffer refilled`);
    assert.ok(Buffer.concat(copied).equals(Buffer.from(text(kept), 'utf8')), `${what}: the same bytes`);
  }
});
