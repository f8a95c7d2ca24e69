/**
 * What every predict-then-check exercise of the notebooks shares: the verdict type, how a check cell
 * prints it, and the reading of a student's answer (null = not answered yet, a number, a list of IDs).
 * The checks themselves sit beside the notebook they serve: kst-exercises.ts (01), metric-exercises.ts
 * (04), inference-exercises.ts (06), psi-exercises.ts (10). Every check takes the answer as `unknown`
 * and answers anything with a sentence, never an exception.
 */

/** The verdict of a check cell. */
export interface ExerciseCheck {
  right: boolean;
  /** One sentence: why the answer is right, or what is wrong with it. */
  why: string;
  /** For a wrong answer: where to look next. */
  hint?: string;
}

/**
 * The check as the notebook prints it: "✔ right: …" or "✘ not yet: …" and a hint line.
 * @example
 * exerciseFeedback({ right: true, why: 'it is' }); // => '✔ right: it is'
 * exerciseFeedback({ right: false, why: 'no', hint: 'look' }); // => '✘ not yet: no\n  hint: look'
 */
export function exerciseFeedback(check: ExerciseCheck): string {
  return check.right ? `✔ right: ${check.why}` : `✘ not yet: ${check.why}${check.hint ? `\n  hint: ${check.hint}` : ''}`;
}

/** The verdict on an answer still `null`. */
export const NO_ANSWER: ExerciseCheck = { right: false, why: 'no answer yet', hint: 'replace null with your answer and run the cell again' };

/**
 * How close a numeric answer must be: answers rounded to two decimals (0.67 for 2/3) count as right.
 */
export const NUMBER_TOLERANCE = 0.005;

/**
 * The answer as a finite number, or the check that says why it is not one.
 * @example
 * numberAnswer(0.5, 'precision'); // => 0.5
 * (numberAnswer('1/2', 'precision') as { why: string }).why; // => 'precision is a number such as 0.5 (write 1/2 as 0.5 or 1 / 2 without quotes), not "1/2"'
 */
export function numberAnswer(answer: unknown, what: string): number | ExerciseCheck {
  if (answer === null || answer === undefined) return NO_ANSWER;
  if (typeof answer !== 'number' || !Number.isFinite(answer)) {
    return { right: false, why: `${what} is a number such as 0.5 (write 1/2 as 0.5 or 1 / 2 without quotes), not ${JSON.stringify(answer)}` };
  }
  return answer;
}

/**
 * True when a numeric answer equals the computed value to within NUMBER_TOLERANCE.
 * @example
 * closeEnough(0.67, 2 / 3); // => true
 * closeEnough(0.6, 2 / 3); // => false
 */
export function closeEnough(answer: number, truth: number): boolean {
  return Math.abs(answer - truth) <= NUMBER_TOLERANCE + 1e-12;
}

/**
 * The answer as a list of strings (IDs, contrast names), or the check that says why it is not one;
 * `kind` says what the list holds, with an example.
 * @example
 * stringListAnswer(['SL3'], 'a response', 'component IDs such as ["SL3", "SL4"]'); // => ['SL3']
 * (stringListAnswer('SL3', 'a response', 'component IDs such as ["SL3", "SL4"]') as { why: string }).why; // => 'a response is a list of component IDs such as ["SL3", "SL4"], not "SL3"'
 */
export function stringListAnswer(answer: unknown, what: string, kind: string): string[] | ExerciseCheck {
  if (answer === null || answer === undefined) return NO_ANSWER;
  if (!Array.isArray(answer) || !answer.every((x) => typeof x === 'string')) {
    return { right: false, why: `${what} is a list of ${kind}, not ${JSON.stringify(answer)}` };
  }
  return answer as string[];
}

/** A number as a check message prints it: at most three decimals, no trailing zeros (0.5, 0.333, 1). */
export function shownNumber(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}
