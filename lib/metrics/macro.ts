/**
 * Macro averaging (§3.3, last sentence of the conventions paragraph): the reported precision, recall, F1,
 * ... are means of the response-level scores, not scores of pooled counts. So "macro F1" is the mean of the
 * individual F1 values, and the mean of `exact` is the exact-set accuracy.
 */
import { InputError } from '../errors';
import { MEASURES, type ResponseScores } from './response';

/** Means of each measure over `n` responses. */
export interface MacroScores extends ResponseScores {
  readonly n: number;
}

/**
 * Arithmetic mean of every measure over the given response scores, summed in input order.
 *
 * Which responses to pass is the caller's decision: invalid returned responses are included (scored with
 * {@link invalidResponseScores}); technical-missing records (no model output at all) must be removed
 * beforehand, because they are not predictions. An empty list is an error: there is no mean to report.
 *
 * F1 (1 + 2/3) / 2 = 5/6, which in doubles is one unit in the last place below the double nearest 5/6:
 *
 * @example
 * import { scoreResponse } from './response';
 * macroAverage([scoreResponse(['a'], ['a']), scoreResponse(['a', 'b'], ['a'])]).f1; // => 0.8333333333333333
 */
export function macroAverage(scores: readonly ResponseScores[]): MacroScores {
  if (scores.length === 0) throw new InputError('macroAverage: no response scores to average (every record filtered out?)');
  const sums: Record<string, number> = {};
  for (const measure of MEASURES) sums[measure] = 0;
  for (const score of scores) for (const measure of MEASURES) sums[measure]! += score[measure];
  const n = scores.length;
  return {
    n,
    exact: sums.exact! / n,
    precision: sums.precision! / n,
    recall: sums.recall! / n,
    f1: sums.f1! / n,
    jaccard: sums.jaccard! / n,
    symmetricDifference: sums.symmetricDifference! / n,
  };
}
