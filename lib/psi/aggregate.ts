import { InputError } from '../errors';
import { mean } from '../stats/mean';
import { composite, resolvePsiParameters, SUBSCORES, type PsiParameters, type SubscoreName, type Subscores } from './parameters';
import { BLOOM_LEVELS, getScenario, type PsiCourse, type PsiRecord, type Variant } from './schema';
import { scoreResponse, type PsiEvidence } from './score';

/** A record with its PSI scores and where they came from. */
export interface ScoredRecord {
  run_id: string;
  round: 1 | 2;
  scenario: string;
  variant: Variant;
  model: string;
  parent_run_id?: string;
  psi: number;
  subscores: Subscores;
  /** 'recorded' = taken from the record's `scores`; 'rescored' = computed from `text` here. */
  scoreSource: 'recorded' | 'rescored';
  /** Present for re-scored records only. */
  evidence?: PsiEvidence;
}

export interface ScorePsiRecordsResult {
  scored: ScoredRecord[];
  /** How many records took each path; `missing` records (status 'missing') are skipped. */
  paths: { recorded: number; rescored: number; skippedMissing: number };
}

/**
 * Scores PSI response records. With `rescore: 'auto'` (default) a record carrying `scores` keeps them
 * (the authors' data would carry the scores their pipeline computed) and a record with only `text` is
 * scored with scoreResponse; `rescore: 'always'` re-scores every record from its text (needed for
 * evidence-based analyses such as deltaSensitivity). Records with status 'missing' are skipped and
 * counted. Input order is preserved.
 */
export function scorePsiRecords(
  records: readonly PsiRecord[],
  course: PsiCourse,
  params: Partial<PsiParameters> = {},
  options: { rescore?: 'auto' | 'always' } = {},
): ScorePsiRecordsResult {
  const p = resolvePsiParameters(params);
  const paths = { recorded: 0, rescored: 0, skippedMissing: 0 };
  const scored: ScoredRecord[] = [];
  for (const r of records) {
    // `missing` (no answer) and `invalid` (cut off, refused, filtered, unreadable: never scored) alike.
    if (r.status !== 'valid') {
      paths.skippedMissing++;
      continue;
    }
    const base = {
      run_id: r.run_id,
      round: r.round,
      scenario: r.scenario,
      variant: r.variant,
      model: r.model,
      ...(r.parent_run_id !== undefined ? { parent_run_id: r.parent_run_id } : {}),
    };
    if (r.scores && options.rescore !== 'always') {
      const { psi, ...subscores } = r.scores;
      scored.push({ ...base, psi, subscores, scoreSource: 'recorded' });
      paths.recorded++;
    } else {
      const s = scoreResponse(r.text, getScenario(course, r.scenario), course, p);
      scored.push({ ...base, psi: s.psi, subscores: s.subscores, evidence: s.evidence, scoreSource: 'rescored' });
      paths.rescored++;
    }
  }
  return { scored, paths };
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Mean PSI and sub-scores of a group. */
export interface MeanRow extends Subscores {
  n: number;
  psi: number;
}

function meanRow(rows: readonly ScoredRecord[]): MeanRow {
  const out = { n: rows.length, psi: mean(rows.map((r) => r.psi)) } as MeanRow;
  for (const name of SUBSCORES) out[name] = mean(rows.map((r) => r.subscores[name]));
  return out;
}

function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return new Map([...m.entries()].sort(([a], [b]) => byName(a, b)));
}

/**
 * Table I: mean PSI and sub-scores per model (models sorted by name), over round-1 records of
 * `variant` (default 'standard').
 */
export function meanSubscoresByModel(
  scored: readonly ScoredRecord[],
  options: { variant?: Variant; round?: 1 | 2 } = {},
): Array<{ model: string } & MeanRow> {
  const variant = options.variant ?? 'standard';
  const round = options.round ?? 1;
  const rows = scored.filter((r) => r.variant === variant && r.round === round);
  return [...groupBy(rows, (r) => r.model)].map(([model, group]) => ({ model, ...meanRow(group) }));
}

/**
 * Table II: mean PSI per model under standard and defective prompts (round 1), with
 * delta = defective − standard, plus the same over all models.
 */
export function standardVsDefective(scored: readonly ScoredRecord[]): {
  perModel: Array<{ model: string; nStandard: number; nDefective: number; standard: number; defective: number; delta: number }>;
  overall: { nStandard: number; nDefective: number; standard: number; defective: number; delta: number };
} {
  const r1 = scored.filter((r) => r.round === 1);
  const summarise = (rows: readonly ScoredRecord[]) => {
    const st = rows.filter((r) => r.variant === 'standard').map((r) => r.psi);
    const de = rows.filter((r) => r.variant === 'defective').map((r) => r.psi);
    return { nStandard: st.length, nDefective: de.length, standard: mean(st), defective: mean(de), delta: mean(de) - mean(st) };
  };
  return {
    perModel: [...groupBy(r1, (r) => r.model)].map(([model, rows]) => ({ model, ...summarise(rows) })),
    overall: summarise(r1),
  };
}

/** One measure (PSI or a sub-score) before and after something, with the change after − before. */
export interface ShiftRow {
  measure: 'psi' | SubscoreName;
  before: number;
  after: number;
  change: number;
}

function shifts(before: readonly ScoredRecord[], after: readonly ScoredRecord[]): ShiftRow[] {
  const b = meanRow(before);
  const a = meanRow(after);
  return (['psi', ...SUBSCORES] as const).map((measure) => ({
    measure,
    before: b[measure],
    after: a[measure],
    change: a[measure] - b[measure],
  }));
}

/**
 * Table III: the sub-score impact of defective prompts over all models (round 1): per measure the
 * standard mean (`before`), the defective mean (`after`) and the shift defective − standard.
 */
export function defectiveShifts(scored: readonly ScoredRecord[]): ShiftRow[] {
  const r1 = scored.filter((r) => r.round === 1);
  return shifts(
    r1.filter((r) => r.variant === 'standard'),
    r1.filter((r) => r.variant === 'defective'),
  );
}

/**
 * Figure 1: mean PSI by the scenario's target Bloom level, per model and pooled over models
 * (round 1, `variant` default 'standard'). Levels without records are omitted.
 */
export function psiByBloomLevel(
  scored: readonly ScoredRecord[],
  course: PsiCourse,
  options: { variant?: Variant } = {},
): {
  perModel: Array<{ model: string; level: number; levelName: string; n: number; psi: number }>;
  pooled: Array<{ level: number; levelName: string; n: number; psi: number }>;
} {
  const variant = options.variant ?? 'standard';
  const rows = scored
    .filter((r) => r.round === 1 && r.variant === variant)
    .map((r) => ({ r, level: getScenario(course, r.scenario).target_bloom }));
  const perModel: Array<{ model: string; level: number; levelName: string; n: number; psi: number }> = [];
  for (const [model, group] of groupBy(rows, (x) => x.r.model)) {
    for (let level = 1; level <= 6; level++) {
      const at = group.filter((x) => x.level === level);
      if (at.length > 0) perModel.push({ model, level, levelName: BLOOM_LEVELS[level - 1]!, n: at.length, psi: mean(at.map((x) => x.r.psi)) });
    }
  }
  const pooled: Array<{ level: number; levelName: string; n: number; psi: number }> = [];
  for (let level = 1; level <= 6; level++) {
    const at = rows.filter((x) => x.level === level);
    if (at.length > 0) pooled.push({ level, levelName: BLOOM_LEVELS[level - 1]!, n: at.length, psi: mean(at.map((x) => x.r.psi)) });
  }
  return { perModel, pooled };
}

/** A round-2 regeneration paired with the round-1 case it regenerates. */
export interface RegenerationPair {
  model: string;
  scenario: string;
  before: ScoredRecord;
  after: ScoredRecord;
  /** after.psi − before.psi. */
  gain: number;
}

/**
 * Pairs each scored round-2 record with its round-1 parent (parent_run_id). InputError when a parent
 * is unknown, or when a round-1 case is regenerated twice.
 */
export function pairRegenerations(round1: readonly ScoredRecord[], round2: readonly ScoredRecord[]): RegenerationPair[] {
  const parents = new Map(round1.map((r) => [r.run_id, r]));
  const used = new Set<string>();
  return round2.map((after) => {
    const parent = after.parent_run_id === undefined ? undefined : parents.get(after.parent_run_id);
    if (!parent) {
      throw new InputError(`round-2 run "${after.run_id}" names unknown round-1 parent "${String(after.parent_run_id)}"`, {
        item: after.run_id,
      });
    }
    if (used.has(parent.run_id)) {
      throw new InputError(`round-1 run "${parent.run_id}" is regenerated more than once (again by "${after.run_id}")`, {
        item: after.run_id,
      });
    }
    used.add(parent.run_id);
    return { model: parent.model, scenario: parent.scenario, before: parent, after, gain: after.psi - parent.psi };
  });
}

export interface RegenerationSummary {
  cases: number;
  /** Cases with after.psi > before.psi (strictly). */
  improved: number;
  /** improved / cases. */
  rate: number;
  meanGain: number;
}

/** Table IV: cases, improved, improvement rate and mean PSI gain, overall and per model. */
export function regenerationResults(pairs: readonly RegenerationPair[]): {
  overall: RegenerationSummary;
  perModel: Array<{ model: string } & RegenerationSummary>;
} {
  const summarise = (ps: readonly RegenerationPair[]): RegenerationSummary => {
    const improved = ps.filter((p) => p.after.psi > p.before.psi).length;
    return { cases: ps.length, improved, rate: ps.length === 0 ? NaN : improved / ps.length, meanGain: mean(ps.map((p) => p.gain)) };
  };
  return {
    overall: summarise(pairs),
    perModel: [...groupBy(pairs, (p) => p.model)].map(([model, ps]) => ({ model, ...summarise(ps) })),
  };
}

/** Table V: mean PSI and sub-scores of the regenerated cases before and after, with the change. */
export function regenerationSubscoreChanges(pairs: readonly RegenerationPair[]): ShiftRow[] {
  return shifts(
    pairs.map((p) => p.before),
    pairs.map((p) => p.after),
  );
}

/**
 * Sensitivity to δ_opt: for each δ, mean PSI per model (round 1, `variant`) with S_KD recomputed as
 * 1 − |overlap − δ| from each record's evidence and PSI = Σ w_i S_i. Needs evidence (score records with
 * `rescore: 'always'`); InputError names the first record without it. Also returns the model ranking
 * (best first) per δ so rank changes are visible.
 */
export function deltaSensitivity(
  scored: readonly ScoredRecord[],
  deltas: readonly number[],
  options: { weights?: Subscores; variant?: Variant } = {},
): Array<{ delta: number; perModel: Array<{ model: string; n: number; psi: number; kd: number }>; ranking: string[] }> {
  const weights = resolvePsiParameters(options.weights ? { weights: options.weights } : {}).weights;
  const variant = options.variant ?? 'standard';
  const rows = scored.filter((r) => r.round === 1 && r.variant === variant);
  for (const r of rows) {
    if (!r.evidence) {
      throw new InputError(`δ sensitivity needs evidence, but run "${r.run_id}" has recorded scores only; score with rescore: 'always'`, {
        item: r.run_id,
      });
    }
  }
  return deltas.map((delta) => {
    resolvePsiParameters({ deltaOpt: delta });
    const perModel = [...groupBy(rows, (r) => r.model)].map(([model, group]) => {
      const kds = group.map((r) => 1 - Math.abs(r.evidence!.kd.overlap - delta));
      const psis = group.map((r, i) => composite({ ...r.subscores, kd: kds[i]! }, weights));
      return { model, n: group.length, psi: mean(psis), kd: mean(kds) };
    });
    return { delta, perModel, ranking: rank(perModel) };
  });
}

function rank(rows: ReadonlyArray<{ model: string; psi: number }>): string[] {
  return [...rows].sort((a, b) => b.psi - a.psi || byName(a.model, b.model)).map((r) => r.model);
}

/**
 * Sensitivity to the composite weights: for each named weight vector (validated: non-negative, sum 1),
 * mean PSI per model recomputed from the sub-scores (round 1, `variant`), and the model ranking.
 */
export function weightSensitivity(
  scored: readonly ScoredRecord[],
  vectors: ReadonlyArray<{ name: string; weights: Subscores }>,
  options: { variant?: Variant } = {},
): Array<{ name: string; perModel: Array<{ model: string; n: number; psi: number }>; ranking: string[] }> {
  const variant = options.variant ?? 'standard';
  const rows = scored.filter((r) => r.round === 1 && r.variant === variant);
  return vectors.map(({ name, weights }) => {
    const w = resolvePsiParameters({ weights }).weights;
    const perModel = [...groupBy(rows, (r) => r.model)].map(([model, group]) => ({
      model,
      n: group.length,
      psi: mean(group.map((r) => composite(r.subscores, w))),
    }));
    return { name, perModel, ranking: rank(perModel) };
  });
}

/**
 * A standard grid of weight vectors for weightSensitivity: equal weights, then for each sub-score the
 * vector that drops it (weight 0, the other five 1/5), then the four "discriminative" sub-scores only
 * (KD, TV, SD, RA at 1/4 each; EF and CL have little spread in the paper).
 */
export function leaveOneOutWeights(): Array<{ name: string; weights: Subscores }> {
  const vec = (f: (n: SubscoreName) => number) => Object.fromEntries(SUBSCORES.map((n) => [n, f(n)])) as Subscores;
  return [
    { name: 'equal', weights: vec(() => 1 / 6) },
    ...SUBSCORES.map((drop) => ({ name: `without-${drop}`, weights: vec((n) => (n === drop ? 0 : 1 / 5)) })),
    { name: 'kd-tv-sd-ra', weights: vec((n) => (n === 'ef' || n === 'cl' ? 0 : 1 / 4)) },
  ];
}
