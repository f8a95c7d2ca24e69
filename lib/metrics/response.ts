/**
 * One scored response: every §3.3 measure of one prediction against its reference fringe.
 */
import { exactMatch, f1Score, jaccard, precision, recall, symmetricDifference } from './measures';

/** All measures for one response. `exact` is 0 or 1; `symmetricDifference` is a count; the rest lie in [0, 1]. */
export interface ResponseScores {
  readonly exact: number;
  readonly precision: number;
  readonly recall: number;
  readonly f1: number;
  readonly jaccard: number;
  readonly symmetricDifference: number;
}

/** The measure names of {@link ResponseScores}, in reporting order. */
export const MEASURES = ['exact', 'precision', 'recall', 'f1', 'jaccard', 'symmetricDifference'] as const;
export type Measure = (typeof MEASURES)[number];

/**
 * Scores a valid (schema-conforming) prediction P against the reference outer fringe T.
 *
 * @example
 * scoreResponse(['a', 'b', 'c'], ['a']); // => { exact: 0, precision: 1 / 3, recall: 1, f1: 0.5, jaccard: 1 / 3, symmetricDifference: 2 }
 */
export function scoreResponse(predicted: readonly string[], reference: readonly string[]): ResponseScores {
  return {
    exact: exactMatch(predicted, reference),
    precision: precision(predicted, reference),
    recall: recall(predicted, reference),
    f1: f1Score(predicted, reference),
    jaccard: jaccard(predicted, reference),
    symmetricDifference: symmetricDifference(predicted, reference),
  };
}

/**
 * Scores of a returned but invalid response (malformed JSON, duplicate or out-of-range positions, refusal,
 * truncation, ...). The paper (§4.2) counts such a response as incorrect on every measure, so each measure
 * takes its worst attainable value: exact, precision, recall, F1 and Jaccard are 0 — even for a terminal
 * state, where any valid prediction would have recall 1.
 *
 * Symmetric difference: its worst attainable value is the number of components in the domain (a
 * prediction P ⊆ Q is at most |Q| away from any T ⊆ Q, reached by P = Q \ T). We use that, rather than
 * |T| (the score of an empty prediction, which would call an invalid answer to a terminal state
 * perfect) or null (which would drop the response from the mean). Hence the domain size is required.
 *
 * Not for technical missingness (a transport failure with no model output): such records are excluded
 * from scoring altogether, see {@link macroAverage}.
 *
 * @example
 * invalidResponseScores(7); // => { exact: 0, precision: 0, recall: 0, f1: 0, jaccard: 0, symmetricDifference: 7 }
 */
export function invalidResponseScores(componentCount: number): ResponseScores {
  if (!Number.isInteger(componentCount) || componentCount < 1) {
    throw new RangeError(`invalidResponseScores: componentCount must be a positive integer, got ${componentCount}`);
  }
  return { exact: 0, precision: 0, recall: 0, f1: 0, jaccard: 0, symmetricDifference: componentCount };
}
