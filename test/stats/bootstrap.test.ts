import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import { bootstrapMeanInterval, bootstrapMeans } from '../../lib/stats';

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

test('hand-traced: values [0, 3, 6], 4 resamples, seed "trace" → means [4, 5, 3, 3] and the type-7 interval ends', () => {
  // The first 12 draws of seedrandom.alea('trace') (the generator's own output, listed once by hand):
  //   0.7321 0.5748 0.5387 | 0.4573 0.9591 0.9630 | 0.7245 0.0677 0.5180 | 0.3036 0.7069 0.4844
  // index = floor(draw · 3):  2 1 1 | 1 2 2 | 2 0 1 | 0 2 1
  // resample means: (6+3+3)/3 = 4, (3+6+6)/3 = 5, (6+0+3)/3 = 3, (0+6+3)/3 = 3
  assert.deepEqual([...bootstrapMeans([0, 3, 6], 4, 'trace')], [4, 5, 3, 3]);
  // sorted [3, 3, 4, 5], R − 1 = 3. Level 0.95: h = 3·0.025 = 0.075 → 3 + 0.075·(3 − 3) = 3;
  // h = 3·0.975 = 2.925 → 4 + 0.925·(5 − 4) = 4.925. Level 0.5: h = 0.75 → 3; h = 2.25 → 4 + 0.25·1 = 4.25.
  const r = bootstrapMeanInterval([0, 3, 6], { seed: 'trace', resamples: 4 });
  assert.equal(r.estimate, 3);
  assert.equal(r.low, 3);
  assert.ok(Math.abs(r.high - 4.925) < 1e-12, `high ${r.high}`);
  const r50 = bootstrapMeanInterval([0, 3, 6], { seed: 'trace', resamples: 4, level: 0.5 });
  assert.deepEqual([r50.low, r50.high], [3, 4.25]);
});

test('all 27 equally likely resamples of [0, 3, 6]: the resampled means follow their exact distribution', () => {
  // Enumerating the 3³ ordered resamples by hand: the sum of three draws from {0, 3, 6} is 3·k with
  // k = 0..6 occurring 1, 3, 6, 7, 6, 3, 1 times, so the mean k takes probability [1, 3, 6, 7, 6, 3, 1]/27.
  const counts = [1, 3, 6, 7, 6, 3, 1];
  const R = 27_000;
  const means = bootstrapMeans([0, 3, 6], R, 'enumerate');
  counts.forEach((c, k) => {
    const seen = means.filter((m) => m === k).length;
    const expected = (R * c) / 27;
    const se = Math.sqrt(R * (c / 27) * (1 - c / 27));
    assert.ok(Math.abs(seen - expected) < 4 * se, `mean ${k}: ${seen} draws, expected ${expected} ± ${4 * se}`);
  });
  assert.equal(means.filter((m) => !Number.isInteger(m) || m < 0 || m > 6).length, 0);
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

// The shipped corpus's 50 state-level P1−P0 exact-set differences (×12), from an independent R
// replication of `kstbench analyze`. R (sample() with replacement, quantile type 7), 200 runs of 10,000
// resamples: interval ends −0.050943 (sd 0.000967) and 0.081886 (sd 0.001086); with 10⁶ resamples
// [−0.05, 0.081667]. The project's 10,000-resample interval must lie within 4 sd of R's mean ends.
test('bootstrapMeanInterval on the shipped P1−P0 state differences agrees with an R bootstrap over states', () => {
  const z = [0, 0, -1, -1, 1, 0, 3, 5, 0, 0, 1, 2, 4, 6, 9, 7, -3, 0, -1, 5, -1, 5, -1, 0, -1, 1, 0, -1, -4, -4, -2, -1, 1, 0, 2, -4, -5, 0, 2, -1, 0, 0, -2, -4, -3, -1, -1, -2, -1, -1];
  const { low, high, estimate } = bootstrapMeanInterval(z.map((v) => v / 12), { seed: '20260908:P1-P0:exact:bootstrap' });
  assert.ok(Math.abs(estimate - 8 / 600) < 1e-15, `estimate ${estimate}`);
  assert.ok(Math.abs(low - -0.050943) < 4 * 0.000967, `low ${low}`);
  assert.ok(Math.abs(high - 0.081886) < 4 * 0.001086, `high ${high}`);
});
