/**
 * Guards shared by the inferential helpers (their mean is lib/stats/mean.ts). Every statistic here is computed from
 * finite numbers only; a NaN (e.g. a score averaged over zero responses) must fail loudly instead of
 * silently poisoning an interval or a p value.
 */
import { InputError } from '../errors';

/** Throws an InputError naming `what` and the offending index unless `values` is non-empty and all finite. */
export function assertFiniteValues(values: readonly number[], what: string): void {
  if (values.length === 0) throw new InputError(`${what}: no values`, { item: what });
  for (const [i, v] of values.entries()) {
    if (!Number.isFinite(v)) throw new InputError(`${what}: value ${i} is ${v}, expected a finite number`, { item: `${what}[${i}]` });
  }
}

/** Throws a RangeError unless `count` (a number of resamples or flips) is a positive integer. */
export function assertCount(count: number, what: string): void {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`${what} must be a positive integer, got ${count}`);
}
