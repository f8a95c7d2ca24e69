import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import { bootstrapMeanInterval, bootstrapMeans, percentileLinear } from '../../lib/stats';

test('a constant vector gives a degenerate interval', () => {
  const r = bootstrapMeanInterval([0.25, 0.25, 0.25, 0.25], { seed: 'const' });
  assert.deepEqual(r, { estimate: 0.25, low: 0.25, high: 0.25, level: 0.95, resamples: 10_000, seed: 'const' });
});

test('two values 0 and 1: resampled means are 0, 1/2, 1 with probabilities 1/4, 1/2, 1/4', () => {
  const r = bootstrapMeanInterval([0, 1], { seed: 'two', resamples: 10_000 });
  assert.equal(r.estimate, 0.5);
  // P(mean = 0) = 1/4 ≫ 2.5%, so the 2.5th percentile is 0 and the 97.5th is 1.
  assert.equal(r.low, 0);
  assert.equal(r.high, 1);
  const means = bootstrapMeans([0, 1], 10_000, 'two');
  const zeros = means.filter((m) => m === 0).length;
  const halves = means.filter((m) => m === 0.5).length;
  // binomial standard errors: sqrt(10000·0.25·0.75) ≈ 43, sqrt(10000·0.5·0.5) = 50; allow 4 SE
  assert.ok(Math.abs(zeros - 2500) < 4 * 43, `zeros ${zeros}`);
  assert.ok(Math.abs(halves - 5000) < 4 * 50, `halves ${halves}`);
});

test('drawing rule: rng = alea(seed), index = floor(rng() · n), resample by resample', () => {
  const values = [3, 10, 20, 40, 80];
  const rng = seedrandom.alea('rule');
  const expected: number[] = [];
  for (let r = 0; r < 3; r += 1) {
    let sum = 0;
    for (let j = 0; j < values.length; j += 1) sum += values[Math.floor(rng() * values.length)]!;
    expected.push(sum / values.length);
  }
  assert.deepEqual([...bootstrapMeans(values, 3, 'rule')], expected);
});

test('interval ends are the type-7 2.5th and 97.5th percentiles of the sorted resampled means', () => {
  const values = [0, 0, 1, 1, 1, 0.5, 0.25, 1, 0, 1, 0.75];
  const sorted = bootstrapMeans(values, 2_000, 'pct').sort();
  const r = bootstrapMeanInterval(values, { seed: 'pct', resamples: 2_000 });
  assert.equal(r.low, percentileLinear(sorted, 0.025));
  assert.equal(r.high, percentileLinear(sorted, 0.975));
  const r90 = bootstrapMeanInterval(values, { seed: 'pct', resamples: 2_000, level: 0.9 });
  assert.equal(r90.low, percentileLinear(sorted, 0.05));
  assert.equal(r90.high, percentileLinear(sorted, 0.95));
  assert.ok(r90.low >= r.low && r90.high <= r.high);
});

test('agrees with the normal approximation for n = 50', () => {
  const gen = seedrandom.alea('data');
  const values = Array.from({ length: 50 }, () => gen());
  const n = values.length;
  const m = values.reduce((a, b) => a + b, 0) / n;
  // bootstrap SE of the mean = population-style sd / sqrt(n)
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / n);
  const halfWidth = (1.959964 * sd) / Math.sqrt(n);
  const r = bootstrapMeanInterval(values, { seed: 'normal' });
  assert.equal(r.estimate, m);
  assert.ok(Math.abs((r.high - r.low) / 2 / halfWidth - 1) < 0.08, `half width ${(r.high - r.low) / 2} vs ${halfWidth}`);
  assert.ok(Math.abs((r.high + r.low) / 2 - m) < 0.2 * halfWidth);
});

test('same seed → identical output; different seed → different draws', () => {
  const values = [0.1, 0.4, 0.35, 0.8, 0.05, 0.6, 0.9];
  assert.deepEqual(bootstrapMeanInterval(values, { seed: 'a' }), bootstrapMeanInterval(values, { seed: 'a' }));
  assert.notDeepEqual([...bootstrapMeans(values, 20, 'a')], [...bootstrapMeans(values, 20, 'b')]);
});

test('rejects empty or non-finite values and bad options', () => {
  assert.throws(() => bootstrapMeanInterval([], { seed: 's' }), InputError);
  assert.throws(() => bootstrapMeanInterval([1, Number.POSITIVE_INFINITY], { seed: 's' }), /value 1/);
  assert.throws(() => bootstrapMeanInterval([1], { seed: 's', resamples: 0 }), RangeError);
  assert.throws(() => bootstrapMeanInterval([1], { seed: 's', level: 1 }), RangeError);
});
