/**
 * Response-level set measures comparing a predicted recommendation set P with the reference outer fringe T
 * (Steiner & Hochweber 2026, §3.3, eqs. 3–5). Arrays are read as sets: duplicates are collapsed.
 *
 * Conventions for empty sets (same source, §3.3), applied by every measure below:
 *
 * | case                  | exact | precision | recall | F1 | Jaccard |
 * |-----------------------|-------|-----------|--------|----|---------|
 * | P = ∅, T = ∅          |   1   |     1     |   1    | 1  |    1    |
 * | P = ∅, T ≠ ∅          |   0   |     0     |   0    | 0  |    0    |
 * | P ≠ ∅, T = ∅          |   0   |     0     |   1    | 0  |    0    |
 *
 * The symmetric difference is a plain count and needs no convention.
 */
import { overlapCounts } from './sets';

/**
 * Symmetric-difference distance D(P, T) = |(P \ T) ∪ (T \ P)| = |P| + |T| − 2|P ∩ T|
 * (Gower & Legendre 1986): the number of extra plus omitted recommendations.
 *
 * Extra a, omitted c:
 *
 * @example
 * symmetricDifference(['a', 'b'], ['b', 'c']); // => 2
 */
export function symmetricDifference(predicted: readonly string[], reference: readonly string[]): number {
  const c = overlapCounts(predicted, reference);
  return c.predicted + c.reference - 2 * c.shared;
}

/**
 * Exact-set match: 1 if P = T as sets, else 0. Two empty sets match (a terminal state answered with no
 * recommendation is fully correct).
 *
 * @example
 * exactMatch(['b', 'a'], ['a', 'b']); // => 1
 * exactMatch([], ['a']); // => 0
 */
export function exactMatch(predicted: readonly string[], reference: readonly string[]): 0 | 1 {
  const c = overlapCounts(predicted, reference);
  return c.shared === c.predicted && c.shared === c.reference ? 1 : 0;
}

/**
 * Precision = |P ∩ T| / |P|, the share of recommendations that are admissible next steps.
 * Empty P: 1 if T is also empty, else 0 (§3.3 conventions).
 *
 * @example
 * precision(['a', 'b', 'c'], ['a']); // => 1 / 3
 */
export function precision(predicted: readonly string[], reference: readonly string[]): number {
  const c = overlapCounts(predicted, reference);
  if (c.predicted === 0) return c.reference === 0 ? 1 : 0;
  return c.shared / c.predicted;
}

/**
 * Recall = |P ∩ T| / |T|, the share of admissible next steps the model recovered.
 * Empty T: 1 whatever P is, because no reference element is omitted (§3.3 conventions).
 *
 * @example
 * recall(['a'], ['a', 'b']); // => 1 / 2
 * recall(['x'], []); // => 1
 */
export function recall(predicted: readonly string[], reference: readonly string[]): number {
  const c = overlapCounts(predicted, reference);
  if (c.reference === 0) return 1;
  return c.shared / c.reference;
}

/**
 * F1 = 2|P ∩ T| / (|P| + |T|), the harmonic mean of precision and recall (van Rijsbergen 1979).
 * Both sets empty: 1; exactly one empty: 0 (the formula already gives 0 there).
 *
 * 2·1 / (3 + 1) = 1/2:
 *
 * @example
 * f1Score(['a', 'b', 'c'], ['a']); // => 1 / 2
 */
export function f1Score(predicted: readonly string[], reference: readonly string[]): number {
  const c = overlapCounts(predicted, reference);
  if (c.predicted === 0 && c.reference === 0) return 1;
  return (2 * c.shared) / (c.predicted + c.reference);
}

/**
 * Jaccard similarity J = |P ∩ T| / |P ∪ T| with |P ∪ T| = |P| + |T| − |P ∩ T|.
 * Both sets empty: 1; exactly one empty: 0 (the formula already gives 0 there).
 *
 * @example
 * jaccard(['a', 'b'], ['b', 'c']); // => 1 / 3
 */
export function jaccard(predicted: readonly string[], reference: readonly string[]): number {
  const c = overlapCounts(predicted, reference);
  const union = c.predicted + c.reference - c.shared;
  if (union === 0) return 1;
  return c.shared / union;
}
