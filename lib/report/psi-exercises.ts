/**
 * Check cells of notebook 10's exercises: the knowledge-distance sub-score of a response and how the
 * composite PSI moves when one sub-score changes. The truth is computed with lib/psi
 * (`scoreKnowledgeDistance`, `composite`), the scorer itself; any answer (null, a string, an unknown
 * sub-score) gets a sentence, never an exception.
 */
import { composite, scoreKnowledgeDistance, SUBSCORES, type SubscoreName, type Subscores } from '../psi';
import { closeEnough, numberAnswer, shownNumber, type ExerciseCheck } from './exercise-check';

/**
 * "A response names these concepts; the learner knows these. Predict S_KD = 1 − |sim − δ_opt|", with
 * sim the share of the response's concepts the learner knows (the project's `known-share` reading).
 *
 * @example
 * checkKnowledgeDistanceAnswer(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'x'], 0.65, 0.9).right; // => true
 * checkKnowledgeDistanceAnswer(['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'x'], 0.65, 0.75).why; // => 'sim = 3 known / 4 named = 0.75, so KD = 1 − |0.75 − 0.65| = 0.9, not 0.75'
 */
export function checkKnowledgeDistanceAnswer(conceptsFound: readonly string[], knownConcepts: readonly string[], deltaOpt: number, answer: unknown): ExerciseCheck {
  const value = numberAnswer(answer, 'KD');
  if (typeof value !== 'number') return value;
  const { score, evidence } = scoreKnowledgeDistance(conceptsFound, knownConcepts, { deltaOpt, overlap: 'known-share' });
  const sim = evidence.conceptsFound.length === 0 ? 'no concept named, so sim = 0' : `sim = ${evidence.known.length} known / ${evidence.conceptsFound.length} named = ${shownNumber(evidence.overlap)}`;
  const worked = `${sim}, so KD = 1 − |${shownNumber(evidence.overlap)} − ${deltaOpt}| = ${shownNumber(score)}`;
  if (closeEnough(value, score)) return { right: true, why: `${worked}: ${evidence.overlap > deltaOpt ? 'a little more familiar material than the target' : evidence.overlap < deltaOpt ? 'a little more new material than the target' : 'exactly the target mix'}` };
  return {
    right: false,
    why: `${worked}, not ${value}`,
    hint: value === evidence.overlap ? 'that is sim itself; KD measures how far sim is from δ_opt: 1 minus the distance' : 'first the share of named concepts the learner knows (sim), then 1 minus its distance from δ_opt',
  };
}

/**
 * "If sub-score(s) `change` took these values, what would the composite PSI be?" Right when `answer`
 * is Σ w_i S_i with the changed sub-scores (two decimals are enough).
 *
 * @example
 * const s = { kd: 0.9, tv: 1, sd: 0.4, ef: 0.7, cl: 0.4, ra: 0.6 };
 * const w = { kd: 1 / 6, tv: 1 / 6, sd: 1 / 6, ef: 1 / 6, cl: 1 / 6, ra: 1 / 6 };
 * checkCompositeAnswer(s, w, { cl: 1 }, 0.77).right; // => true
 * checkCompositeAnswer(s, w, { cl: 1 }, 1).why; // => 'PSI = Σ w·S = 0.667 + 1/6 × (1 − 0.4) = 0.767, not 1'
 */
export function checkCompositeAnswer(subscores: Subscores, weights: Subscores, change: Partial<Subscores>, answer: unknown): ExerciseCheck {
  const value = numberAnswer(answer, 'PSI');
  if (typeof value !== 'number') return value;
  const unknown = Object.keys(change).filter((name) => !(SUBSCORES as readonly string[]).includes(name));
  if (unknown.length > 0) return { right: false, why: `the exercise changes ${unknown.join(', ')}, which is not a sub-score (${SUBSCORES.join(', ')})` };
  const before = composite(subscores, weights);
  const changed = SUBSCORES.filter((name) => change[name] !== undefined) as SubscoreName[];
  const after = composite({ ...subscores, ...change }, weights);
  const weight = (name: SubscoreName) => (closeEnough(weights[name], 1 / 6) ? '1/6' : shownNumber(weights[name]));
  const steps = changed.map((name) => `${weight(name)} × (${shownNumber(change[name]!)} − ${shownNumber(subscores[name])})`).join(' + ');
  const worked = `PSI = Σ w·S = ${shownNumber(before)} + ${steps} = ${shownNumber(after)}`;
  if (closeEnough(value, after)) return { right: true, why: `${worked}: a sub-score moves the composite by its weight times its change` };
  return {
    right: false,
    why: `${worked}, not ${value}`,
    hint: 'the composite is a weighted mean: changing one sub-score by Δ changes PSI by its weight × Δ (1/6 × Δ with equal weights)',
  };
}
