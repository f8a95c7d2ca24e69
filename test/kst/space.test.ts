import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import {
  compareMasks,
  compileStructure,
  countStates,
  enumerateStates,
  forEachStateBits,
  forEachStateMask,
  isClosedUnderUnionAndIntersection,
} from '../../lib/kst';
import { bitIndices } from '../../lib/kst/bitset';
import { bruteForceStates, maskIds, randomDomain, tiny } from './random-poset';

test('enumerateStates of A→B over {A, B, C}, sorted by size then canonical index', () => {
  const d = tiny(['A', 'B', 'C'], [['A', 'B']]);
  assert.deepEqual(enumerateStates(d), [[], ['A'], ['C'], ['A', 'B'], ['A', 'C'], ['A', 'B', 'C']]);
  assert.equal(countStates(d), 6);
});

test('chain of n has n + 1 states; antichain of n has 2^n', () => {
  const chain = tiny(['A', 'B', 'C', 'D'], [['A', 'B'], ['B', 'C'], ['C', 'D']]);
  assert.deepEqual(enumerateStates(chain), [[], ['A'], ['A', 'B'], ['A', 'B', 'C'], ['A', 'B', 'C', 'D']]);
  const anti = tiny(['A', 'B', 'C', 'D', 'E'], []);
  assert.equal(countStates(anti), 32);
  assert.equal(enumerateStates(anti).length, 32);
});

test('sorting: equal sizes ordered lexicographically by canonical index, not by ID text', () => {
  // canonical order Z, A, M (no prerequisites): singletons come out as Z, A, M
  const d = tiny(['Z', 'A', 'M'], []);
  assert.deepEqual(enumerateStates(d).slice(0, 4), [[], ['Z'], ['A'], ['M']]);
  assert.deepEqual(enumerateStates(d).slice(4, 7), [['Z', 'A'], ['Z', 'M'], ['A', 'M']]);
  assert.equal(compareMasks(0b011, 0b101), -1); // {0,1} < {0,2}
  assert.equal(compareMasks(0b110, 0b101), 1); // {1,2} > {0,2}
  assert.equal(compareMasks(0b100, 0b011), -1); // smaller size first
  assert.equal(compareMasks(5, 5), 0);
});

test('non-topological file order: states still respect prerequisites', () => {
  const d = tiny(['C', 'B', 'A'], [['A', 'B'], ['B', 'C']]);
  assert.deepEqual(enumerateStates(d), [[], ['A'], ['B', 'A'], ['C', 'B', 'A']]);
});

test('property: enumeration equals brute force over all 2^n subsets (200 random DAGs, n ≤ 12)', () => {
  for (let k = 0; k < 200; k++) {
    const n = 1 + (k % 12);
    const d = randomDomain(`space-${k}`, n, [0.05, 0.2, 0.4, 0.7][k % 4]!);
    const expected = bruteForceStates(d);
    const s = compileStructure(d);
    const seen: number[] = [];
    const count = forEachStateMask(s, (mask) => seen.push(mask));
    assert.equal(count, expected.length, d.id);
    assert.deepEqual([...seen].sort((a, b) => a - b), expected, `${d.id}: forEachStateMask`);
    const viaBits: number[] = [];
    forEachStateBits(s, (bits) => viaBits.push(bits[0]!));
    assert.deepEqual(viaBits.sort((a, b) => a - b), expected, `${d.id}: forEachStateBits`);
    assert.equal(countStates(d), expected.length, `${d.id}: countStates`);
    const states = enumerateStates(d);
    assert.deepEqual(states, [...expected].sort(compareMasks).map((m) => maskIds(d, m)), `${d.id}: enumerateStates`);
    assert.equal(isClosedUnderUnionAndIntersection(states), true, `${d.id}: closure`);
    assert.deepEqual(states[0], []);
    assert.deepEqual(states.at(-1), d.ids);
  }
});

test('domains with more than 32 components use the word path', () => {
  // 34 components: two chains of 17 -> 18 * 18 = 324 states
  const ids = Array.from({ length: 34 }, (_, i) => `T${i}`);
  const pairs: Array<[string, string]> = [];
  for (let i = 1; i < 17; i++) pairs.push([ids[i - 1]!, ids[i]!]);
  for (let i = 18; i < 34; i++) pairs.push([ids[i - 1]!, ids[i]!]);
  const d = tiny(ids, pairs, 'two-chains');
  assert.equal(countStates(d), 324);
  const states = enumerateStates(d);
  assert.equal(states.length, 324);
  assert.deepEqual(states[1], ['T0']);
  assert.deepEqual(states[2], ['T17']);
  assert.throws(() => forEachStateMask(compileStructure(d), () => {}), RangeError);
  // A 40-component antichain-free check: random 40-task DAG, count via product of parts equals enumeration.
  const r = randomDomain('wide-40', 40, 0.12);
  let n = 0;
  forEachStateBits(compileStructure(r), (bits) => {
    // every visited set is closed under direct prerequisites
    const members = new Set(bitIndices(bits).map((i) => r.ids[i]!));
    for (const [p, q] of r.prerequisites) if (members.has(q)) assert.ok(members.has(p));
    n++;
  });
  assert.equal(countStates(r), n);
});

test('a component in bit 31 and a full 32-bit antichain count correctly', () => {
  const ids = Array.from({ length: 32 }, (_, i) => `T${i}`);
  const chain = tiny(ids, ids.slice(1).map((id, i) => [ids[i]!, id] as [string, string]), 'chain32');
  const masks: number[] = [];
  forEachStateMask(compileStructure(chain), (m) => masks.push(m));
  assert.equal(masks.length, 33);
  assert.ok(masks.includes(0xffffffff), 'full state is reported as an unsigned mask');
  assert.equal(countStates(tiny(ids, [], 'anti32')), 2 ** 32);
});

test('enumerateStates refuses more than maxStates states', () => {
  const d = tiny(['A', 'B', 'C', 'D'], []);
  assert.throws(() => enumerateStates(d, { maxStates: 10 }), (e: unknown) => e instanceof InputError && /more than 10/.test(e.message));
});

test('isClosedUnderUnionAndIntersection on hand-made families', () => {
  assert.equal(isClosedUnderUnionAndIntersection([]), true);
  assert.equal(isClosedUnderUnionAndIntersection([[], ['a'], ['b'], ['a', 'b']]), true);
  assert.equal(isClosedUnderUnionAndIntersection([[], ['a'], ['b']]), false); // union {a,b} missing
  assert.equal(isClosedUnderUnionAndIntersection([['a', 'b'], ['b', 'c'], ['a', 'b', 'c']]), false); // {b} missing
  assert.equal(isClosedUnderUnionAndIntersection([['b', 'a'], ['a', 'b', 'a']]), true); // order and duplicates ignored
});
