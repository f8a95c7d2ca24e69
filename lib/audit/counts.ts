import { printsAs } from '../stats/prints-as';

/**
 * The integer counts k (0 ≤ k ≤ n) whose percentage 100·k/n, rounded to `decimals` places, prints as
 * `percent`. An empty result means the printed percentage is impossible for that n. Both ends of the
 * rounding interval count, since the paper does not say how it rounds halves.
 *
 * @example
 * allowedCounts(36.4, 132); // => [48]
 * allowedCounts(61.3, 600); // => [368]
 * allowedCounts(50.5, 10); // => []
 */
export function allowedCounts(percent: number, n: number, decimals = 1): number[] {
  const half = 0.5 * 10 ** -decimals;
  // k/n·100 ∈ [percent − half, percent + half]; a small epsilon absorbs binary rounding of the bounds.
  const low = Math.max(0, Math.ceil(((percent - half) * n) / 100 - 1e-9));
  const high = Math.min(n, Math.floor(((percent + half) * n) / 100 + 1e-9));
  const ks: number[] = [];
  for (let k = low; k <= high; k++) ks.push(k);
  return ks;
}

/** Whether `value` is within the rounding interval of a number printed with `decimals` places (the one rule, lib/stats/prints-as.ts). */
export function roundsTo(value: number, printed: number, decimals = 1): boolean {
  return printsAs(value, printed, decimals);
}

/**
 * The interval of possible true values of `a − b` when a and b are each printed rounded to `decimals`
 * places: [a − b − 2h, a − b + 2h] with h half a unit in the last place.
 */
export function differenceInterval(a: number, b: number, decimals = 1): [number, number] {
  const h = 0.5 * 10 ** -decimals;
  return [a - b - 2 * h, a - b + 2 * h];
}
