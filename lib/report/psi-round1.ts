/**
 * Notebook 11 (11-psi-round1): how the round-1 records were scored, Tables I–III and Figure 1 of
 * [PSI-2026] beside the numbers the paper prints, the model ranking, and the spreads its text quotes.
 */
import { InputError } from '../errors';
import { SUBSCORES, type SubscoreName } from '../psi/parameters';
import type { MeanRow, ScoredRecord, ShiftRow } from '../psi/aggregate';
import { NOT_PRINTED, SUBSCORE_SHORT, measureLabel, numericCell, paperCell as paper, type PublishedPsi } from './psi-tables';

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
 * How a set of records was scored (ScorePsiRecordsResult.paths) as table rows, one per path.
 * @example
 * scorePathsTable('round 1', { recorded: 240, rescored: 0, skippedMissing: 0 }).map((r) => r.n); // => [240, 0, 0]
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

/**
 * The spreads the paper's Table I text quotes, computed beside its own: the range of mean PSI over the
 * models, how many times the highest model's S_SD is the lowest's, the distinct S_EF values (three
 * decimals; the paper prints one value for every model) and the lowest S_CL (the paper: at least
 * `cl_min` for every model). Ratios over an empty or all-zero column are NaN or Infinity, as division gives.
 *
 * @example
 * const row = (model: string, psi: number, sd: number) => ({ model, n: 1, psi, kd: 0, tv: 0, sd, ef: 0.3344, cl: 0.99, ra: 0 });
 * const published = { table1: { psi: { A: 0.6, B: 0.5 }, sd: { A: 0.3, B: 0.1 }, ef_all_models: 0.334, cl_min: 0.996 } };
 * const spread = table1Spread([row("a", 0.55, 0.2), row("b", 0.45, 0.05)], published);
 * spread.psi; // => { min: 0.45, max: 0.55, paperMin: 0.5, paperMax: 0.6 }
 * spread.sdRatio; // => { computed: 4, paperHighest: 0.3, paperLowest: 0.1, paper: 2.9999999999999996 }
 * spread.ef; // => { distinct: ["0.334"], paper: 0.334 }
 */
export function table1Spread(rows: readonly ModelRow[], published: { table1: Pick<PublishedPsi['table1'], 'psi' | 'sd' | 'ef_all_models' | 'cl_min'> }) {
  const t = published.table1;
  const psis = rows.map((r) => r.psi);
  const sds = rows.map((r) => r.sd);
  const paperPsi = Object.values(t.psi);
  const paperSd = Object.values(t.sd);
  return {
    psi: { min: Math.min(...psis), max: Math.max(...psis), paperMin: Math.min(...paperPsi), paperMax: Math.max(...paperPsi) },
    sdRatio: {
      computed: Math.max(...sds) / Math.min(...sds),
      paperHighest: Math.max(...paperSd),
      paperLowest: Math.min(...paperSd),
      paper: Math.max(...paperSd) / Math.min(...paperSd),
    },
    ef: { distinct: [...new Set(rows.map((r) => r.ef.toFixed(3)))], paper: t.ef_all_models },
    cl: { min: Math.min(...rows.map((r) => r.cl)), paperMin: t.cl_min },
  };
}
