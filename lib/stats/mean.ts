/**
 * The project's one sum and one mean. Both use compensated (Kahan–Babuška) summation, from
 * simple-statistics `sum`, so a mean over hundreds of thousands of scores is as close to the exactly
 * rounded value as a double allows, whatever the input order.
 *
 * Empty input, the one rule: `sum([])` is 0 (the empty sum) and `mean([])` is NaN (the mean of nothing
 * is not a number). Callers that must not see a NaN check first (`assertFiniteValues`, or a count of
 * zero shown as an empty cell); nothing here throws.
 */
import { sum as compensatedSum } from 'simple-statistics';

/**
 * Σ xᵢ with compensated summation; 0 for an empty list.
 *
 * @example
 * sum([0.1, 0.2, 0.3]); // => 0.6
 * sum([1e16, 1, -1e16]); // => 1
 * sum([]); // => 0
 */
export function sum(values: readonly number[]): number {
  return compensatedSum(values as number[]);
}

/**
 * Arithmetic mean (Σ xᵢ) / n with compensated summation; NaN for an empty list.
 *
 * @example
 * mean([1, 2, 6]); // => 3
 * mean([0.1, 0.2, 0.3]); // => 0.19999999999999998
 * Number.isNaN(mean([])); // => true
 */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : sum(values) / values.length;
}
