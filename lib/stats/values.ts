/**
 * Guards and the plain mean shared by the inferential helpers. Every statistic here is computed from
 * finite numbers only; a NaN (e.g. a score averaged over zero responses) must fail loudly instead of
 * silently poisoning an interval or a p value.
 */
import { InputError } from '../errors';

/** Throws an InputError naming `what` and the offending index unless `values` is non-empty and all finite. */
export function assertFiniteValues(values: readonly number[], what: string): void {
  if (values.length === 0) throw new InputError(`${what}: no values`, { item: what });
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i]!;
    if (!Number.isFinite(v)) throw new InputError(`${what}: value ${i} is ${v}, expected a finite number`, { item: `${what}[${i}]` });
  }
}

/**
 * Arithmetic mean (Σ xᵢ) / n, summed left to right in input order (so a value vector and its copy give
 * bit-identical means). Example: mean([1, 2, 6]) = 3.
 */
export function mean(values: readonly number[]): number {
  assertFiniteValues(values, 'mean');
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i]!;
  return sum / values.length;
}

/** Throws a RangeError unless `count` (a number of resamples or flips) is a positive integer. */
export function assertCount(count: number, what: string): void {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`${what} must be a positive integer, got ${count}`);
}
