/**
 * The PSI paper's tables (002, Tables I–V, Figure 1, the weak-case selection) computed from scored
 * records and set beside the numbers the paper prints in its running text
 * (data/published/psi-2026.json). Where the paper prints no number for a cell the paper column says
 * `not printed` (its table cells were lost in extraction). Numeric cells are at full precision (rates
 * as percent, e.g. 5/6 → 83.33333333333334): the processed CSVs keep every digit, and rounding is for
 * display only — notebooks pass `digits` to `saveTable`, which rounds the HTML table alone. Text cells
 * (formulas with the response's numbers, evidence, rankings) are formatted with three decimals. Pure
 * functions: notebooks render the rows.
 */
import { InputError } from '../errors';
import type { PublishedPsi } from '../records/published-psi';
import { SUBSCORES, validateWeights, type SubscoreName, type Subscores } from '../psi/parameters';
import type { MeanRow, RegenerationSummary, ScoredRecord, ShiftRow } from '../psi/aggregate';
import type { Scenario } from '../psi/schema';
import type { PsiScoring } from '../psi/score';
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
const measureLabel = (m: 'psi' | SubscoreName) => (m === 'psi' ? 'PSI' : SUBSCORE_SHORT[m]);

/**
 * A numeric cell at full precision; a missing or non-finite value (no record at that level, 0/0 rate)
 * becomes null, an empty cell. Example: numericCell(2 / 3) = 0.6666666666666666, numericCell(NaN) = null.
 */
export function numericCell(x: number | null | undefined): number | null {
  return x === null || x === undefined || !Number.isFinite(x) ? null : x;
}
/** A share as a percentage at full precision. Example: 51/62 → 82.25806451612904; NaN → null. */
export function percentCell(x: number | null | undefined): number | null {
  return x === null || x === undefined ? null : numericCell(x * 100);
}
const paper = (x: number | undefined | null): number | string => (x === undefined || x === null ? NOT_PRINTED : x);

/**
 * Which paper model each collected model stands for: simulated tutors (`simulated:sim-tutor-a`) map
 * to the model their profile imitates (lib/simulation/paper-models.ts), a model already named as in the
 * paper maps to itself, and `extra` (e.g. `{ "openai:gpt-4.5": "ChatGPT" }`) wins over both.
 * Models with no counterpart are left out. Example: ['simulated:sim-tutor-b'] → { 'simulated:sim-tutor-b': 'Gemini' }.
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

type ModelRow = { model: string } & MeanRow;

/**
 * Table I: mean PSI and sub-scores per model (standard prompts) beside the paper's PSI per model,
 * S_SD for ChatGPT and Gemini, S_EF (0.334 for every model) and S_CL (≥ 0.996 for every model).
 */
export function table1Comparison(rows: readonly ModelRow[], published: PublishedPsi, mirrors: Readonly<Record<string, string>>) {
  const t = published.table1;
  return rows.map((r) => {
    const pm = mirrors[r.model];
    const paperOf: Record<SubscoreName, number | string> = {
      kd: NOT_PRINTED,
      tv: NOT_PRINTED,
      sd: paper(pm === undefined ? undefined : t.sd[pm]),
      ef: pm === undefined ? NOT_PRINTED : t.ef_all_models,
      cl: pm === undefined ? NOT_PRINTED : `≥ ${t.cl_min}`,
      ra: NOT_PRINTED,
    };
    const out: Record<string, string | number | null> = {
      model: r.model,
      'paper model': pm ?? null,
      n: r.n,
      PSI: numericCell(r.psi),
      'PSI (paper)': paper(pm === undefined ? undefined : t.psi[pm]),
    };
    for (const s of SUBSCORES) {
      out[SUBSCORE_SHORT[s]] = numericCell(r[s]);
      out[`${SUBSCORE_SHORT[s]} (paper)`] = paperOf[s];
    }
    return out;
  });
}

/** Model ranking by mean PSI, best first (ties by name), as "a > b > c". */
export function rankingText(rows: ReadonlyArray<{ model: string; psi: number }>, names: Readonly<Record<string, string>> = {}): string {
  return [...rows]
    .sort((a, b) => b.psi - a.psi || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0))
    .map((r) => names[r.model] ?? r.model)
    .join(' > ');
}

/** The paper's Table I ranking: ChatGPT > Qwen 3 > Gemma 4 > Gemini. */
export function publishedRanking(published: PublishedPsi): string {
  return rankingText(Object.entries(published.table1.psi).map(([model, psi]) => ({ model, psi })));
}

type StandardVsDefective = {
  perModel: Array<{ model: string; nStandard: number; nDefective: number; standard: number; defective: number; delta: number }>;
  overall: { nStandard: number; nDefective: number; standard: number; defective: number; delta: number };
};

/**
 * Table II: PSI under standard and defective prompts per model and over all models, with
 * Δ = defective − standard. The paper's standard column is its Table I PSI (same records); of the
 * defective column and the per-model Δ it prints nothing; overall Δ = −0.002.
 */
export function table2Comparison(result: StandardVsDefective, published: PublishedPsi, mirrors: Readonly<Record<string, string>>) {
  const rows = result.perModel.map((r) => {
    const pm = mirrors[r.model];
    return {
      model: r.model,
      'paper model': pm ?? null,
      'n standard': r.nStandard,
      'n defective': r.nDefective,
      standard: numericCell(r.standard),
      'standard (paper)': paper(pm === undefined ? undefined : published.table1.psi[pm]),
      defective: numericCell(r.defective),
      'defective (paper)': NOT_PRINTED as number | string,
      'Δ': numericCell(r.delta),
      'Δ (paper)': NOT_PRINTED as number | string,
    };
  });
  const o = result.overall;
  rows.push({
    model: 'all models',
    'paper model': 'all models',
    'n standard': o.nStandard,
    'n defective': o.nDefective,
    standard: numericCell(o.standard),
    'standard (paper)': NOT_PRINTED,
    defective: numericCell(o.defective),
    'defective (paper)': NOT_PRINTED,
    'Δ': numericCell(o.delta),
    'Δ (paper)': published.table2_3.delta_psi,
  });
  return rows;
}

/**
 * Table III: mean of each measure under standard and defective prompts (all models) and the shift
 * defective − standard, beside the paper's shifts (PSI −0.002, TV +0.059, KD −0.041, SD −0.043).
 */
export function defectiveShiftsComparison(shifts: readonly ShiftRow[], published: PublishedPsi) {
  return shifts.map((s) => ({
    measure: measureLabel(s.measure),
    standard: numericCell(s.before),
    defective: numericCell(s.after),
    shift: numericCell(s.change),
    'shift (paper)': paper(s.measure === 'psi' ? published.table2_3.delta_psi : published.table2_3.delta[s.measure]),
  }));
}

type BloomRow = { model: string; level: number; levelName: string; n: number; psi: number };
type PooledBloomRow = { level: number; levelName: string; n: number; psi: number };

/**
 * Figure 1 as a table: one row per target Bloom level, mean PSI per model (columns named by model),
 * the mean over all records (pooled), and the paper's cross-model mean (0.60 Remember, 0.56 Analyze).
 */
export function figure1Table(perModel: readonly BloomRow[], pooled: readonly PooledBloomRow[], published: PublishedPsi) {
  const models = [...new Set(perModel.map((r) => r.model))].sort();
  return pooled.map((p) => {
    const out: Record<string, string | number | null> = { level: p.level, 'target Bloom level': p.levelName, n: p.n };
    for (const m of models) out[m] = numericCell(perModel.find((r) => r.model === m && r.level === p.level)?.psi);
    out['all models'] = numericCell(p.psi);
    out['all models (paper)'] = paper(published.figure1.cross_model_mean[p.levelName.toLowerCase()]);
    return out;
  });
}

/**
 * The paper's Figure 1 claim, checked per model: PSI declines with the target Bloom level. For each
 * model (and pooled), the PSI at the lowest and highest level present, the change, and whether the
 * means never rise from one level to the next (`monotone`) — the paper's "declining trend".
 */
export function bloomTrend(perModel: readonly BloomRow[], pooled: readonly PooledBloomRow[]) {
  const trend = (model: string, rows: ReadonlyArray<{ level: number; psi: number }>) => {
    const sorted = [...rows].sort((a, b) => a.level - b.level);
    const first = sorted[0];
    const last = sorted[sorted.length - 1];
    return {
      model,
      levels: sorted.map((r) => r.level).join(','),
      'PSI lowest level': numericCell(first?.psi),
      'PSI highest level': numericCell(last?.psi),
      change: first && last ? numericCell(last.psi - first.psi) : null,
      'declines overall': first && last ? last.psi < first.psi : null,
      'never rises': sorted.every((r, i) => i === 0 || r.psi <= sorted[i - 1]!.psi),
    };
  };
  const models = [...new Set(perModel.map((r) => r.model))].sort();
  return [...models.map((m) => trend(m, perModel.filter((r) => r.model === m))), trend('all models', pooled)];
}

/**
 * The weak-case selection per model beside the paper's 4 / 23 / 22 / 13 (total 62 of 120 defective
 * cases): selected per model (with the cases considered per model when the selection reports them,
 * else null), then a total row with the number of cases considered.
 */
export function selectionComparison(
  selection: {
    perModel: Readonly<Record<string, number>>;
    considered: number;
    selected: readonly unknown[];
    consideredPerModel?: Readonly<Record<string, number>>;
  },
  published: PublishedPsi,
  mirrors: Readonly<Record<string, string>>,
) {
  const rows: Array<Record<string, string | number | null>> = Object.keys(selection.perModel)
    .sort()
    .map((model) => {
      const pm = mirrors[model];
      return {
        model,
        'paper model': pm ?? null,
        selected: selection.perModel[model]!,
        'selected (paper)': paper(pm === undefined ? undefined : published.table4.selected_per_model[pm]),
        considered: selection.consideredPerModel?.[model] ?? null,
      };
    });
  rows.push({
    model: 'total',
    'paper model': 'total',
    selected: selection.selected.length,
    'selected (paper)': published.table4.selected,
    considered: selection.considered,
  });
  return rows;
}

/**
 * Table IV: cases, improved (PSI strictly higher after), rate and mean PSI gain, overall and per
 * model, beside the paper's 62 cases (4 / 23 / 22 / 13), 51 improved = 82.3 %, mean gain +0.049.
 */
export function table4Comparison(
  results: { overall: RegenerationSummary; perModel: Array<{ model: string } & RegenerationSummary> },
  published: PublishedPsi,
  mirrors: Readonly<Record<string, string>>,
) {
  const t = published.table4;
  const row = (model: string, pm: string | null, s: RegenerationSummary, overall: boolean) => ({
    model,
    'paper model': pm,
    cases: s.cases,
    'cases (paper)': paper(overall ? t.selected : pm === null ? undefined : t.selected_per_model[pm]),
    improved: s.improved,
    'improved (paper)': paper(overall ? t.improved : undefined),
    'rate %': s.cases === 0 ? null : percentCell(s.rate),
    'rate % (paper)': paper(overall ? t.improved_rate : undefined),
    'mean gain': numericCell(s.meanGain),
    'mean gain (paper)': paper(overall ? t.mean_gain : undefined),
  });
  return [
    row('all models', 'all models', results.overall, true),
    ...results.perModel.map((r) => row(r.model, mirrors[r.model] ?? null, r, false)),
  ];
}

/**
 * Table V: mean PSI and sub-scores of the regenerated cases before and after regeneration, beside the
 * paper's S_SD 0.073 → 0.345 (+0.272) and changes KD +0.039, TV −0.034, RA −0.055, EF 0. The PSI row's
 * paper change is the mean gain +0.049 of Table IV: mean(after) − mean(before) over the same cases is
 * the mean of the per-case gains.
 */
export function table5Comparison(shifts: readonly ShiftRow[], published: PublishedPsi) {
  const t = published.table5;
  return shifts.map((s) => ({
    measure: measureLabel(s.measure),
    before: numericCell(s.before),
    'before (paper)': paper(s.measure === 'sd' ? t.sd_before : undefined),
    after: numericCell(s.after),
    'after (paper)': paper(s.measure === 'sd' ? t.sd_after : undefined),
    change: numericCell(s.change),
    'change (paper)': paper(s.measure === 'psi' ? published.table4.mean_gain : t.delta[s.measure]),
  }));
}

/**
 * How a set of records was scored (ScorePsiRecordsResult.paths) as table rows. Example:
 * { recorded: 240, rescored: 0, skippedMissing: 0 } → three rows.
 */
export function scorePathsTable(label: string, paths: { recorded: number; rescored: number; skippedMissing: number }) {
  return [
    { records: label, path: 'recorded scores kept', n: paths.recorded },
    { records: label, path: 're-scored from text', n: paths.rescored },
    { records: label, path: 'skipped (status missing)', n: paths.skippedMissing },
  ];
}

/**
 * Compares two scorings of the same records (matched by run_id), e.g. the recorded scores against a
 * re-scoring from the text: number matched, the largest absolute difference of PSI and of any
 * sub-score, and the run with the largest PSI difference. InputError when a run is in one list only.
 */
export function compareScorings(a: readonly ScoredRecord[], b: readonly ScoredRecord[]) {
  const byId = new Map(b.map((r) => [r.run_id, r]));
  if (a.length !== b.length) throw new InputError(`compareScorings: ${a.length} vs ${b.length} records`);
  let maxPsi = 0;
  let maxSub = 0;
  let worst: string | null = null;
  for (const r of a) {
    const o = byId.get(r.run_id);
    if (!o) throw new InputError(`compareScorings: run "${r.run_id}" is in the first list only`, { item: r.run_id });
    const d = Math.abs(r.psi - o.psi);
    if (d > maxPsi) {
      maxPsi = d;
      worst = r.run_id;
    }
    for (const s of SUBSCORES) maxSub = Math.max(maxSub, Math.abs(r.subscores[s] - o.subscores[s]));
  }
  return { matched: a.length, maxPsiDifference: maxPsi, maxSubscoreDifference: maxSub, largestPsiDifferenceRun: worst };
}

// ---------------------------------------------------------------------------------------------------
// Sensitivity (notebook 13)

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

// ---------------------------------------------------------------------------------------------------
// One response explained (notebook 10)

const f3 = (x: number) => x.toFixed(3);
const list = (xs: readonly string[], empty = '(none)') => (xs.length === 0 ? empty : xs.join(', '));

/**
 * One row per sub-score (and the composite) explaining a scoring: the formula with this response's
 * numbers filled in and the evidence behind them (concepts found, out-of-order pairs, scaffold
 * indicators, memory terms, extraneous markers, Bloom level scores), so a reader sees why the response
 * scored as it did. `weights` are the composite weights used (default equal).
 */
export function explainScoring(scoring: PsiScoring, scenario: Scenario, weights?: Subscores) {
  const e = scoring.evidence;
  const s = scoring.subscores;
  const kdFormula =
    e.kd.conceptsFound.length === 0
      ? `no concept found → sim = 0; 1 − |0 − ${e.kd.deltaOpt}| = ${f3(s.kd)}`
      : `sim = ${e.kd.measure === 'known-share' ? `${e.kd.known.length}/${e.kd.conceptsFound.length}` : 'jaccard'} = ${f3(e.kd.overlap)}; 1 − |${f3(e.kd.overlap)} − ${e.kd.deltaOpt}| = ${f3(s.kd)}`;
  const byCategory = new Map<string, string[]>();
  for (const ind of e.sd.indicators) {
    const l = byCategory.get(ind.category) ?? [];
    l.push(`${ind.id} “${ind.match.replace(/\s+/g, ' ').slice(0, 40)}”`);
    byCategory.set(ind.category, l);
  }
  const sdRaw = e.sd.propositions === 0 ? 0 : (e.sd.scaffolds / e.sd.propositions) * e.sd.alpha;
  const markers = e.cl.markers.map((m) => `${m.category} “${m.match}”`);
  const w = weights ?? { kd: 1 / 6, tv: 1 / 6, sd: 1 / 6, ef: 1 / 6, cl: 1 / 6, ra: 1 / 6 };
  const equal = SUBSCORES.every((n) => Math.abs(w[n] - 1 / 6) < 1e-12);
  return [
    {
      'sub-score': 'KD knowledge distance',
      score: numericCell(s.kd),
      formula: kdFormula,
      evidence: `found: ${list(e.kd.conceptsFound)} | known to learner: ${list(e.kd.known)} | new to learner: ${list(e.kd.unknown)}`,
    },
    {
      'sub-score': 'TV temporal violation',
      score: numericCell(s.tv),
      formula: e.tv.checks === 0 ? 'no prerequisite pair with both concepts mentioned → 1' : `1 − ${e.tv.violations.length}/${e.tv.checks} = ${f3(s.tv)}`,
      evidence: `checks: ${e.tv.checks} | out of order (prerequisite after dependent): ${list(e.tv.violations.map(([p, q]) => `${q} before ${p}`))}`,
    },
    {
      'sub-score': 'SD scaffolding density',
      score: numericCell(s.sd),
      formula: `min(1, ${e.sd.scaffolds}/${e.sd.propositions} · α ${f3(e.sd.alpha)}) = min(1, ${f3(sdRaw)}) = ${f3(s.sd)}`,
      evidence:
        `${[...byCategory].map(([c, l]) => `${c}: ${l.join('; ')}`).join(' | ') || 'no indicator matched'}` +
        ` | α refs ${e.sd.adaptation.references}: phrases ${list(e.sd.adaptation.phrases.map((p) => `“${p}”`))}, known concept ${e.sd.adaptation.knownConcepts.length > 0 ? 'yes' : 'no'}, objective concept ${e.sd.adaptation.objectiveConcepts.length > 0 ? 'yes' : 'no'}`,
    },
    {
      'sub-score': 'EF Ebbinghaus forgetting',
      score: numericCell(s.ef),
      formula: `Σ λ·e^(−t/S) over ${e.ef.mode === 'scenario' ? "the scenario's memory" : 'mentioned memory concepts'}${e.ef.fallback ? ' (fallback: none mentioned)' : ''} = ${f3(s.ef)}`,
      evidence: e.ef.terms.map((t) => `${t.concept}: ${f3(t.weight)} × ${f3(t.retention)}`).join(' | '),
    },
    {
      'sub-score': 'CL cognitive load',
      score: numericCell(s.cl),
      formula: e.cl.propositions === 0 ? 'empty response → 1' : `1 − ${e.cl.extraneous}/${e.cl.propositions} = ${f3(s.cl)}`,
      evidence: `extraneous markers: ${list(markers)}`,
    },
    {
      'sub-score': "RA Bloom's alignment",
      score: numericCell(s.ra),
      formula: `1 − |${e.ra.detected} − ${e.ra.target}|/5 = ${f3(s.ra)}`,
      evidence:
        `detected ${e.ra.detectedName} (${e.ra.detected})${e.ra.defaulted ? ' by default: no cue' : ''}, target ${e.ra.targetName} (${scenario.target_bloom})` +
        ` | level scores R/U/Ap/An/E/C: ${e.ra.levelScores.join('/')} | executable Python blocks: ${e.ra.pythonBlocks}`,
    },
    {
      'sub-score': 'PSI composite',
      score: numericCell(scoring.psi),
      formula: equal ? `(${SUBSCORES.map((n) => f3(s[n])).join(' + ')}) / 6 = ${f3(scoring.psi)}` : `Σ w·S = ${f3(scoring.psi)}`,
      evidence: `weights: ${SUBSCORES.map((n) => `${SUBSCORE_SHORT[n]} ${f3(w[n])}`).join(', ')}`,
    },
  ];
}

/**
 * The concepts found in a response, in order of first mention, with the keyword that matched, how
 * often, and whether the learner knows it, it is a learning objective, or it is new to the learner.
 */
export function conceptTable(scoring: PsiScoring, scenario: Scenario) {
  const known = new Set(scenario.learner.known_concepts);
  const objective = new Set(scenario.objective_concepts);
  return [...scoring.evidence.mentions]
    .sort((a, b) => a.first - b.first)
    .map((m) => ({
      concept: m.id,
      'first at (char)': m.first,
      mentions: m.count,
      keyword: m.keyword,
      'known to learner': known.has(m.id),
      objective: objective.has(m.id),
    }));
}

// ---------------------------------------------------------------------------------------------------
// Notebook glue that deserves a test

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
 * One plain sentence saying whether the records are simulated (their `simulated` flag), for the top of
 * every notebook and next to every table made from them.
 * Example: 240 records all simulated → "**SIMULATED DATA.** All 240 records of round1.jsonl …".
 */
export function simulatedBanner(records: ReadonlyArray<{ simulated: boolean }>, label: string): string {
  const n = records.length;
  const sim = records.filter((r) => r.simulated).length;
  if (n === 0) return `${label}: no records.`;
  if (n === 1) {
    return sim === 1
      ? `**SIMULATED DATA.** ${label} carries \`simulated: true\`: it was written by this project's simulated tutors, not by a real LLM tutor.`
      : `${label} is a collected response (\`simulated: false\`).`;
  }
  if (sim === n) {
    return `**SIMULATED DATA.** All ${n} records of ${label} carry \`simulated: true\`: they were written by this project's simulated tutors, not by real LLM tutors. Every number and figure made from them describes the simulation, not the models of the paper.`;
  }
  if (sim === 0) return `All ${n} records of ${label} are collected responses (\`simulated: false\`).`;
  return `**PARTLY SIMULATED DATA.** ${sim} of ${n} records of ${label} carry \`simulated: true\` (written by simulated tutors); the other ${n - sim} are collected responses. Tables mix both.`;
}

/** True when any record is simulated (the `simulated` flag figures need). */
export const anySimulated = (records: ReadonlyArray<{ simulated: boolean }>) => records.some((r) => r.simulated);

/**
 * Splits a regeneration prompt's user message (lib/psi/regeneration.ts) into its five parts at the
 * "## (a)" … "## (e)" headings. InputError when a part is missing or out of order.
 */
export function promptParts(user: string): Array<{ part: 'a' | 'b' | 'c' | 'd' | 'e'; heading: string; text: string }> {
  const heads = [...user.matchAll(/^## \(([a-e])\) (.*)$/gm)];
  const letters = heads.map((h) => h[1]).join('');
  if (letters !== 'abcde') throw new InputError(`regeneration prompt: expected parts (a)–(e) in order, found "${letters}"`);
  return heads.map((h, i) => {
    const start = h.index! + h[0].length;
    const end = i + 1 < heads.length ? heads[i + 1]!.index! : user.length;
    return { part: h[1] as 'a' | 'b' | 'c' | 'd' | 'e', heading: h[2]!.trim(), text: user.slice(start, end).trim() };
  });
}

/**
 * Compares a weak-case selection with the cases actually regenerated (round-2 records' parents):
 * how many of each, how many in both, and the run_ids found in only one of them (sorted).
 */
export function selectionVsRegenerated(selectedRunIds: readonly string[], round2: ReadonlyArray<{ parent_run_id?: string }>) {
  const selected = new Set(selectedRunIds);
  const regenerated = new Set(round2.map((r) => r.parent_run_id).filter((x): x is string => x !== undefined));
  return {
    selected: selected.size,
    regenerated: regenerated.size,
    both: [...selected].filter((id) => regenerated.has(id)).length,
    selectedOnly: [...selected].filter((id) => !regenerated.has(id)).sort(),
    regeneratedOnly: [...regenerated].filter((id) => !selected.has(id)).sort(),
  };
}

// ---------------------------------------------------------------------------------------------------
// Ratings (notebook 13)

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
