/**
 * Check cells of notebook 04's exercises: the set measures that score a response P against the outer
 * fringe T (exact, precision, recall, F1). Every value is computed with lib/metrics, the same functions
 * that score the benchmark, never a stored answer; any answer (null, a string, a missing measure) gets
 * a sentence, never an exception.
 */
import { exactMatch, f1Score, overlapCounts, precision, recall } from '../metrics';
import { closeEnough, NO_ANSWER, numberAnswer, shownNumber, stringListAnswer, type ExerciseCheck } from './exercise-check';
import { stateLabel } from './kst-diagrams';

/** The four measures a student predicts, in the order the notebook's table lists them. */
export const PREDICTED_MEASURES = ['exact', 'precision', 'recall', 'f1'] as const;
export type PredictedMeasure = (typeof PREDICTED_MEASURES)[number];

const MEASURE_FUNCTIONS: Record<PredictedMeasure, (p: readonly string[], t: readonly string[]) => number> = {
  exact: exactMatch,
  precision,
  recall,
  f1: f1Score,
};

/** Each measure's formula with this P and T's own counts, e.g. "precision = |P∩T| / |P| = 1 / 2 = 0.5". */
function formulaWithCounts(measure: PredictedMeasure, predicted: readonly string[], reference: readonly string[]): string {
  const c = overlapCounts(predicted, reference);
  const value = shownNumber(MEASURE_FUNCTIONS[measure](predicted, reference));
  switch (measure) {
    case 'exact':
      return `exact = ${value} (P ${value === '1' ? '=' : '≠'} T)`;
    case 'precision':
      return c.predicted === 0 ? `precision = ${value} (P is empty: 1 only when T is empty too)` : `precision = |P∩T| / |P| = ${c.shared} / ${c.predicted} = ${value}`;
    case 'recall':
      return c.reference === 0 ? `recall = ${value} (T is empty: nothing admissible was left out)` : `recall = |P∩T| / |T| = ${c.shared} / ${c.reference} = ${value}`;
    case 'f1':
      return c.predicted + c.reference === 0 ? `F1 = ${value} (both empty)` : `F1 = 2|P∩T| / (|P| + |T|) = ${2 * c.shared} / ${c.predicted + c.reference} = ${value}`;
  }
}

/**
 * "A response P is scored against the fringe T: predict its exact, precision, recall and F1." The
 * answer is an object `{ exact, precision, recall, f1 }` of numbers (two decimals are enough).
 *
 * @example
 * checkMeasuresAnswer(['SL3', 'SL5'], ['SL3', 'SL4'], { exact: 0, precision: 0.5, recall: 0.5, f1: 0.5 }).right; // => true
 * checkMeasuresAnswer(['SL3', 'SL5'], ['SL3', 'SL4'], { exact: 0, precision: 0.5, recall: 0.5, f1: 0.67 }).why; // => 'F1 = 2|P∩T| / (|P| + |T|) = 2 / 4 = 0.5, not 0.67'
 */
export function checkMeasuresAnswer(predicted: readonly string[], reference: readonly string[], answer: unknown): ExerciseCheck {
  if (answer === null || answer === undefined) return NO_ANSWER;
  if (typeof answer !== 'object' || Array.isArray(answer)) {
    return { right: false, why: `the answer is an object such as { exact: 0, precision: 0.5, recall: 1, f1: 0.67 }, not ${JSON.stringify(answer)}` };
  }
  const given = answer as Record<string, unknown>;
  const missing = PREDICTED_MEASURES.filter((m) => given[m] === null || given[m] === undefined);
  if (missing.length > 0) return { right: false, why: `no value for ${missing.join(', ')} yet`, hint: 'write all four: { exact: …, precision: …, recall: …, f1: … }' };
  const wrong: string[] = [];
  for (const m of PREDICTED_MEASURES) {
    const value = numberAnswer(given[m], m);
    if (typeof value !== 'number') return value;
    if (!closeEnough(value, MEASURE_FUNCTIONS[m](predicted, reference))) wrong.push(`${formulaWithCounts(m, predicted, reference)}, not ${value}`);
  }
  const sets = `P = ${stateLabel([...new Set(predicted)])}, T = ${stateLabel([...new Set(reference)])}`;
  if (wrong.length === 0) {
    return { right: true, why: `${sets}: ${PREDICTED_MEASURES.map((m) => formulaWithCounts(m, predicted, reference)).join('; ')}` };
  }
  return {
    right: false,
    why: wrong.join('; '),
    hint: `count first: ${sets}, so |P∩T| = ${overlapCounts(predicted, reference).shared}; then divide by |P| for precision, by |T| for recall`,
  };
}

/**
 * "Write a response P for the fringe T that scores `want`" (e.g. precision 1 but exact 0): right when
 * P's measures, computed with lib/metrics, are the ones asked for.
 *
 * @example
 * checkResponseForScores(['SL3', 'SL4'], ['SL3'], { precision: 1, exact: 0 }).right; // => true
 * checkResponseForScores(['SL3', 'SL4'], ['SL3', 'SL5'], { precision: 1, exact: 0 }).why; // => '{SL3,SL5} scores precision = |P∩T| / |P| = 1 / 2 = 0.5, not 1'
 */
export function checkResponseForScores(reference: readonly string[], answer: unknown, want: Partial<Record<PredictedMeasure, number>>): ExerciseCheck {
  const ids = stringListAnswer(answer, 'a response', 'component IDs such as ["SL3", "SL4"]');
  if (!Array.isArray(ids)) return ids;
  const asked = PREDICTED_MEASURES.filter((m) => want[m] !== undefined);
  const label = stateLabel([...new Set(ids)]);
  const off = asked.filter((m) => !closeEnough(MEASURE_FUNCTIONS[m](ids, reference), want[m]!));
  if (off.length === 0) {
    return { right: true, why: `${label} scores ${asked.map((m) => formulaWithCounts(m, ids, reference)).join('; ')}` };
  }
  return {
    right: false,
    why: `${label} scores ${off.map((m) => `${formulaWithCounts(m, ids, reference)}, not ${want[m]}`).join('; ')}`,
    hint: 'precision counts only what P names (every element must be in T); exact also needs every element of T in P',
  };
}
