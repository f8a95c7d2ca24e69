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
  buildDomain,
  countStatesExact,
  walkSpace,
  BudgetError,
  UNLIMITED,
  workBudget,
  type Domain,
  type WalkedSpace,
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

/** A basis on a…e whose walk has dead ends: 5 states ({a,c,e}, {a,b,d,e}, {b,c,d,e}, their union, ∅) in 7 splits. */
const deadEnds = (): Domain =>
  buildDomain({ id: 'dead-ends', title: 't', source: 'test', components: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, description: id })), basis: [['a', 'c', 'e'], ['a', 'b', 'd', 'e'], ['b', 'c', 'd', 'e']] });

/** Two routes to c (test/kst/basis.test.ts); with `copies` 2, beside a second copy on its own items (a basis of two parts: 10 · 10 states). */
function twoRoutes(copies = 1): Domain {
  const ids = Array.from({ length: copies }, (_, k) => ['a', 'b', 'c', 'd'].map((x) => `${x}${k}`));
  const basis = ids.flatMap(([a, b, c, d]) => [[a!], [b!], [a!, c!], [b!, c!], [a!, c!, d!], [b!, c!, d!]]);
  return buildDomain({ id: `two-routes-${copies}`, title: 't', source: 'test', components: ids.flat().map((id) => ({ id, description: id })), basis });
}

test('walkSpace: one walk of a basis of one part keeps its states (forEach replays them in walk order), past maxBytes it walks again; a prerequisite space or a basis of two parts is counted', () => {
  const walkOrder = (d: Domain): string[] => {
    const out: string[] = [];
    forEachStateBits(compileStructure(d), (bits) => out.push(bits.join(',')));
    return out;
  };
  const replayed = (space: WalkedSpace): string[] => {
    const out: string[] = [];
    space.forEach((bits) => out.push(bits.join(',')));
    return out;
  };
  const d = twoRoutes();
  // 10 states of one word: kept up to exactly 40 bytes.
  const kept = walkSpace(d, UNLIMITED, () => 'w', 40);
  assert.deepEqual([kept.how, kept.count], ['kept', 10n]);
  assert.deepEqual(replayed(kept), walkOrder(d));
  assert.deepEqual(replayed(kept), replayed(kept), 'forEach replays the same states each time');
  const again = walkSpace(d, UNLIMITED, () => 'w', 39);
  assert.deepEqual([again.how, again.count], ['walked', 10n]);
  assert.deepEqual(replayed(again), walkOrder(d));
  // More states than one chunk of kept words (2^20 words): x0, then any of x1…x20, and y after x1 or
  // after x2 (one part: every element holds x0): 1 + 2^20 + (2^20 − 2^18) states of one word each.
  const xs = Array.from({ length: 21 }, (_, i) => `x${i}`);
  const hub = buildDomain({ id: 'hub', title: 't', source: 'test', components: [...xs, 'y'].map((id) => ({ id, description: id })), basis: [['x0'], ...xs.slice(1).map((x) => ['x0', x]), ['x0', 'x1', 'y'], ['x0', 'x2', 'y']] });
  // The states in order, as a checksum (1.8 million of them).
  const checksum = (forEach: (visit: (bits: Uint32Array) => void) => void): string => {
    let hash = 0x811c9dc5;
    let count = 0;
    forEach((bits) => {
      count++;
      for (const word of bits) hash = Math.imul(hash ^ word, 16777619);
    });
    return `${count}:${hash >>> 0}`;
  };
  const big = walkSpace(hub, UNLIMITED, () => 'w');
  assert.deepEqual([big.how, big.count], ['kept', BigInt(1 + 2 ** 20 + 2 ** 20 - 2 ** 18)]);
  assert.equal(checksum((visit) => big.forEach(visit)), checksum((visit) => forEachStateBits(compileStructure(hub), visit)));
  for (const counted of [tiny(['A', 'B', 'C'], [['A', 'B']]), twoRoutes(2)]) {
    const space = walkSpace(counted, UNLIMITED, () => 'w');
    assert.deepEqual([space.how, space.count], ['counted', countStatesExact(counted)]);
    assert.deepEqual(replayed(space), walkOrder(counted));
  }
});

test('walkSpace under --max-states N refuses exactly what `space --count` under N refuses, and a space of more than N states', () => {
  // The rule of docs/cli.md: a space is written exactly when countStatesExact under the same budget
  // counts it and it has at most N states. dead-ends has 5 states and a 7-split walk, two-routes 10
  // states in 10 splits, its two-part double 100 states counted in 20 splits.
  for (const d of [deadEnds(), twoRoutes(), twoRoutes(2), tiny(['A', 'B', 'C'], [['A', 'B']])]) {
    for (let n = 1; n <= 110; n++) {
      let counts: boolean;
      let count = 0n;
      try {
        count = countStatesExact(d, workBudget(n));
        counts = true;
      } catch (err) {
        assert.ok(err instanceof BudgetError);
        counts = false;
      }
      let message = '';
      try {
        const space = walkSpace(d, workBudget(n), (c) => `writing the ${c === undefined ? '' : `${c} `}states`);
        assert.equal(space.count, count);
      } catch (err) {
        assert.ok(err instanceof BudgetError, String(err));
        message = err.message;
      }
      assert.equal(message === '', counts && count <= BigInt(n), `${d.id}, --max-states ${n}: ${message}`);
      if (message !== '' && counts) assert.match(message, new RegExp(`^writing the ${count} states needs ${count} steps, over the work budget --max-states ${n};`));
      if (message !== '' && !counts) assert.match(message, new RegExp(`^writing the states needs more than ${n} steps, over the work budget --max-states ${n};`));
    }
  }
  // dead-ends: 5 states, yet refused under 5 and 6, because its walk takes 7 steps (as --count would).
  assert.throws(() => walkSpace(deadEnds(), workBudget(6), () => 'x'), BudgetError);
  assert.equal(walkSpace(deadEnds(), workBudget(7), () => 'x').count, 5n);
});
