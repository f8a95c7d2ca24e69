import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import { exactSignFlipTest, signFlipTest } from '../../lib/stats';

/** Exact two-sided sign-flip p by enumerating all 2^n sign patterns, in integer arithmetic. */
function exactP(integers: number[]): number {
  const n = integers.length;
  const observed = Math.abs(integers.reduce((a, b) => a + b, 0));
  let count = 0;
  for (let mask = 0; mask < 2 ** n; mask += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += mask & (1 << i) ? -integers[i]! : integers[i]!;
    if (Math.abs(sum) >= observed) count += 1;
  }
  return count / 2 ** n;
}

function assertWithinSE(mc: number, exact: number, flips: number): void {
  const se = Math.sqrt((exact * (1 - exact)) / flips);
  assert.ok(Math.abs(mc - exact) <= 4 * se + 1 / flips, `Monte-Carlo p ${mc} vs exact ${exact} (SE ${se})`);
}

test('Monte-Carlo p agrees with exact enumeration (n = 11)', () => {
  const integers = [3, -1, 4, 1, -5, 9, 2, 6, -5, 3, 5];
  const exact = exactP(integers);
  assert.ok(exact > 0.01 && exact < 0.5, `pick data with a mid-range p, got ${exact}`);
  const r = signFlipTest(integers, { seed: 'enum' });
  assert.equal(r.flips, 100_000);
  assert.equal(r.observed, 22 / 11);
  assertWithinSE(r.p, exact, r.flips);
});

test('exact ties broken by floating rounding still count (n = 4, exact p = 10/16)', () => {
  // In tenths: [1, 2, −3, 5], sum 5. Flipping a subset S gives 5 − 2·ΣS; |·| ≥ 5 iff ΣS ≤ 0 or ΣS ≥ 5:
  // 10 of the 16 subsets. Two of them ({1, 2, −3} and {5}) tie exactly, but in binary floating point
  // 0.1 + 0.2 − 0.3 + 0.5 = 0.5000000000000001 while −0.1 − 0.2 + 0.3 + 0.5 = 0.49999999999999994.
  assert.equal(exactP([1, 2, -3, 5]), 10 / 16);
  assert.notEqual(Math.abs(-0.1 - 0.2 + 0.3 + 0.5), 0.1 + 0.2 - 0.3 + 0.5);
  const r = signFlipTest([0.1, 0.2, -0.3, 0.5], { seed: 'ties' });
  assertWithinSE(r.p, 10 / 16, r.flips); // without the tolerance it would be near 8/16
});

test('all-zero differences give p = 1; a constant positive vector of 50 gives p = 1/(1 + flips)', () => {
  assert.deepEqual(signFlipTest([0, 0, 0], { seed: 'z', flips: 1000 }), { observed: 0, p: 1, flips: 1000, seed: 'z' });
  // only the all-plus and all-minus patterns reach |mean| = 0.2; chance 2^−49 per flip
  const r = signFlipTest(new Array(50).fill(0.2), { seed: 'c' });
  assert.equal(r.p, 1 / 100_001);
});

test('drawing rule: ⌈n/32⌉ alea int32 words per flip, bit i (LSB first) → sign of value 32k + i', () => {
  // With values 1 at positions a and b and 0 elsewhere, a flip reaches |mean| = |observed| iff the two
  // signs agree, so the count of extreme flips can be recomputed from the raw generator stream.
  const n = 40; // two words per flip
  const count = (a: number, b: number, flips: number, seed: string): number => {
    const rng = seedrandom.alea(seed);
    let extreme = 0;
    for (let f = 0; f < flips; f += 1) {
      const words = [rng.int32(), rng.int32()];
      const bit = (i: number) => (words[Math.floor(i / 32)]! >>> i % 32) & 1;
      if (bit(a) === bit(b)) extreme += 1;
    }
    return extreme;
  };
  for (const [a, b] of [[0, 31], [0, 32], [5, 39]] as const) {
    const values = new Array(n).fill(0);
    values[a] = 1;
    values[b] = 1;
    const r = signFlipTest(values, { seed: `rule-${a}-${b}`, flips: 500 });
    assert.equal(r.p, (1 + count(a, b, 500, `rule-${a}-${b}`)) / 501);
  }
});

test('same seed → identical output; different seed → different draws', () => {
  const values = [0.1, -0.2, 0.35, 0.05, 0.4, -0.15, 0.2, 0.1];
  const a = signFlipTest(values, { seed: 'a' });
  assert.deepEqual(signFlipTest(values, { seed: 'a' }), a);
  assert.notEqual(signFlipTest(values, { seed: 'b' }).p, a.p);
});

test('rejects empty or non-finite values and a bad flip count', () => {
  assert.throws(() => signFlipTest([], { seed: 's' }), InputError);
  assert.throws(() => signFlipTest([Number.NaN], { seed: 's' }), InputError);
  assert.throws(() => signFlipTest([1], { seed: 's', flips: 1.5 }), RangeError);
});

test('stopAbove ends the test once p can no longer fall below the level, and says so', () => {
  const values = [0.1, -0.2, 0.05, 0.3, -0.1, 0.0, 0.2, -0.05, 0.1, -0.3];
  const full = signFlipTest(values, { seed: 'stop', flips: 5000 });
  const early = signFlipTest(values, { seed: 'stop', flips: 5000, stopAbove: 100 });
  assert.ok(full.p > 0.05, `full p ${full.p}`);
  assert.equal(early.stopped, true);
  assert.equal(early.p, 102 / 5001);
  assert.ok(early.p <= full.p);
  // A clear effect never reaches the cap: same p as without the option, not marked stopped.
  const clear = Array.from({ length: 20 }, (_, i) => 0.5 + i / 100);
  const a = signFlipTest(clear, { seed: 's', flips: 3000 });
  const b = signFlipTest(clear, { seed: 's', flips: 3000, stopAbove: 100 });
  assert.deepEqual({ p: b.p, stopped: b.stopped }, { p: a.p, stopped: undefined });
});

test('exactSignFlipTest counts every sign pattern: it agrees with the integer enumeration, and refuses too many values', () => {
  for (const integers of [[1, 2, 3, 4], [10, 20, -5, 15], [3, -1, 4, 1, -5, 9, 2, 6, -5, 3, 5], [0, 0, 0]]) {
    const r = exactSignFlipTest(integers);
    assert.equal(r.patterns, 2 ** integers.length);
    assert.equal(r.p, exactP(integers), `exact p of ${integers}`);
    assert.equal(r.extreme, exactP(integers) * 2 ** integers.length);
  }
  // Ties broken by floating rounding count, as in signFlipTest.
  assert.equal(exactSignFlipTest([0.1, 0.2, -0.3, 0.5]).p, exactP([1, 2, -3, 5]));
  assert.throws(() => exactSignFlipTest(new Array(17).fill(1)), (e: unknown) => e instanceof InputError && /17 values give 2\^17 sign patterns/.test(e.message));
  assert.throws(() => exactSignFlipTest([]), InputError);
});

// The shipped corpus's 50 state-level exact-set differences (×12: each state mean is over 6 models × 2
// orders), taken from an independent R replication of `kstbench analyze` (the order is R's, which the
// p distribution does not depend on). Their exact two-sided sign-flip p over all 2^50 patterns was
// computed in R by convolving the distribution of Σ ±zᵢ (the method reproduces exactSignFlipTest on the
// first 16 values: 0.01171875). The 100,000-flip p must lie within 4 Monte-Carlo standard errors.
const SHIPPED_TWELFTHS: Record<string, { z: number[]; exactP: number }> = {
  'P1-P0': { exactP: 0.736330768784683, z: [0, 0, -1, -1, 1, 0, 3, 5, 0, 0, 1, 2, 4, 6, 9, 7, -3, 0, -1, 5, -1, 5, -1, 0, -1, 1, 0, -1, -4, -4, -2, -1, 1, 0, 2, -4, -5, 0, 2, -1, 0, 0, -2, -4, -3, -1, -1, -2, -1, -1] },
  'P3-P2': { exactP: 0.205978393554688, z: [-1, 0, 1, 0, 0, 1, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, -1, -1, 1, -1, 0, 0, 3, 0, 0, 0, -1, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, -1, 0, 0, 0, 1] },
};

test('signFlipTest on the shipped 50 state differences agrees with the exact p computed in R', () => {
  for (const [name, { z, exactP }] of Object.entries(SHIPPED_TWELFTHS)) {
    const flips = 100_000;
    const { p } = signFlipTest(z.map((v) => v / 12), { seed: `20260908:${name}:exact:signflip`, flips });
    const se = Math.sqrt((exactP * (1 - exactP)) / flips);
    assert.ok(Math.abs(p - exactP) < 4 * se, `${name}: Monte-Carlo p ${p}, exact ${exactP}, 4 se = ${4 * se}`);
  }
});
