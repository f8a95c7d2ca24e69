/**
 * Presentation agreement (§3.3, last paragraph; RQ2): two predictions for the same state, obtained under
 * different presentation orders and mapped back to canonical ids, are compared with each other instead of
 * with the reference. This measures consistency, not correctness: both may agree and both be wrong.
 */
import { overlapCounts } from './sets';

export interface SetAgreement {
  /** 1 if A = B as sets (two empty sets agree), else 0. */
  readonly exact: number;
  /** |A ∩ B| / |A ∪ B|; 1 if both are empty. */
  readonly jaccard: number;
}

/**
 * Exact agreement and Jaccard similarity of two predictions; symmetric in its arguments; duplicates collapsed.
 *
 * @example
 * setAgreement(['a', 'b'], ['b']); // => { exact: 0, jaccard: 0.5 }
 * setAgreement([], []); // => { exact: 1, jaccard: 1 }
 */
export function setAgreement(first: readonly string[], second: readonly string[]): SetAgreement {
  const c = overlapCounts(first, second);
  const union = c.predicted + c.reference - c.shared;
  if (union === 0) return { exact: 1, jaccard: 1 };
  return { exact: c.shared === union ? 1 : 0, jaccard: c.shared / union };
}
