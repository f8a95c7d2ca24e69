import { sum } from 'simple-statistics';

/** Groups items by a string key, keeping first-seen key order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(item);
  }
  return groups;
}

/**
 * Arithmetic mean with compensated (Kahan–Babuška) summation from simple-statistics, so a mean over
 * hundreds of thousands of response scores is as close to the exactly rounded value as a double allows,
 * whatever the input order. NaN for an empty list (callers only average non-empty groups).
 */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : sum(values as number[]) / values.length;
}
