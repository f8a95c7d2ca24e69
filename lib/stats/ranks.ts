/**
 * Standard competition ranking ("1224"): tied items share the best rank of their group and the next rank
 * skips by the size of the group. Rank of item i = 1 + #{items strictly better than i}.
 *
 * Ties must be exact. Plain numbers are compared with ===; proportions (e.g. exact-set accuracy k/n) can be
 * passed as {k, n} count pairs and compared with {@link compareProportions}, which cross-multiplies
 * integers (k₁·n₂ vs k₂·n₁), so two equal rates never get split by floating-point rounding (a mean of
 * 0/1 scores summed in different orders may differ in the last bit; the counts never do).
 */
import { InputError } from '../errors';

/** Orders two items ascending: negative if a < b, 0 if tied, positive if a > b. */
export type Compare<T> = (a: T, b: T) => number;

export interface RankOptions<T> {
  /** true (default): the largest value gets rank 1; false: the smallest does. */
  descending?: boolean;
  /** Ascending comparison; required for anything but numbers. */
  compare?: Compare<T>;
}

/** A proportion k/n given by its integer counts (0 ≤ k ≤ n, n ≥ 1). */
export interface Proportion {
  readonly k: number;
  readonly n: number;
}

/**
 * Competition ranks of `values`, returned in input order.
 *
 * @example
 * competitionRanks([0.9, 0.8, 0.8, 0.7]); // => [1, 2, 2, 4]
 * competitionRanks([0.9, 0.8, 0.8, 0.7], { descending: false }); // => [4, 2, 2, 1]
 * competitionRanks([{ k: 1, n: 3 }, { k: 2, n: 6 }, { k: 1, n: 2 }], { compare: compareProportions }); // => [2, 2, 1]
 */
export function competitionRanks(values: readonly number[], options?: RankOptions<number>): number[];
export function competitionRanks<T>(values: readonly T[], options: RankOptions<T> & { compare: Compare<T> }): number[];
export function competitionRanks<T>(values: readonly T[], options: RankOptions<T> = {}): number[] {
  const compare = options.compare ?? (compareNumbers as unknown as Compare<T>);
  const sign = options.descending === false ? 1 : -1;
  const better = (a: T, b: T): number => sign * compare(a, b);
  const order = values.map((_, i) => i).sort((a, b) => better(values[a]!, values[b]!) || a - b);
  const ranks = new Array<number>(values.length);
  order.forEach((index, position) => {
    const previous = order[position - 1];
    const tied = previous !== undefined && compare(values[previous]!, values[index]!) === 0;
    ranks[index] = tied ? ranks[previous]! : position + 1;
  });
  return ranks;
}

/** Ascending numeric comparison; NaN is rejected because it cannot be ranked. */
export function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) throw new InputError('competitionRanks: cannot rank NaN');
  return a === b ? 0 : a < b ? -1 : 1;
}

/**
 * Exact ascending comparison of two proportions by cross-multiplication: sign(k₁·n₂ − k₂·n₁).
 *
 * @example
 * compareProportions({ k: 1, n: 3 }, { k: 2, n: 6 }); // => 0
 */
export function compareProportions(a: Proportion, b: Proportion): number {
  assertProportion(a);
  assertProportion(b);
  return Math.sign(a.k * b.n - b.k * a.n);
}

function assertProportion(x: Proportion): void {
  const ok = Number.isSafeInteger(x.k) && Number.isSafeInteger(x.n) && x.n >= 1 && x.k >= 0 && x.k <= x.n;
  if (!ok) throw new InputError(`competitionRanks: ${JSON.stringify(x)} is not a proportion k/n with integers 0 ≤ k ≤ n, n ≥ 1`);
}
