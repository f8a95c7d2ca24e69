/**
 * A condition contrast as reported in §4.5 of Steiner & Hochweber (2026): the mean of the state-level
 * paired differences, its percentile bootstrap interval and its two-sided sign-flip p value.
 *
 * Seeds: one seed string names the contrast; the two procedures draw from separate generators seeded with
 * `${seed}:bootstrap` and `${seed}:signflip`, so changing the number of resamples never changes the
 * randomization test and vice versa. Both derived seeds are returned for the record.
 */
import { bootstrapMeanInterval } from './bootstrap';
import { signFlipTest } from './signflip';

export interface ContrastOptions {
  /** Bootstrap resamples (default 10,000). */
  resamples?: number;
  /** Random sign flips (default 100,000). */
  flips?: number;
  /** Interval coverage (default 0.95). */
  level?: number;
  seed: string;
}

export interface ConditionContrast {
  /** Mean paired difference. */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /** Unadjusted two-sided sign-flip p value (adjust a family with `holm`). */
  readonly p: number;
  readonly n: number;
  readonly level: number;
  readonly resamples: number;
  readonly flips: number;
  readonly seed: string;
  readonly bootstrapSeed: string;
  readonly signFlipSeed: string;
}

/**
 * Bootstrap interval and sign-flip test of one contrast's paired differences, each drawn from its own
 * seed derived from `options.seed` (`<seed>:bootstrap`, `<seed>:signflip`).
 * @example
 * const c = conditionContrast([0, 0, 0], { seed: 'P2-P1:exact' });
 * [c.estimate, c.low, c.high, c.p, c.n]; // => [0, 0, 0, 1, 3]
 * [c.seed, c.bootstrapSeed]; // => ['P2-P1:exact', 'P2-P1:exact:bootstrap']
 */
export function conditionContrast(differences: readonly number[], options: ContrastOptions): ConditionContrast {
  const bootstrapSeed = `${options.seed}:bootstrap`;
  const signFlipSeed = `${options.seed}:signflip`;
  const interval = bootstrapMeanInterval(differences, { resamples: options.resamples, level: options.level, seed: bootstrapSeed });
  const test = signFlipTest(differences, { flips: options.flips, seed: signFlipSeed });
  return {
    estimate: interval.estimate,
    low: interval.low,
    high: interval.high,
    p: test.p,
    n: differences.length,
    level: interval.level,
    resamples: interval.resamples,
    flips: test.flips,
    seed: options.seed,
    bootstrapSeed,
    signFlipSeed,
  };
}
