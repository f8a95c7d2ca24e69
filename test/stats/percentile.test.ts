import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quantileSorted } from 'simple-statistics';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import { percentileLinear } from '../../lib/stats';

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

test('matches values worked out by hand with the type-7 rule', () => {
  // h = (N − 1)p; numpy.percentile([1, 2, 3, 4], [0, 25, 50, 100]) also gives [1, 1.75, 2.5, 4]
  assert.equal(percentileLinear([1, 2, 3, 4], 0), 1);
  close(percentileLinear([1, 2, 3, 4], 0.25), 1.75); // h = 0.75 → 1 + 0.75·1
  close(percentileLinear([1, 2, 3, 4], 0.5), 2.5); // h = 1.5
  assert.equal(percentileLinear([1, 2, 3, 4], 1), 4);
  close(percentileLinear([10, 20, 30, 40, 50], 0.9), 46); // h = 3.6 → 40 + 0.6·10
  close(percentileLinear([1, 3, 7, 15], 0.025), 1.15); // h = 0.075 → 1 + 0.075·2
  close(percentileLinear([1, 3, 7, 15], 0.975), 14.4); // h = 2.925 → 7 + 0.925·8
  assert.equal(percentileLinear([7], 0.3), 7);
  assert.equal(percentileLinear([2, 2, 2], 0.7), 2);
});

test('p = i/(N−1) hits order statistic i exactly; values in between are convex combinations', () => {
  const x = [-3, -1, 0, 0.5, 4, 9];
  for (let i = 0; i < x.length; i += 1) close(percentileLinear(x, i / (x.length - 1)), x[i]!);
  const q = percentileLinear(x, 0.55); // h = 2.75 → between x[2] = 0 and x[3] = 0.5
  close(q, 0 + 0.75 * 0.5);
});

test('agrees with simple-statistics 7.12.1 quantileSorted, which also implements type 7', () => {
  const gen = seedrandom.alea('grid');
  const x = Array.from({ length: 37 }, () => Math.round(gen() * 100) / 10).sort((a, b) => a - b);
  for (let k = 0; k <= 200; k += 1) assert.equal(percentileLinear(x, k / 200), quantileSorted(x, k / 200));
});

test('rejects empty, unsorted, non-finite input and p outside [0, 1]', () => {
  assert.throws(() => percentileLinear([], 0.5), InputError);
  assert.throws(() => percentileLinear([2, 1], 0.5), /sorted ascending \(index 1\)/);
  assert.throws(() => percentileLinear([1, Number.NaN], 0.5), InputError);
  assert.throws(() => percentileLinear([1, 2], 1.5), RangeError);
  assert.throws(() => percentileLinear([1, 2], Number.NaN), RangeError);
});
