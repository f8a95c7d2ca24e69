/**
 * Two-sided sign-flip randomization test of H₀: the values are symmetric about zero (mean zero), as used
 * in §4.4 of Steiner & Hochweber (2026) with 100,000 flips of the 50 state-level paired differences.
 *
 * Under H₀ each paired difference is equally likely to have either sign, so the observed mean is compared
 * with means of randomly re-signed copies:
 *   p = (1 + #{b : |m_b| ≥ |m_obs|}) / (1 + B)
 * where m_b = (Σ sᵢ xᵢ)/n with independent signs sᵢ = ±1 (probability 1/2 each). Counting the observed
 * data as one of the B + 1 arrangements keeps p > 0 and the test valid (Phipson & Smyth 2010).
 *
 * Drawing rule (fixed, so another implementation with the same generator reproduces every number):
 * rng = seedrandom.alea(seed); for each flip b, for each block of 32 values (values 32k … 32k+31) one word
 * w = rng.int32() is drawn; value 32k + i gets sign −1 if bit i of w (least significant first) is 1,
 * else +1. Each flip therefore uses ⌈n/32⌉ fresh words; leftover bits are discarded. Alea's int32 carries
 * 32 independent uniform bits, so one call gives 32 fair signs. The re-signed sum is evaluated as
 * Σx − 2·Σ(values with sign −1), with the second sum read from per-byte lookup tables (8 values per
 * lookup); together this keeps 100,000 flips × 50 values in the low tens of milliseconds.
 *
 * Ties: |m_b| ≥ |m_obs| is tested as |m_b| ≥ |m_obs| − 1e-12 · max(1, |m_obs|). Re-signed sums that equal
 * the observed magnitude in exact arithmetic can differ from it in the last bits because floating-point
 * addition is not associative (e.g. 0.1 + 0.2 − 0.3 + 0.5 vs −0.1 − 0.2 + 0.3 + 0.5); the tolerance makes
 * such exact ties count, as they must for a valid test. It is far below any real difference of means of
 * scores in [0, 1].
 */
import seedrandom from 'seedrandom';
import { mean } from './mean';
import { InputError } from '../errors';
import { assertCount, assertFiniteValues } from './values';

export interface SignFlipOptions {
  /** Number of random sign patterns B (default 100,000). */
  flips?: number;
  /** Seed string for seedrandom.alea; recorded in the result. */
  seed: string;
  /**
   * Stop as soon as more than this many flips were extreme: p is then at least
   * (stopAbove + 2) / (flips + 1), which is all a caller comparing p with a level needs (the power
   * planner, lib/study/plan.ts). The flips drawn so far are the same as without the option.
   */
  stopAbove?: number;
}

export interface SignFlipResult {
  /** Observed mean m_obs. */
  readonly observed: number;
  /** Two-sided Monte-Carlo p value (1 + count) / (1 + flips). */
  readonly p: number;
  readonly flips: number;
  readonly seed: string;
  /** True when `stopAbove` ended the test early: `p` is then a lower bound. */
  readonly stopped?: boolean;
}

/** Relative tolerance of the tie comparison (see module comment). */
export const SIGN_FLIP_TIE_TOLERANCE = 1e-12;

/**
 * For [0, 0, 0] every flip ties with the observed mean 0, so p = 1; for [1, 2, 3, 4] the exact p is 2/16
 * (only the all-plus and all-minus patterns reach |mean| = 2.5), and the Monte-Carlo p is within sampling
 * error of 0.125 (standard error √(0.125 · 0.875 / 100,000) ≈ 0.001).
 * @example
 * signFlipTest([0, 0, 0], { seed: 's' }).p; // => 1
 * Math.abs(signFlipTest([1, 2, 3, 4], { seed: 's' }).p - 0.125) < 0.005; // => true
 */
export function signFlipTest(values: readonly number[], options: SignFlipOptions): SignFlipResult {
  const flips = options.flips ?? 100_000;
  assertFiniteValues(values, 'signFlipTest');
  assertCount(flips, 'flips');
  const observed = mean(values);
  const threshold = Math.abs(observed) - SIGN_FLIP_TIE_TOLERANCE * Math.max(1, Math.abs(observed));
  const n = values.length;
  const negatedSums = byteSubsetSums(values);
  const bytes = negatedSums.length / 256;
  let total = 0;
  for (let i = 0; i < n; i += 1) total += values[i]!;
  const rng = seedrandom.alea(options.seed);
  let extreme = 0;
  for (let b = 0; b < flips; b += 1) {
    let negated = 0;
    for (let byte = 0; byte < bytes; byte += 4) {
      const word = rng.int32();
      negated += negatedSums[byte * 256 + (word & 255)]!;
      if (byte + 1 < bytes) negated += negatedSums[(byte + 1) * 256 + ((word >>> 8) & 255)]!;
      if (byte + 2 < bytes) negated += negatedSums[(byte + 2) * 256 + ((word >>> 16) & 255)]!;
      if (byte + 3 < bytes) negated += negatedSums[(byte + 3) * 256 + (word >>> 24)]!;
    }
    if (Math.abs((total - 2 * negated) / n) >= threshold) {
      extreme += 1;
      if (options.stopAbove !== undefined && extreme > options.stopAbove) return { observed, p: (1 + extreme) / (1 + flips), flips, seed: options.seed, stopped: true };
    }
  }
  return { observed, p: (1 + extreme) / (1 + flips), flips, seed: options.seed };
}

/**
 * Lookup table for the re-signed sums: for value block k (values 8k … 8k+7, padded with zeros) and every
 * byte pattern v, table[256k + v] = Σ of the values whose bit is set in v. A flip's sum is then
 * Σx − 2·Σ(negated values), read in ⌈n/8⌉ lookups instead of n additions.
 * For values [1, 2], block 0 has table[0b00] = 0, table[0b01] = 1, table[0b10] = 2, table[0b11] = 3 (not
 * exported, so no doctest: signFlipTest's examples exercise it).
 */
function byteSubsetSums(values: readonly number[]): Float64Array {
  const blocks = Math.ceil(values.length / 8);
  const table = new Float64Array(blocks * 256);
  for (let k = 0; k < blocks; k += 1) {
    for (let v = 1; v < 256; v += 1) {
      const lowest = 31 - Math.clz32(v & -v); // index of the lowest set bit
      table[k * 256 + v] = table[k * 256 + (v & (v - 1))]! + (values[8 * k + lowest] ?? 0);
    }
  }
  return table;
}

/** The largest n `exactSignFlipTest` enumerates (2^16 = 65,536 patterns). */
export const EXACT_SIGN_FLIP_MAX_VALUES = 16;

/**
 * The exact two-sided sign-flip p of a few values: every one of the 2^n sign patterns counted, p =
 * #{patterns with |mean| ≥ |observed mean|} / 2^n (the observed pattern and its mirror image always
 * count, so p ≥ 2/2^n unless the mean is 0). Ties use the tolerance of `signFlipTest`. For teaching and
 * for checking the Monte-Carlo test; n is capped at EXACT_SIGN_FLIP_MAX_VALUES.
 * @example
 * exactSignFlipTest([1, 2, 3, 4]); // => { observed: 2.5, p: 0.125, extreme: 2, patterns: 16 }
 * exactSignFlipTest([10, 20, -5, 15]).extreme; // => 4
 * exactSignFlipTest([]); // throws /exactSignFlipTest: no values/
 */
export function exactSignFlipTest(values: readonly number[]): { observed: number; p: number; extreme: number; patterns: number } {
  assertFiniteValues(values, 'exactSignFlipTest');
  const n = values.length;
  if (n > EXACT_SIGN_FLIP_MAX_VALUES) {
    throw new InputError(`exactSignFlipTest: ${n} values give 2^${n} sign patterns; enumerate at most ${EXACT_SIGN_FLIP_MAX_VALUES} values (use signFlipTest for more)`, { item: 'values' });
  }
  const observed = mean(values);
  const threshold = Math.abs(observed) - SIGN_FLIP_TIE_TOLERANCE * Math.max(1, Math.abs(observed));
  const patterns = 2 ** n;
  let extreme = 0;
  for (let mask = 0; mask < patterns; mask += 1) {
    let sum = 0;
    for (let i = 0; i < n; i += 1) sum += mask & (1 << i) ? -values[i]! : values[i]!;
    if (Math.abs(sum / n) >= threshold) extreme += 1;
  }
  return { observed, p: extreme / patterns, extreme, patterns };
}
