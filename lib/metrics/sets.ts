/**
 * The counts every set measure is built from. Recommendation lists arrive as arrays; the measures treat
 * them as sets, so duplicates are collapsed first (a model naming the same component twice recommends it
 * once). Keeping the counting in one place means every measure sees the same |P|, |T| and |P ∩ T|.
 *
 * @example
 * overlapCounts(['a', 'b', 'b'], ['b', 'c']); // => { predicted: 2, reference: 2, shared: 1 }
 */
export interface OverlapCounts {
  /** |P|, number of distinct predicted items. */
  readonly predicted: number;
  /** |T|, number of distinct reference items. */
  readonly reference: number;
  /** |P ∩ T|. */
  readonly shared: number;
}

export function overlapCounts(predicted: readonly string[], reference: readonly string[]): OverlapCounts {
  const p = new Set(predicted);
  const t = new Set(reference);
  let shared = 0;
  for (const item of p) if (t.has(item)) shared += 1;
  return { predicted: p.size, reference: t.size, shared };
}
