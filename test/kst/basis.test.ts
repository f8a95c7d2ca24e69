import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import {
  buildDomain,
  checkState,
  countStates,
  coverRelation,
  enumerateStates,
  innerFringe,
  outerFringe,
  outerFringeNotions,
  sampleStates,
  surmiseFunction,
  checkSpace,
  reduceNotions,
  type Domain,
} from '../../lib/kst';
import { basisModel, countUnionStates, decisionOrder, forEachUnionState, isStateFromBasis, outerFringeFromBasis } from '../../lib/kst/basis';
import { BudgetError, workBudget } from '../../lib/kst/budget';
import { domainBasisModel } from '../../lib/kst';
import { randomDomain, taskComponents } from './random-poset';

const ids4 = ['a', 'b', 'c', 'd'];
const components = taskComponents;

/**
 * Two routes to c: c can be learned after a OR after b; d needs c. Basis (atoms):
 *   {a}, {b}, {a,c}, {b,c}, {a,c,d}, {b,c,d}
 * Unions: ∅, a, b, ab, ac, bc, abc (= ac ∪ b), acd, bcd, abcd (= acd ∪ b)  → 10 states.
 * Not intersection-closed: ac ∩ bc = {c} is not a state, so no prerequisite relation expresses it
 * (the surmise-relation closure would have a ≺ c? no: {b,c} has no a; so c has no necessary
 * prerequisite, and the quasi-ordinal hull would wrongly admit {c}, {c,d}, …).
 */
function twoRoutes(form: 'basis' | 'states' | 'surmise'): Domain {
  const base = { id: 'two-routes', title: 'Two routes', source: 'hand-made', components: components(ids4) };
  if (form === 'basis') return buildDomain({ ...base, basis: [['a'], ['b'], ['a', 'c'], ['b', 'c'], ['a', 'c', 'd'], ['b', 'c', 'd']] });
  if (form === 'states') {
    return buildDomain({
      ...base,
      states: [[], ['a'], ['b'], ['a', 'b'], ['a', 'c'], ['b', 'c'], ['a', 'b', 'c'], ['a', 'c', 'd'], ['b', 'c', 'd'], ['a', 'b', 'c', 'd']],
    });
  }
  return buildDomain({ ...base, surmise: { c: [['a'], ['b']], d: [['a', 'c'], ['b', 'c']] } });
}

test('two routes to a task: basis, family and surmise function give the same space (hand-worked)', () => {
  for (const form of ['basis', 'states', 'surmise'] as const) {
    const d = twoRoutes(form);
    assert.equal(d.form, form);
    assert.equal(d.quasiOrdinal, false, form);
    assert.deepEqual(d.notions, []);
    assert.deepEqual(d.basis, [['a'], ['b'], ['a', 'c'], ['b', 'c'], ['a', 'c', 'd'], ['b', 'c', 'd']], form);
    assert.equal(countStates(d), 10, form);
    assert.deepEqual(enumerateStates(d), [
      [], ['a'], ['b'], ['a', 'b'], ['a', 'c'], ['b', 'c'], ['a', 'b', 'c'], ['a', 'c', 'd'], ['b', 'c', 'd'], ['a', 'b', 'c', 'd'],
    ]);
    // Necessary prerequisites: only c before d (every route to d passes c); a and b are alternatives.
    assert.deepEqual(d.prerequisites, [['c', 'd']]);
    // Fringes worked by hand:
    // {a}: + b → ab ✓, + c → ac ✓, + d → ad ✗          outer {b, c}
    assert.deepEqual(outerFringe(d, ['a']), ['b', 'c']);
    // {a,c}: − a → {c} ✗, − c → {a} ✓                   inner {c}
    assert.deepEqual(innerFringe(d, ['a', 'c']), ['c']);
    // {a,b,c}: − a → bc ✓, − b → ac ✓, − c → ab ✓       inner {a, b, c}; outer + d → abcd ✓
    assert.deepEqual(innerFringe(d, ['a', 'b', 'c']), ['a', 'b', 'c']);
    assert.deepEqual(outerFringe(d, ['a', 'b', 'c']), ['d']);
    // Q: − a → bcd ✓, − b → acd ✓, − c → abd ✗, − d → abc ✓
    assert.deepEqual(innerFringe(d, ids4), ['a', 'b', 'd']);
    // ∅: + a ✓, + b ✓, + c ✗ (no route), + d ✗
    assert.deepEqual(outerFringe(d, []), ['a', 'b']);
    const bad = checkState(d, ['c']);
    assert.equal(bad.ok, false);
    assert.match((bad as { reason: string }).reason, /c is in the state but no route to it is: it also needs a; or b/);
    assert.throws(() => outerFringe(d, ['c', 'd']), InputError);
    // Surmise function: c after a or after b; d after {a,c} or {b,c}.
    assert.deepEqual(surmiseFunction(d), { a: [[]], b: [[]], c: [['a'], ['b']], d: [['a', 'c'], ['b', 'c']] });
    const check = checkSpace(d);
    assert.equal(check.knowledgeSpace, true);
    assert.equal(check.quasiOrdinal, false);
    assert.equal(check.learningSpace, true);
  }
});

test('a cycle in a prerequisite list stays an error', () => {
  assert.throws(
    () => buildDomain({ id: 'c', title: 'c', source: 't', components: components(['a', 'b']), prerequisites: [['a', 'b'], ['b', 'a']] }),
    /prerequisite cycle a -> b -> a/,
  );
});

// ---------------------------------------------------------------------------------------------------
// Property tests on random bases.

/** Brute-force union closure of a family of sets given as integer masks (n ≤ 12): fixpoint iteration. */
function bruteClosure(sets: number[]): Set<number> {
  const family = new Set<number>([0, ...sets]);
  for (let changed = true; changed; ) {
    changed = false;
    const list = [...family];
    for (const a of list) for (const b of list) if (!family.has(a | b)) (family.add(a | b), (changed = true));
  }
  return family;
}

/** Brute-force basis: states that are not the union of the states strictly inside them. */
function bruteBasis(family: Set<number>): number[] {
  const list = [...family];
  return list.filter((s) => s !== 0 && list.filter((t) => t !== s && (t & ~s) === 0).reduce((u, t) => u | t, 0) !== s);
}

function maskToIds(mask: number, ids: string[]): string[] {
  return ids.filter((_, i) => (mask >>> i) & 1);
}

function randomBasisCase(seed: string): { ids: string[]; family: Set<number>; basis: number[] } {
  const rng = seedrandom(seed);
  const n = 2 + Math.floor(rng() * 11); // 2..12
  const ids = Array.from({ length: n }, (_, i) => `q${i}`);
  const k = 1 + Math.floor(rng() * 8);
  const sets: number[] = [];
  for (let j = 0; j < k; j++) {
    let mask = 0;
    const p = 0.15 + rng() * 0.5;
    for (let i = 0; i < n; i++) if (rng() < p) mask |= 1 << i;
    if (mask !== 0) sets.push(mask);
  }
  // Make Q a state: every item in some set (equivalent items arise naturally from shared columns).
  for (let i = 0; i < n; i++) if (!sets.some((s) => (s >>> i) & 1)) sets.push(1 << i | (rng() < 0.5 && sets.length > 0 ? sets[0]! : 0));
  const family = bruteClosure(sets);
  return { ids, family, basis: bruteBasis(family) };
}

test('property: union closure of a random basis equals brute force, and all three forms agree (n ≤ 12)', () => {
  for (let t = 0; t < 150; t++) {
    const { ids, family, basis } = randomBasisCase(`closure-${t}`);
    const d = buildDomain({ id: 'r', title: 'r', source: 't', components: components(ids), basis: basis.map((m) => maskToIds(m, ids)) });
    const got = new Set(enumerateStates(d).map((s) => s.reduce((m, id) => m | (1 << d.index.get(id)!), 0)));
    assert.deepEqual([...got].sort((a, b) => a - b), [...family].sort((a, b) => a - b), `case ${t}`);
    assert.equal(countStates(d), family.size, `count ${t}`);
    const fromStates = buildDomain({ id: 'r', title: 'r', source: 't', components: components(ids), states: [...family].map((m) => maskToIds(m, ids)) });
    assert.deepEqual(fromStates.basis, d.basis, `states form ${t}`);
    const fromSurmise = buildDomain({ id: 'r', title: 'r', source: 't', components: components(ids), surmise: surmiseFunction(d) });
    assert.deepEqual(fromSurmise.basis, d.basis, `surmise form ${t}`);
  }
});

test('property: fringes from the basis equal fringes from the enumerated closure; notions found exactly', () => {
  for (let t = 0; t < 120; t++) {
    const { ids, family, basis } = randomBasisCase(`fringe-${t}`);
    const n = ids.length;
    const d = buildDomain({ id: 'r', title: 'r', source: 't', components: components(ids), basis: basis.map((m) => maskToIds(m, ids)) });
    // Notions by brute force: items contained in exactly the same states.
    const signature = (i: number): string => [...family].filter((s) => (s >>> i) & 1).sort((a, b) => a - b).join(',');
    const classes = new Map<string, number[]>();
    for (let i = 0; i < n; i++) classes.set(signature(i), [...(classes.get(signature(i)) ?? []), i]);
    const notionOf = new Map<number, number>();
    for (const members of classes.values()) for (const i of members) notionOf.set(i, members.reduce((m, j) => m | (1 << j), 0));
    assert.deepEqual(
      d.notions,
      [...classes.values()].filter((c) => c.length > 1).map((c) => c.map((i) => ids[i]!)),
      `notions ${t}`,
    );
    for (const k of family) {
      let outer = 0;
      let inner = 0;
      for (let i = 0; i < n; i++) {
        const notion = notionOf.get(i)!;
        if (!((k >>> i) & 1) && family.has(k | notion)) outer |= 1 << i;
        if ((k >>> i) & 1 && family.has(k & ~notion)) inner |= 1 << i;
      }
      const state = maskToIds(k, ids);
      assert.deepEqual(outerFringe(d, state), maskToIds(outer, ids), `outer ${t} ${state}`);
      assert.deepEqual(innerFringe(d, state), maskToIds(inner, ids), `inner ${t} ${state}`);
    }
    // A non-state is recognised as such.
    for (let mask = 0; mask < Math.min(1 << n, 256); mask++) {
      assert.equal(checkState(d, maskToIds(mask, ids)).ok, family.has(mask), `state check ${t} ${mask}`);
    }
  }
});

test('property: quasi-ordinal bases round-trip to prerequisites exactly', () => {
  for (let t = 0; t < 60; t++) {
    const poset = randomDomain(`qo-${t}`, 3 + (t % 10), 0.3);
    // The basis of a quasi-ordinal space: one atom per item, {q} ∪ pre*(q).
    const below = new Map<string, Set<string>>(poset.ids.map((id) => [id, new Set([id])]));
    for (const [p, q] of [...poset.prerequisites]) below.get(q)!.add(p);
    for (let changed = true; changed; ) {
      changed = false;
      for (const id of poset.ids) {
        for (const p of [...below.get(id)!]) for (const r of below.get(p)!) if (!below.get(id)!.has(r)) (below.get(id)!.add(r), (changed = true));
      }
    }
    const basis = poset.ids.map((id) => poset.ids.filter((x) => below.get(id)!.has(x)));
    const d = buildDomain({ id: poset.id, title: 'r', source: 't', components: poset.components, basis });
    assert.equal(d.quasiOrdinal, true, `case ${t}`);
    const key = (pairs: ReadonlyArray<readonly [string, string]>) => pairs.map(([p, q]) => `${p}<${q}`).sort();
    assert.deepEqual(key(d.prerequisites), key(coverRelation(poset)), `case ${t}`);
    assert.equal(countStates(d), countStates(poset));
    assert.deepEqual(enumerateStates(d), enumerateStates(poset));
  }
});

test('counting avoids enumeration: a star of 1 + 40 tasks has 2^40 + 1 states', () => {
  const leaves = Array.from({ length: 40 }, (_, i) => `L${i}`);
  const star = buildDomain({
    id: 'star',
    title: 'star',
    source: 't',
    components: components(['hub', ...leaves]),
    prerequisites: leaves.map((l) => ['hub', l] as [string, string]),
  });
  // hub out → every leaf out: 1 state; hub in → leaves free: 2^40.
  assert.equal(countStates(star), 2 ** 40 + 1);
});

test('union closure over more than 32 items (the word walk, renumbered into decision order) visits each state once, in original item indices', () => {
  // z after x OR after y (7 states: ∅, x, y, xy, xz, yz, xyz), beside a chain c1 < c2 < … < c30
  // (31 states): 33 items, 7 · 31 = 217 states. z, x, y come first in the file but lie in two basis
  // elements each, c1 in thirty: the decision order is not the index order.
  const chain = Array.from({ length: 30 }, (_, i) => `c${i + 1}`);
  const ids = ['z', 'x', 'y', ...chain];
  const basis = [['x'], ['y'], ['x', 'z'], ['y', 'z'], ...chain.map((_, i) => chain.slice(0, i + 1))];
  const d = buildDomain({ id: 'routes-and-chain', title: 't', source: 'test', components: taskComponents(ids), basis });
  const model = domainBasisModel(d);
  assert.notDeepEqual(Array.from(decisionOrder(model)), ids.map((_, i) => i), 'the decision order is not the index order here');
  const seen = new Set<string>();
  const count = forEachUnionState(model, (bits) => {
    assert.ok(isStateFromBasis(model, bits), `visited ${Array.from(bits).join(',')} is a union of basis elements (original indices)`);
    seen.add(Array.from(bits).join(','));
  });
  assert.equal(count, 217);
  assert.equal(seen.size, 217, 'no state visited twice');
  assert.equal(countUnionStates(model), 217);
  // {x, z, c1, c2}: bits 1, 0, 3, 4.
  assert.ok(seen.has([0b11011, 0].join(',')));
});

/** The basis of n singletons {0}, …, {n − 1} as item bitsets (its space is every subset: 2^n states). */
function singletons(n: number): Uint32Array[] {
  const words = Math.ceil(n / 32);
  return Array.from({ length: n }, (_, i) => {
    const bits = new Uint32Array(words);
    bits[i >>> 5]! |= 1 << (i & 31);
    return bits;
  });
}

test('a walk as deep as 10,000 items runs on its own stack: the first states come in walk order, then the budget stops it', () => {
  // Every item decided out first: the first state is ∅ at depth n (the recursive walk this replaced
  // overflowed Node's stack from 8,000 items). Then the walk counts upwards from the last item:
  // state k holds item n − 1 − i for each bit i of k.
  const n = 10_000;
  const model = basisModel(n, singletons(n));
  // Charged after 256 splits, then in batches of 65,536: a budget of 1,000 stops the walk at the second charge.
  const budget = workBudget(1_000);
  const seen: number[][] = [];
  assert.throws(
    () =>
      forEachUnionState(
        model,
        (bits) => {
          if (seen.length < 64) {
            const items: number[] = [];
            for (let x = 0; x < n; x++) if ((bits[x >>> 5]! >>> (x & 31)) & 1) items.push(x);
            seen.push(items);
          }
        },
        budget,
        'walking the singletons',
      ),
    (err: unknown) => err instanceof BudgetError && /walking the singletons needs more than 1000 steps, over the work budget --max-states 1000/.test((err as Error).message),
  );
  const expected = Array.from({ length: 64 }, (_, k) => {
    const items: number[] = [];
    for (let i = 5; i >= 0; i--) if ((k >>> i) & 1) items.push(n - 1 - i);
    return items;
  });
  assert.deepEqual(seen, expected);
});

test('the work budget stops a union-closure walk from inside, in both walks, and a budget just large enough lets it finish', () => {
  for (const n of [20, 40]) {
    const model = basisModel(n, singletons(n));
    let visited = 0;
    assert.throws(
      () => forEachUnionState(model, () => visited++, workBudget(100_000), 'the walk'),
      (err: unknown) => err instanceof BudgetError && /--max-states 100000/.test((err as Error).message),
      `${n} items`,
    );
    // Charged after 256 splits, then in batches of 65,536: it stops within a batch of the limit, long before 2^n states.
    assert.ok(visited > 100_000 - 65_536 && visited <= 100_000 + 65_536, `${n} items: stopped after ${visited} states`);
    assert.throws(() => countUnionStates(model, workBudget(100_000)), BudgetError);
  }
  // 2^16 states take 2^16 − 1 splits (no infeasible split on singletons): that budget suffices, one less does not.
  const model = basisModel(16, singletons(16));
  assert.equal(countUnionStates(model, workBudget(2 ** 16 - 1)), 2 ** 16);
  assert.throws(() => countUnionStates(model, workBudget(2 ** 16 - 2)), BudgetError);
});

test('property: the word walks (33–96 items in three words, 97–140 in any number) visit exactly the union closure, each state once', () => {
  const rng = seedrandom('word-walk');
  for (let t = 0; t < 60; t++) {
    const n = 33 + Math.floor(rng() * 108);
    const words = Math.ceil(n / 32);
    const sets: Uint32Array[] = [];
    const m = 1 + Math.floor(rng() * 9);
    for (let j = 0; j < m; j++) {
      const bits = new Uint32Array(words);
      const p = 0.05 + rng() * 0.4;
      for (let x = 0; x < n; x++) if (rng() < p) bits[x >>> 5]! |= 1 << (x & 31);
      sets.push(bits);
    }
    // Q must be a state: one more set holding every item in no set (at most 10 sets, 1,024 subsets below).
    const rest = new Uint32Array(words);
    for (let x = 0; x < n; x++) if (!sets.some((b) => (b[x >>> 5]! >>> (x & 31)) & 1)) rest[x >>> 5]! |= 1 << (x & 31);
    if (rest.some((v) => v !== 0)) sets.push(rest);
    // Brute force: the union of every subset of the sets (they need not be a basis: unions of others only repeat states).
    const family = new Set<string>();
    for (let mask = 0; mask < 2 ** sets.length; mask++) {
      const union = new Uint32Array(words);
      sets.forEach((b, j) => {
        if ((mask >>> j) & 1) for (let w = 0; w < words; w++) union[w]! |= b[w]!;
      });
      family.add(Array.from(union).join(','));
    }
    const basisSets = sets.filter((b, j) => {
      // Drop sets that are unions of the others inside them.
      const union = new Uint32Array(words);
      sets.forEach((c, k) => {
        if (k !== j && c.every((v, w) => (v & ~b[w]!) === 0) && !c.every((v, w) => v === b[w])) for (let w = 0; w < words; w++) union[w]! |= c[w]!;
      });
      const duplicateBefore = sets.findIndex((c) => c.every((v, w) => v === b[w])) < j;
      return !duplicateBefore && !union.every((v, w) => v === b[w]);
    });
    const model = basisModel(n, basisSets);
    const seen = new Set<string>();
    const count = forEachUnionState(model, (bits) => {
      const key = Array.from(bits).join(',');
      assert.ok(!seen.has(key), `case ${t}: ${key} visited twice`);
      seen.add(key);
    });
    assert.equal(count, family.size, `case ${t} (${n} items, ${basisSets.length} elements)`);
    assert.deepEqual([...seen].sort(), [...family].sort(), `case ${t}`);
    assert.equal(countUnionStates(model), family.size, `case ${t}`);
  }
});

/**
 * m random sets on n items, each one new item with the union of 2–7 earlier sets (the first six: one
 * item), so that they nest like prerequisites and their union closure stays countable.
 */
function nestedSets(rng: () => number, n: number, m: number): Uint32Array[] {
  const words = Math.ceil(n / 32);
  const sets: Uint32Array[] = [];
  for (let j = 0; j < m; j++) {
    const bits = new Uint32Array(words);
    const x = Math.floor(rng() * n);
    bits[x >>> 5]! |= 1 << (x & 31);
    const earlier = j < 6 ? 0 : 2 + Math.floor(rng() * 6);
    for (let k = 0; k < earlier; k++) {
      const other = sets[Math.floor(rng() * j)]!;
      for (let w = 0; w < words; w++) bits[w]! |= other[w]!;
    }
    sets.push(bits);
  }
  return sets;
}

test('property: on bases of 33–96 items and 40–150 elements the three-word walk and the any-width walk (the same basis with a block of items past 96 added) agree state by state', () => {
  // The block E of items 96–99 is one more element, in no other: the padded space is S ∪ {K ∪ E : K ∈ S},
  // so its states without E are exactly S. The padded basis has 100 items and runs on walkWords.
  const rng = seedrandom('three-words-against-words');
  let compared = 0;
  for (let t = 0; t < 16; t++) {
    const n = 33 + Math.floor(rng() * 64);
    const sets = nestedSets(rng, n, 40 + Math.floor(rng() * 111));
    const model = basisModel(n, sets);
    const padded = basisModel(
      100,
      [...sets, Uint32Array.of(0, 0, 0, 0xf)].map((b) => {
        const wide = new Uint32Array(4);
        wide.set(b);
        return wide;
      }),
    );
    let count: number;
    try {
      count = countUnionStates(model, workBudget(60_000));
    } catch (err) {
      if (err instanceof BudgetError) continue; // too large a space for a test: skip this draw
      throw err;
    }
    const direct = new Set<string>();
    assert.equal(forEachUnionState(model, (bits) => direct.add(Array.from({ length: 3 }, (_, w) => bits[w] ?? 0).join(','))), count);
    assert.equal(direct.size, count, `case ${t}: each state once`);
    const withoutBlock = new Set<string>();
    let withBlock = 0;
    const paddedCount = forEachUnionState(padded, (bits) => {
      if (bits[3] === 0xf) withBlock++;
      else {
        assert.equal(bits[3], 0, `case ${t}: the block is whole or absent`);
        withoutBlock.add(Array.from(bits.subarray(0, 3)).join(','));
      }
    });
    assert.equal(paddedCount, 2 * count, `case ${t} (${n} items, ${model.m} elements)`);
    assert.equal(withBlock, count, `case ${t}`);
    assert.deepEqual([...withoutBlock].sort(), [...direct].sort(), `case ${t} (${n} items, ${model.m} elements)`);
    compared++;
  }
  assert.ok(compared >= 6, `only ${compared} of 16 draws were small enough to compare`);
});

test('notions group items by equal columns, not by equal column hashes', () => {
  // basisModel groups columns by an FNV-1a-style hash of their non-zero words (word index, then word)
  // and compares the words. Item 0 is in element 0 only (column word 0 = 1); item 1's column is the
  // word 1 that hashes alike (A0 ^ 1 = A1 ^ w2, A_j the hash after word index j); item 2 has item 1's
  // column. Trusting the hash would merge items 0 and 1.
  const hashAfterIndex = (j: number): number => Math.imul(0x811c9dc5 ^ j, 16777619);
  const w2 = (hashAfterIndex(0) ^ hashAfterIndex(1) ^ 1) >>> 0;
  const hash = (words: number[]): number => words.reduce((h, word, j) => (word === 0 ? h : Math.imul(Math.imul(h ^ j, 16777619) ^ word, 16777619)), 0x811c9dc5);
  assert.equal(hash([1, 0]), hash([0, w2]), 'the two columns collide under the hash');
  const elements = Array.from({ length: 64 }, (_, b) => {
    const bits = new Uint32Array(1);
    if (b === 0) bits[0] = 1;
    if (b >= 32 && (w2 >>> (b - 32)) & 1) bits[0]! |= 0b110;
    return bits;
  });
  const model = basisModel(3, elements);
  assert.equal(model.basisWords, 2);
  assert.deepEqual([...model.notion], [0, 1, 1]);
  assert.equal(model.notions, 2);
  assert.deepEqual([...model.notionBits], [0b001, 0b110]);
});

test('property: outer fringes from the basis agree with "K ∪ N is a state" for every notion N, from 1 to 3 words (the three-word path) and above', () => {
  // Random generating families (any family of sets generates a union-closed space; its notions are
  // the items with equal columns), on both sides of 32, 64 and 96 items; states taken along the walk.
  const rng = seedrandom('outer-fringe-three-words');
  for (const n of [5, 31, 32, 33, 64, 65, 77, 96, 97, 130]) {
    for (let trial = 0; trial < 4; trial++) {
      const m = 3 + Math.floor(rng() * 40);
      const elements = Array.from({ length: m }, () => {
        const bits = new Uint32Array(Math.ceil(n / 32));
        // Some items together (equivalent items: notions of several items), some chosen one by one.
        for (let x = 0; x < n; x++) if (rng() < 0.15 || (x % 7 === 1 && (bits[(x - 1) >>> 5]! >>> ((x - 1) & 31)) & 1)) bits[x >>> 5]! |= 1 << (x & 31);
        return bits;
      });
      const model = basisModel(n, elements);
      const states: Uint32Array[] = [];
      let k = 0;
      try {
        forEachUnionState(model, (bits) => void (k++ % 37 === 0 && states.push(bits.slice())), workBudget(200_000));
      } catch (err) {
        if (!(err instanceof BudgetError)) throw err;
      }
      for (const state of states) {
        const expected = new Uint32Array(model.words);
        for (let notion = 0; notion < model.notions; notion++) {
          const bits = model.notionBits.subarray(notion * model.words, (notion + 1) * model.words);
          if (bits.some((word, w) => (word & state[w]!) !== 0)) continue;
          const union = state.map((word, w) => word | bits[w]!);
          if (isStateFromBasis(model, union)) for (let w = 0; w < model.words; w++) expected[w]! |= bits[w]!;
        }
        assert.deepEqual([...outerFringeFromBasis(model, state)], [...expected], `n ${n}, trial ${trial}`);
      }
      assert.ok(states.length > 0);
    }
  }
});
