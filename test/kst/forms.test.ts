import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { buildDomain } from '../../lib/kst';
import seedrandom from 'seedrandom';
import { atomCodes, atomsByItem, basisModel, innerFringeFromBasis } from '../../lib/kst/basis';
import { emptyBits } from '../../lib/kst/bitset';
import {
  basisFromBasis,
  basisFromStates,
  basisFromSurmise,
  checkLearningSpace,
  derivedCoverPairs,
  isQuasiOrdinalBasis,
  necessaryRows,
  setLabel,
} from '../../lib/kst/forms';
import { taskComponents as components } from './random-poset';

test('malformed structures are refused naming the state, item or clause', () => {
  const base = { id: 'm', title: 'm', source: 't', components: components(['a', 'b', 'c']) };
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ basis: [['a'], ['b']] }, /component "c" is in no basis element/],
    [{ basis: [['a'], ['b'], ['a', 'b'], ['c']] }, /basis\[2\] \{a, b\} is the union of other basis elements/],
    [{ basis: [['a'], [], ['b', 'c']] }, /basis\[1\] is empty/],
    [{ basis: [['a'], ['a'], ['b', 'c']] }, /basis\[1\] repeats basis\[0\]/],
    [{ basis: [['a'], ['x']] }, /basis\[1\] names unknown component "x"/],
    [{ states: [['a'], ['a', 'b', 'c']] }, /does not contain the empty state/],
    [{ states: [[], ['a'], ['b']] }, /does not contain the full domain Q/],
    [{ states: [[], ['a'], ['b'], ['a', 'b', 'c']] }, /not closed under union: states\[\d\] ∪ states\[\d\] = \{a, b\}/],
    [{ surmise: { c: [['a'], ['a', 'b']] } }, /surmise\.c\[1\] contains surmise\.c\[0\]/],
    [{ surmise: { c: [['c']] } }, /surmise\.c\[0\] contains c itself/],
    [{ surmise: { b: [['a']], c: [['b']] } }, /surmise\.c\[0\] is not closed: it contains b, but none of b's clauses lies inside \{b, c\}; a clause spells out a whole route, e.g. \["a","b"\]$/],
    [{ surmise: { c: [] } }, /surmise\.c has no clause/],
  ];
  for (const [form, pattern] of cases) assert.throws(() => buildDomain({ ...base, ...form } as never), pattern, JSON.stringify(form));
});

// Three items a, b, c (canonical indices 0, 1, 2) and their bitsets.
const IDS = ['a', 'b', 'c'];
const ctx = { where: 'd.json', file: 'd.json', ids: IDS, index: new Map(IDS.map((id, i) => [id, i])) };
const bits = (...items: number[]) => {
  const b = emptyBits(3);
  for (const i of items) b[0]! |= 1 << i;
  return b;
};
const labels = (sets: Uint32Array[]) => sets.map((s) => setLabel(IDS, s));

test('setLabel lists IDs', () => {
  assert.deepEqual(labels([bits(), bits(0, 2), bits(0, 1, 2)]), ['{}', '{a, c}', '{a, b, c}']);
});

test('the three forms of "c needs b" reduce to one sorted basis {a}, {b}, {b,c}', () => {
  // basis given out of order; family ∅, a, b, ab, bc, abc (atoms: at a {a}, at b {b}, at c {b,c});
  // surmise c after b, a and b without clause → atoms {a}, {b}, {b, c}.
  const expected = ['{a}', '{b}', '{b, c}'];
  assert.deepEqual(labels(basisFromBasis(ctx, [['b', 'c'], ['a'], ['b']])), expected);
  assert.deepEqual(labels(basisFromStates(ctx, [['a', 'b', 'c'], ['b', 'c'], [], ['a'], ['a', 'b'], ['b']])), expected);
  assert.deepEqual(labels(basisFromSurmise(ctx, { c: [['b']] })), expected);
  // failures carry the file and the item
  assert.throws(() => basisFromBasis(ctx, [['a'], ['x']]), (e: unknown) => e instanceof InputError && e.message === 'd.json: basis[1] names unknown component "x"' && e.where.item === 'x' && e.where.file === 'd.json');
});

test('necessary rows, quasi-ordinality and derived cover pairs of a basis (hand-worked)', () => {
  // {a}, {b}, {b,c}: each item one atom → quasi-ordinal; rows a {a}, b {b}, c {b,c}; cover b → c.
  const qo = basisModel(3, [bits(0), bits(1), bits(1, 2)]);
  assert.deepEqual(labels(necessaryRows(qo)), ['{a}', '{b}', '{b, c}']);
  assert.equal(isQuasiOrdinalBasis(qo), true);
  assert.deepEqual(derivedCoverPairs(qo), [[1, 2]]);
  // two routes to c: {a}, {b}, {a,c}, {b,c} → c has two atoms; its row is {a,c} ∩ {b,c} = {c}: no pair.
  const routes = basisModel(3, [bits(0), bits(1), bits(0, 2), bits(1, 2)]);
  assert.equal(isQuasiOrdinalBasis(routes), false);
  assert.deepEqual(labels(necessaryRows(routes)), ['{a}', '{b}', '{c}']);
  assert.deepEqual(derivedCoverPairs(routes), []);
  // a chain a < b < c: {a}, {a,b}, {a,b,c} → covers (a,b), (b,c) only, not the transitive (a,c)
  assert.deepEqual(derivedCoverPairs(basisModel(3, [bits(0), bits(0, 1), bits(0, 1, 2)])), [[0, 1], [1, 2]]);
});

test('checkLearningSpace: first state without inner fringe, state count, and the size limit', () => {
  const inner = (model: ReturnType<typeof basisModel>) => (state: Uint32Array, out: Uint32Array) => innerFringeFromBasis(model, state, out);
  // {a,b}, {b,c}: states ∅, ab, bc, abc; ab − a = {b} ✗, ab − b = {a} ✗ → ab (before bc) offends
  const bad = basisModel(3, [bits(0, 1), bits(1, 2)]);
  const r = checkLearningSpace(bad, inner(bad));
  assert.equal(r.wellGraded, false);
  assert.equal(setLabel(IDS, (r as { state: Uint32Array }).state), '{a, b}');
  assert.equal((r as { states: number }).states, 4);
  // {a}, {b}, {b,c}: six states, every non-empty one has a removable item
  const good = basisModel(3, [bits(0), bits(1), bits(1, 2)]);
  assert.deepEqual(checkLearningSpace(good, inner(good)), { wellGraded: true, states: 6 });
  assert.deepEqual(checkLearningSpace(good, inner(good), 5), { wellGraded: undefined, reason: "6 states exceed the check's limit of 5" });
});

test('property: atoms and derived cover pairs equal their definitions on seeded random bases of 1 to 80 items', () => {
  const rng = seedrandom('forms-atoms-covers');
  const has = (bits: Uint32Array, x: number): boolean => ((bits[x >>> 5]! >>> (x & 31)) & 1) === 1;
  const within = (c: Uint32Array, b: Uint32Array): boolean => c.every((w, i) => (w & ~b[i]!) === 0);
  for (let t = 0; t < 300; t++) {
    const n = 1 + Math.floor(rng() * (t % 3 === 0 ? 80 : 12));
    const p = rng() * 0.6;
    const elements = Array.from({ length: 1 + Math.floor(rng() * 20) }, () => {
      const e = new Uint32Array(Math.ceil(n / 32));
      for (let x = 0; x < n; x++) if (rng() < p) e[x >>> 5]! |= 1 << (x & 31);
      return e;
    });
    const model = basisModel(n, elements);
    // b is an atom at x: x ∈ b and no other element containing x lies inside b.
    const atoms = Array.from({ length: n }, (_, x) =>
      elements.flatMap((b, i) => (has(b, x) && !elements.some((c, j) => j !== i && has(c, x) && within(c, b)) ? [i] : [])),
    );
    assert.deepEqual(atomsByItem(model), atoms, `case ${t}: atoms`);
    assert.deepEqual(atomCodes(model).map((row) => [...row]), elements.map((b, i) => Array.from({ length: n }, (_, x) => (!has(b, x) ? 0 : atoms[x]!.includes(i) ? 1 : 2))), `case ${t}: codes`);
    // p below q: p lies in every atom at q and q not in every atom at p; a cover has no r between.
    const rows = necessaryRows(model);
    const below = (a: number, b: number): boolean => a !== b && has(rows[b]!, a) && !has(rows[a]!, b);
    const covers: Array<[number, number]> = [];
    for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (below(a, b) && !Array.from({ length: n }, (_, r) => r).some((r) => below(a, r) && below(r, b))) covers.push([a, b]);
    assert.deepEqual(derivedCoverPairs(model), covers, `case ${t}: cover pairs`);
  }
});
