/**
 * Percentile bootstrap interval for a mean (Efron & Tibshirani 1993, ch. 13), as used in §4.4 of
 * Steiner & Hochweber (2026): 10,000 resamples of the 50 state-level differences, 95% percentile interval.
 *
 * Drawing rule (fixed, so another implementation with the same generator reproduces every number):
 * rng = seedrandom.alea(seed); for resample r = 1..R, for draw j = 1..n: index = ⌊rng() · n⌋; the resample
 * mean is the left-to-right sum of the drawn values divided by n. The interval ends are
 * percentileLinear(sorted means, (1 − level)/2) and percentileLinear(sorted means, (1 + level)/2), with
 * both tail probabilities rounded to 12 decimals so that level 0.95 yields exactly the doubles 0.025 and
 * 0.975 (what numpy.percentile(means, [2.5, 97.5]) uses; 1 − 0.95 is not exactly 0.05 in binary).
 */
import seedrandom from 'seedrandom';
import { percentileLinear } from './percentile';
import { mean } from './mean';
import { assertCount, assertFiniteValues } from './values';

export interface BootstrapOptions {
  /** Number of bootstrap resamples R (default 10,000). */
  resamples?: number;
  /** Seed string for seedrandom.alea; recorded in the result. */
  seed: string;
  /** Two-sided coverage of the interval (default 0.95). */
  level?: number;
}

export interface BootstrapInterval {
  /** Mean of the original values (not of the resampled means). */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  readonly level: number;
  readonly resamples: number;
  readonly seed: string;
}

/**
 * The R resampled means, in drawing order (see the module comment for the exact rule).
 *
 * @example
 * bootstrapMeans([5, 5, 5], 3, 's'); // => Float64Array.from([5, 5, 5])
 */
export function bootstrapMeans(values: readonly number[], resamples: number, seed: string): Float64Array {
  assertFiniteValues(values, 'bootstrap');
  assertCount(resamples, 'resamples');
  const rng = seedrandom.alea(seed);
  const n = values.length;
  const data = Float64Array.from(values);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) {
    let sum = 0;
    for (let j = 0; j < n; j += 1) sum += data[Math.floor(rng() * n)]!;
    means[r] = sum / n;
  }
  return means;
}

/**
 * Percentile bootstrap interval of the mean of `values`.
 * A constant vector gives the degenerate interval.
 * @example
 * const { estimate, low, high, resamples } = bootstrapMeanInterval([2, 2, 2], { seed: 'x' });
 * [estimate, low, high, resamples]; // => [2, 2, 2, 10000]
 * const wide = bootstrapMeanInterval([0, 10], { seed: 'x', resamples: 1000 });
 * [wide.estimate, wide.low, wide.high]; // => [5, 0, 10]
 */
export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions): BootstrapInterval {
  const resamples = options.resamples ?? 10_000;
  const level = options.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrap: level must lie in (0, 1), got ${level}`);
  const means = bootstrapMeans(values, resamples, options.seed).sort();
  const lowP = roundProbability((1 - level) / 2);
  const highP = roundProbability((1 + level) / 2);
  return {
    estimate: mean(values),
    low: percentileLinear(means, lowP),
    high: percentileLinear(means, highP),
    level,
    resamples,
    seed: options.seed,
  };
}

function roundProbability(p: number): number {
  return Math.round(p * 1e12) / 1e12;
}
