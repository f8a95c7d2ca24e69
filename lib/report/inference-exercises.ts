/**
 * Check cells of notebook 06's exercises: the sign-flip test on a handful of states (small enough to
 * list every sign pattern) and Holm's adjustment of three contrasts. The truth is computed with
 * lib/stats (`exactSignFlipTest`, `holm`), the functions the analysis uses; any answer (null, a string,
 * an unknown contrast) gets a sentence, never an exception.
 */
import { exactSignFlipTest, holm, significantAt } from '../stats';
import { closeEnough, numberAnswer, shownNumber, stringListAnswer, type ExerciseCheck } from './exercise-check';

/**
 * "These are the paired differences of a few states: predict the two-sided sign-flip p." Right when
 * `answer` is the exact p over all 2^n sign patterns (two decimals are enough).
 *
 * @example
 * checkSignFlipAnswer([10, 20, -5, 15], 0.25).right; // => true
 * checkSignFlipAnswer([10, 20, -5, 15], 0.125).why; // => '4 of the 16 sign patterns give a mean at least as far from 0 as the observed 10, so p = 4 / 16 = 0.25, not 0.125'
 */
export function checkSignFlipAnswer(differences: readonly number[], answer: unknown): ExerciseCheck {
  const value = numberAnswer(answer, 'p');
  if (typeof value !== 'number') return value;
  let exact: ReturnType<typeof exactSignFlipTest>;
  try {
    exact = exactSignFlipTest(differences);
  } catch (e) {
    return { right: false, why: `the exercise's differences cannot be enumerated: ${e instanceof Error ? e.message : String(e)}` };
  }
  const counted = `${exact.extreme} of the ${exact.patterns} sign patterns give a mean at least as far from 0 as the observed ${shownNumber(exact.observed)}, so p = ${exact.extreme} / ${exact.patterns} = ${shownNumber(exact.p)}`;
  if (closeEnough(value, exact.p)) return { right: true, why: counted };
  const hint =
    value < 2 / exact.patterns && exact.observed !== 0
      ? 'the observed signs count as one pattern, and flipping all of them gives the same distance from 0: p is never below 2 / 2^n'
      : 'list the patterns: each state keeps or flips its sign; count those whose mean is at least as far from 0 as the observed mean, on either side';
  return { right: false, why: `${counted}, not ${value}`, hint };
}

/**
 * "Which of these contrasts stay significant at `alpha` after Holm's adjustment?" `pValues` maps each
 * contrast to its unadjusted p; right when `answer` lists exactly the contrasts whose Holm-adjusted p is
 * below `alpha` (`significantAt`, the rule of the contrast sentences and the planner).
 *
 * @example
 * const p = { 'P1-P0': 0.03, 'P2-P1': 0.004, 'P3-P2': 0.04 };
 * checkHolmAnswer(p, 0.05, ['P2-P1']).right; // => true
 * checkHolmAnswer(p, 0.05, ['P1-P0', 'P2-P1', 'P3-P2']).right; // => false
 */
export function checkHolmAnswer(pValues: Readonly<Record<string, number>>, alpha: number, answer: unknown): ExerciseCheck {
  const names = Object.keys(pValues);
  const given = stringListAnswer(answer, 'the answer', `contrast names such as ["${names[0] ?? 'P1-P0'}"] ([] for none)`);
  if (!Array.isArray(given)) return given;
  const unknown = given.filter((name) => !names.includes(name));
  if (unknown.length > 0) return { right: false, why: `${unknown.join(', ')} is not one of the contrasts ${names.join(', ')}` };
  const adjusted = holm(names.map((name) => pValues[name]!));
  const order = names.map((name, i) => ({ name, p: pValues[name]!, adjusted: adjusted[i]! })).sort((a, b) => a.p - b.p);
  const kept = order.filter((c) => significantAt(c.adjusted, alpha)).map((c) => c.name);
  // The step-down reading: the smallest p times m, the next times m − 1, … stopping at the first miss.
  const steps = order.map((c, j) => `${c.name}: ${c.p} × ${names.length - j} = ${shownNumber(c.p * (names.length - j))}${significantAt(c.adjusted, alpha) ? ` < ${alpha}` : ` → adjusted ${shownNumber(c.adjusted)} ≥ ${alpha}`}`);
  const list = kept.length === 0 ? 'none' : kept.join(', ');
  if (given.length === kept.length && given.every((name) => kept.includes(name))) {
    return { right: true, why: `significant after Holm: ${list} (${steps.join('; ')})` };
  }
  const naive = names.filter((name) => significantAt(pValues[name]!, alpha));
  const tookUnadjusted = given.length === naive.length && given.every((name) => naive.includes(name)) && naive.length !== kept.length;
  return {
    right: false,
    why: `significant after Holm: ${list}, not ${given.length === 0 ? 'none' : given.join(', ')} (${steps.join('; ')})`,
    hint: tookUnadjusted
      ? `those are the unadjusted p values below ${alpha}; with ${names.length} tests read together, multiply the smallest p by ${names.length}, the next by ${names.length - 1}, … and stop at the first that is not below ${alpha}`
      : `sort the p values, multiply the smallest by ${names.length}, the next by ${names.length - 1}, …; once one is not below ${alpha}, it and every larger one are not significant`,
  };
}
