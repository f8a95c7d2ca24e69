/**
 * Notebook 13 (13-psi-sensitivity-and-ratings): how mean PSI and the model ranking move with δ_opt and
 * with the composite weights, and the raters' agreement with each other and with PSI-judged improvement.
 */
import { InputError } from '../errors';
import type { ScoredRecord } from '../psi/aggregate';
import { percentileLinear } from '../stats/percentile';
import { SUBSCORES, type Subscores } from '../psi/parameters';
import { NOT_PRINTED, SUBSCORE_SHORT, numericCell, paperCell as paper, percentCell, type PublishedPsi } from './psi-tables';

type DeltaResult = Array<{ delta: number; perModel: Array<{ model: string; n: number; psi: number; kd: number }>; ranking: string[] }>;
type WeightResult = Array<{ name: string; perModel: Array<{ model: string; n: number; psi: number }>; ranking: string[] }>;

/**
 * δ_opt grid as a wide table: one row per δ, mean PSI per model, the ranking, and whether it equals the
 * ranking at `baseline` δ (default 0.65, the paper's value). InputError when the baseline is not in the grid.
 */
export function deltaSensitivityTable(result: DeltaResult, options: { baseline?: number; names?: Readonly<Record<string, string>> } = {}) {
  const baseline = options.baseline ?? 0.65;
  const base = result.find((r) => Math.abs(r.delta - baseline) < 1e-12);
  if (!base) throw new InputError(`δ sensitivity: the baseline δ = ${baseline} is not in the grid`, { item: String(baseline) });
  return result.map((r) => {
    const out: Record<string, string | number | boolean | null> = { 'δ_opt': r.delta };
    for (const m of r.perModel) out[m.model] = numericCell(m.psi);
    out['mean S_KD'] = numericCell(r.perModel.reduce((s, m) => s + m.kd * m.n, 0) / r.perModel.reduce((s, m) => s + m.n, 0));
    out.ranking = r.ranking.map((m) => options.names?.[m] ?? m).join(' > ');
    out[`same ranking as δ=${baseline}`] = r.ranking.join('\u0000') === base.ranking.join('\u0000');
    return out;
  });
}

/**
 * Weight grid as a wide table: one row per weight vector (its six weights), mean PSI per model, the
 * ranking and whether it equals the ranking under `baseline` (default 'equal').
 */
export function weightSensitivityTable(
  result: WeightResult,
  vectors: ReadonlyArray<{ name: string; weights: Subscores }>,
  options: { baseline?: string; names?: Readonly<Record<string, string>> } = {},
) {
  const baseline = options.baseline ?? 'equal';
  const base = result.find((r) => r.name === baseline);
  if (!base) throw new InputError(`weight sensitivity: the baseline vector "${baseline}" is not in the grid`, { item: baseline });
  return result.map((r) => {
    const w = vectors.find((v) => v.name === r.name)?.weights;
    const out: Record<string, string | number | boolean | null> = { weights: r.name };
    for (const s of SUBSCORES) out[`w_${SUBSCORE_SHORT[s]}`] = w ? numericCell(w[s]) : null;
    for (const m of r.perModel) out[m.model] = numericCell(m.psi);
    out.ranking = r.ranking.map((m) => options.names?.[m] ?? m).join(' > ');
    out[`same ranking as ${baseline}`] = r.ranking.join('\u0000') === base.ranking.join('\u0000');
    return out;
  });
}

/**
 * Per model, how far its mean PSI moves over a sensitivity grid: min, max, range (max − min), and the
 * best and worst rank it reaches (1 = best). Works for both δ and weight grids.
 */
export function sensitivitySpread(grid: ReadonlyArray<{ perModel: ReadonlyArray<{ model: string; psi: number }>; ranking: readonly string[] }>) {
  const models = [...new Set(grid.flatMap((g) => g.perModel.map((m) => m.model)))].sort();
  return models.map((model) => {
    const values = grid.map((g) => g.perModel.find((m) => m.model === model)?.psi).filter((x): x is number => x !== undefined);
    const ranks = grid.map((g) => g.ranking.indexOf(model) + 1).filter((r) => r > 0);
    const min = Math.min(...values);
    const max = Math.max(...values);
    return { model, 'min PSI': numericCell(min), 'max PSI': numericCell(max), range: numericCell(max - min), 'best rank': Math.min(...ranks), 'worst rank': Math.max(...ranks) };
  });
}

/** Inter-rater κ rows (interRaterAgreement) as table rows; agreement in percent. */
export function interRaterTable(rows: ReadonlyArray<{ criterion: string; raterA: string; raterB: string; n: number; observedAgreement: number; kappa: number }>) {
  return rows.map((r) => ({
    criterion: r.criterion,
    raters: `${r.raterA} – ${r.raterB}`,
    'cases rated by both': r.n,
    'observed agreement %': percentCell(r.observedAgreement),
    "Cohen's κ": numericCell(r.kappa),
    'κ (paper)': NOT_PRINTED,
  }));
}

/**
 * Each rater against PSI-judged improvement (raterAgreementWithPsi), with the paper's rates beside the
 * rater's yes-rate: weaknesses resolved 82.3 %, meaningful improvement 74.2 % (one instructor, 62
 * cases); PSI improved 51 / 62 = 82.3 %. The paper prints no case-by-case agreement or κ.
 */
export function raterVsPsiTable(
  rows: ReadonlyArray<{ rater: string; criterion: string; n: number; humanRate: number; psiRate: number; bothYes: number; humanOnly: number; psiOnly: number; bothNo: number; observedAgreement: number; kappa: number }>,
  published: PublishedPsi,
) {
  const paperRate: Record<string, number> = {
    weaknesses_resolved: published.table6.weaknesses_resolved_rate,
    meaningful_improvement: published.table6.meaningful_improvement_rate,
  };
  return rows.map((r) => ({
    criterion: r.criterion,
    rater: r.rater,
    cases: r.n,
    'rater yes %': r.n === 0 ? null : percentCell(r.humanRate),
    'rater yes % (paper)': paper(paperRate[r.criterion]),
    'PSI improved %': r.n === 0 ? null : percentCell(r.psiRate),
    'PSI improved % (paper)': published.table4.improved_rate,
    'both yes': r.bothYes,
    'rater only': r.humanOnly,
    'PSI only': r.psiOnly,
    'both no': r.bothNo,
    'agreement %': r.n === 0 ? null : percentCell(r.observedAgreement),
    "κ with PSI": numericCell(r.kappa),
    'κ with PSI (paper)': NOT_PRINTED,
  }));
}

/**
 * The measured concept overlap sim(R, K) of the standard-prompt responses, the quantity δ_opt is
 * compared with in S_KD: how many, the median (for an even count the mean of the two middle values,
 * percentileLinear at 0.5), the lowest and the highest. Needs evidence (records re-scored from their
 * text); InputError naming the first run without it, or when there is no standard-prompt record.
 *
 * @example
 * const rec = (run_id: string, overlap: number) => ({ run_id, round: 1, scenario: "S01", variant: "standard", model: "m", psi: 0, subscores: { kd: 0, tv: 0, sd: 0, ef: 0, cl: 0, ra: 0 }, scoreSource: "rescored", evidence: { kd: { overlap } } });
 * standardOverlapSummary([rec("a", 0.2), rec("b", 0.9), rec("c", 0.4), rec("d", 0.6)] as never); // => { n: 4, median: 0.5, min: 0.2, max: 0.9 }
 */
export function standardOverlapSummary(scored: readonly ScoredRecord[]) {
  const standard = scored.filter((r) => r.variant === 'standard');
  if (standard.length === 0) throw new InputError('overlap summary: no standard-prompt record');
  const overlaps = standard
    .map((r) => {
      if (!r.evidence) throw new InputError(`overlap summary: run "${r.run_id}" has no evidence (score the records from their text)`, { item: r.run_id });
      return r.evidence.kd.overlap;
    })
    .sort((a, b) => a - b);
  return { n: overlaps.length, median: percentileLinear(overlaps, 0.5), min: overlaps[0]!, max: overlaps[overlaps.length - 1]! };
}
