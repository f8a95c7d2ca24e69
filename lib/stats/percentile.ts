/**
 * Sample percentiles by linear interpolation between order statistics.
 *
 * Definition (Hyndman & Fan 1996, type 7; the default of numpy.percentile / numpy.quantile and of R's
 * quantile): for ascending x₀ ≤ … ≤ x_{N−1} and 0 ≤ p ≤ 1,
 *   h = (N − 1)·p,  Q(p) = x_⌊h⌋ + (h − ⌊h⌋)·(x_{⌊h⌋+1} − x_⌊h⌋)   (Q(1) = x_{N−1}).
 *
 * Why our own function: the bootstrap interval's definition must not drift with a dependency. Older
 * simple-statistics releases used a different rule for `quantileSorted` (picking or averaging order
 * statistics around N·p, no interpolation); the installed 7.12.1 does implement type 7, and the tests check
 * that both agree. Ours also validates its input (sorted, finite) and accepts typed arrays.
 *
 * Worked by hand (numpy.percentile gives the same): h = 0.75 and h = 3.6.
 *
 * @example
 * percentileLinear([1, 2, 3, 4], 0.25); // => 1.75
 * percentileLinear([10, 20, 30, 40, 50], 0.9); // => 46
 */
import { InputError } from '../errors';

export function percentileLinear(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) throw new InputError('percentileLinear: no values');
  if (!(p >= 0 && p <= 1)) throw new RangeError(`percentileLinear: p must lie in [0, 1], got ${p}`);
  for (let i = 0; i < n; i += 1) {
    const v = sorted[i]!;
    if (!Number.isFinite(v)) throw new InputError(`percentileLinear: value ${i} is ${v}, expected a finite number`);
    if (i > 0 && v < sorted[i - 1]!) throw new InputError(`percentileLinear: values must be sorted ascending (index ${i})`);
  }
  const h = (n - 1) * p;
  const lower = Math.floor(h);
  if (lower >= n - 1) return sorted[n - 1]!;
  const below = sorted[lower]!;
  return below + (h - lower) * (sorted[lower + 1]! - below);
}
