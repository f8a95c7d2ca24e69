/**
 * What the PSI notebooks' tables share: the published numbers of [PSI-2026] (data/published/psi-2026.json)
 * and the cells that set them beside computed ones, which paper model a collected model stands for, and
 * the notebooks' `weights` and `deltaOpt` parameters. Each notebook's own tables live beside this file, one per notebook,
 * as KST's do: psi-scoring.ts (notebook 10), psi-round1.ts (11), psi-regeneration.ts (12) and
 * psi-sensitivity-and-ratings.ts (13). Where the paper prints no number for a cell the paper column says
 * `not printed` (its table cells were lost in extraction). Numeric cells are at full precision (rates
 * as percent, e.g. 5/6 → 83.33333333333334): the processed CSVs keep every digit, and rounding is for
 * display only — notebooks pass `digits` to `saveTable`, which rounds the HTML table alone. Text cells
 * (formulas with the response's numbers, evidence, rankings) are formatted with three decimals. Pure
 * functions: notebooks render the rows.
 */
import { InputError } from '../errors';
import type { PublishedPsi } from '../records/published-psi';
import { resolvePsiParameters, SUBSCORES, SUBSCORE_LABELS, validateWeights, type SubscoreName, type Subscores } from '../psi/parameters';
import { paperModelStoodInFor } from '../simulation/paper-models';

/** What a paper column shows where the paper's running text prints no value. */
export const NOT_PRINTED = 'not printed';

/** The paper's four models. */
export const PAPER_MODELS = ['ChatGPT', 'Gemini', 'Gemma 4', 'Qwen 3'] as const;

// The published-numbers schema lives with the other record schemas; re-exported for existing callers.
export { PublishedPsiSchema, parsePublishedPsi } from '../records/published-psi';
export type { PublishedPsi } from '../records/published-psi';

/** Short column labels of the sub-scores, as the paper abbreviates them. */
export const SUBSCORE_SHORT: Record<SubscoreName, string> = { kd: 'KD', tv: 'TV', sd: 'SD', ef: 'EF', cl: 'CL', ra: 'RA' };
/** The label of a measure in table rows: "PSI" or the paper's sub-score abbreviation. */
export const measureLabel = (m: 'psi' | SubscoreName) => (m === 'psi' ? 'PSI' : SUBSCORE_SHORT[m]);

/**
 * A numeric cell at full precision; a missing or non-finite value (no record at that level, 0/0 rate)
 * becomes null, an empty cell.
 * @example
 * numericCell(2 / 3); // => 0.6666666666666666
 * numericCell(NaN); // => null
 * numericCell(undefined); // => null
 */
export function numericCell(x: number | null | undefined): number | null {
  return x === null || x === undefined || !Number.isFinite(x) ? null : x;
}
/**
 * A share as a percentage at full precision.
 * @example
 * percentCell(51 / 62); // => 82.25806451612904
 * percentCell(NaN); // => null
 */
export function percentCell(x: number | null | undefined): number | null {
  return x === null || x === undefined ? null : numericCell(x * 100);
}
/** A paper column's cell: the printed value, or NOT_PRINTED where the paper prints none. */
export const paperCell = (x: number | undefined | null): number | string => (x === undefined || x === null ? NOT_PRINTED : x);

/**
 * Which paper model each collected model stands for: simulated tutors (`simulated:sim-tutor-a`) map
 * to the model their profile imitates (lib/simulation/paper-models.ts), a model already named as in the
 * paper maps to itself, and `extra` (e.g. `{ "openai:gpt-4.5": "ChatGPT" }`) wins over both.
 * Models with no counterpart are left out.
 * @example
 * paperModelMap(['simulated:sim-tutor-b', 'Gemma 4', 'openai:gpt-4.5', 'x:unknown'], { 'openai:gpt-4.5': 'ChatGPT' }); // => { 'simulated:sim-tutor-b': 'Gemini', 'Gemma 4': 'Gemma 4', 'openai:gpt-4.5': 'ChatGPT' }
 */
export function paperModelMap(models: readonly string[], extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const model of models) {
    const standIn = paperModelStoodInFor(model);
    const tutorModel = standIn?.study === 'psi' ? standIn.paperModel : undefined;
    const mapped = extra[model] ?? tutorModel ?? ((PAPER_MODELS as readonly string[]).includes(model) ? model : undefined);
    if (mapped !== undefined) out[model] = mapped;
  }
  return out;
}

/**
 * A notebook's `weights` parameter as composite weights: "equal" → 1/6 each (the paper), otherwise an
 * object with the six weights, validated (non-negative, summing to 1). InputError otherwise.
 */
export function weightsParameter(value: unknown): Subscores {
  if (value === 'equal') return Object.fromEntries(SUBSCORES.map((s) => [s, 1 / 6])) as Subscores;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError(`weights parameter: expected "equal" or an object of six weights, got ${JSON.stringify(value)}`, { item: 'weights' });
  }
  return validateWeights(value as Partial<Subscores>, 'weights parameter');
}

/**
 * A notebook's `deltaOpt` parameter (δ_opt of S_KD = 1 − |sim − δ_opt|), checked where the notebook
 * reads its parameters, so that a value out of range stops that cell with one line naming the
 * parameter rather than the first scoring cell several cells later. The range is resolvePsiParameters'
 * [0, 1]: in [PSI-2026] §III sim is a share of the response's concepts (an overlap, in [0, 1]) and δ_opt
 * its target level (0.65); outside [0, 1], S_KD leaves [0, 1] for every response (δ_opt = 2 gives
 * S_KD ≤ 0), which Eq. 1 rules out (S_i ∈ [0, 1]).
 * @example
 * deltaOptParameter(0.5); // => 0.5
 * deltaOptParameter(2); // throws /^deltaOpt parameter: expected a number in \[0, 1\]/
 */
export function deltaOptParameter(value: unknown): number {
  try {
    return resolvePsiParameters({ deltaOpt: value as number }).deltaOpt;
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new InputError(
      `deltaOpt parameter: expected a number in [0, 1], the target share of the response's concepts the learner already knows ([PSI-2026] uses 0.65), got ${JSON.stringify(value)}`,
      { item: 'deltaOpt' },
    );
  }
}

/**
 * Two scorings side by side, one row per sub-score (by its label) and a last "PSI" row: the first
 * scoring's value, the second's, and second − first. Notebook 10 compares two responses to the same
 * scenario with it, notebook 12 a case before and after its regeneration; `columns` names the four
 * columns as each notebook's table heads them.
 *
 * @example
 * const zero = { kd: 0, tv: 0, sd: 0, ef: 0, cl: 0, ra: 0 };
 * const rows = beforeAfterTable({ psi: 0.5, subscores: zero }, { psi: 0.75, subscores: { ...zero, sd: 0.5 } }, { measure: "measure", before: "before", after: "after", change: "change" });
 * rows[2]; // => { measure: "Scaffolding density", before: 0, after: 0.5, change: 0.5 }
 * rows[6]; // => { measure: "PSI", before: 0.5, after: 0.75, change: 0.25 }
 */
export function beforeAfterTable(
  first: { psi: number; subscores: Subscores },
  second: { psi: number; subscores: Subscores },
  columns: { measure: string; before: string; after: string; change: string },
): Array<Record<string, string | number>> {
  const row = (measure: string, a: number, b: number) => ({ [columns.measure]: measure, [columns.before]: a, [columns.after]: b, [columns.change]: b - a });
  return [...SUBSCORES.map((s) => row(SUBSCORE_LABELS[s], first.subscores[s], second.subscores[s])), row('PSI', first.psi, second.psi)];
}
