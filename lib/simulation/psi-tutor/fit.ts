/**
 * The fit of the simulated PSI tutors: one stated objective over their calibration targets, minimised by
 * a coordinate search whose every step must also lower the objective on held-out seeds, and confirmed
 * on fresh seeds (lib/simulation/psi-tutor/README.md, "Fit").
 *
 * Targets ([PSI-2026], the `calibrated` numeric claims of data/published/psi-2026.json that a study
 * summary gives): Table I's four PSI means, their spread, ChatGPT's and Gemini's S_SD and their ratio,
 * S_EF; Figure 1's Remember and Analyze means; Tables II–III's defective ΔPSI, ΔKD, ΔTV, ΔSD; Table IV's
 * selected count (and per model), improved count and rate, mean gain; Table V's S_SD before / after and
 * ΔSD, ΔKD, ΔTV, ΔRA, ΔEF: 30 in all. For habits θ and R replicate studies (seeds `<prefix><k>`), a
 * target's expected value m(θ) is the replicate mean and s(θ) the sd; the objective is
 *
 *   J(θ) = Σ_targets z²,   z = (m(θ) − target) / max(s(θ), ½·10^−decimals)
 *
 * the sum of squared standardised deviations of the replicate means, with the sd floored at half a unit
 * of the printed last digit (the same z as notebook 00's fit table, lib/claims/display.ts `fitTable`).
 */
import type { PsiCourse } from '../../psi/schema';
import type { scoreResponse } from '../../psi/score';
import { TUTOR_PROFILE_IDS, type TutorProfile, type TutorProfileId } from './profiles';
import { simulatePsiStudy, summarisePsiStudy, type PsiStudySummary } from './study';

/** The published numbers the targets need (data/published/psi-2026.json, loosely typed: only these fields). */
export interface PsiFitPublished {
  table1: { psi: Record<string, number>; sd: Record<string, number>; spread: number; sd_variation: number; ef_all_models: number };
  figure1: { cross_model_mean: Record<string, number> };
  table2_3: { delta_psi: number; delta: Record<string, number> };
  table4: { selected: number; selected_per_model: Record<string, number>; improved: number; improved_rate: number; mean_gain: number };
  table5: { sd_before: number; sd_after: number; delta: Record<string, number> };
}

interface TargetSpec {
  target: string;
  published: number;
  decimals: number;
  measure: (s: PsiStudySummary) => number;
}

const MODELS = ['ChatGPT', 'Qwen 3', 'Gemma 4', 'Gemini'] as const;

/** The 30 targets, with their published values and printed decimals. */
export function psiFitTargets(p: PsiFitPublished): TargetSpec[] {
  const t: TargetSpec[] = [];
  const add = (target: string, published: number, decimals: number, measure: (s: PsiStudySummary) => number) => t.push({ target, published, decimals, measure });
  for (const m of MODELS) add(`Table I PSI ${m}`, p.table1.psi[m]!, 3, (s) => s.psi[m]!);
  add('Table I PSI spread', p.table1.spread, 3, (s) => Math.max(...MODELS.map((m) => s.psi[m]!)) - Math.min(...MODELS.map((m) => s.psi[m]!)));
  add('Table I S_SD ChatGPT', p.table1.sd.ChatGPT!, 3, (s) => s.sd.ChatGPT!);
  add('Table I S_SD Gemini', p.table1.sd.Gemini!, 3, (s) => s.sd.Gemini!);
  add('S_SD ChatGPT / Gemini', p.table1.sd_variation, 1, (s) => s.sd.ChatGPT! / s.sd.Gemini!);
  add('Table I S_EF', p.table1.ef_all_models, 3, (s) => s.ef);
  add('Figure 1 Remember', p.figure1.cross_model_mean['remember']!, 2, (s) => s.bloom[1]!);
  add('Figure 1 Analyze', p.figure1.cross_model_mean['analyze']!, 2, (s) => s.bloom[4]!);
  add('Table II defective ΔPSI', p.table2_3.delta_psi, 3, (s) => s.defectiveDelta.psi);
  for (const k of ['tv', 'kd', 'sd'] as const) add(`Table III defective Δ${k.toUpperCase()}`, p.table2_3.delta[k]!, 3, (s) => s.defectiveDelta[k]);
  add('Table IV selected', p.table4.selected, 0, (s) => s.selected);
  for (const m of ['ChatGPT', 'Gemini', 'Gemma 4', 'Qwen 3'] as const) add(`Table IV selected ${m}`, p.table4.selected_per_model[m]!, 0, (s) => s.selectedPerModel[m] ?? 0);
  add('Table IV improved', p.table4.improved, 0, (s) => s.improved);
  add('Table IV improved %', p.table4.improved_rate, 1, (s) => 100 * s.improvedRate);
  add('Table IV mean gain', p.table4.mean_gain, 3, (s) => s.meanGain);
  add('Table V S_SD before', p.table5.sd_before, 3, (s) => s.sdBefore);
  add('Table V S_SD after', p.table5.sd_after, 3, (s) => s.sdAfter);
  for (const k of ['sd', 'kd', 'tv', 'ra', 'ef'] as const) add(`Table V Δ${k.toUpperCase()}`, p.table5.delta[k]!, 3, (s) => s.regenerationDelta[k]);
  return t;
}

export interface PsiFitRow {
  target: string;
  published: number;
  decimals: number;
  expected: number;
  sd: number;
  z: number;
}

/**
 * Each target's value in each replicate study: `values[k][t]` is target t (psiFitTargets order) of the
 * study with seed `seeds[k]`. `scoreCache` makes re-runs with few changed texts cheap.
 */
export function psiFitValues(
  course: PsiCourse,
  published: PsiFitPublished,
  habits: Record<TutorProfileId, TutorProfile>,
  seeds: readonly string[],
  scoreCache: Map<string, ReturnType<typeof scoreResponse>> = new Map(),
): number[][] {
  const targets = psiFitTargets(published);
  return seeds.map((seed) => {
    const summary = summarisePsiStudy(course, simulatePsiStudy(course, { seed, habits, scoreCache }));
    return targets.map((t) => t.measure(summary));
  });
}

/** The fit table (replicate mean, sd, z per target) of per-replicate values from psiFitValues. */
export function psiFitRows(published: PsiFitPublished, values: ReadonlyArray<readonly number[]>): PsiFitRow[] {
  return psiFitTargets(published).map((t, i) => {
    const column = values.map((v) => v[i]!);
    const m = column.reduce((a, b) => a + b, 0) / column.length;
    const sd = column.length > 1 ? Math.sqrt(column.reduce((a, b) => a + (b - m) ** 2, 0) / (column.length - 1)) : 0;
    return { target: t.target, published: t.published, decimals: t.decimals, expected: m, sd, z: (m - t.published) / Math.max(sd, 0.5 * 10 ** -t.decimals) };
  });
}

/** The fit table of habits `habits` over replicate seeds `<prefix>1` … `<prefix>R`. `scoreCache` makes re-runs with few changed texts cheap. */
export function psiFitTable(
  course: PsiCourse,
  published: PsiFitPublished,
  habits: Record<TutorProfileId, TutorProfile>,
  replicates: number,
  prefix: string,
  scoreCache: Map<string, ReturnType<typeof scoreResponse>> = new Map(),
): PsiFitRow[] {
  const seeds = Array.from({ length: replicates }, (_, k) => `${prefix}${k + 1}`);
  return psiFitRows(published, psiFitValues(course, published, habits, seeds, scoreCache));
}

/** J = Σ z². */
export function psiObjective(rows: readonly PsiFitRow[]): number {
  return rows.reduce((s, r) => s + r.z ** 2, 0);
}

const clamp01 = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1e4) / 1e4;
type Habits = Record<TutorProfileId, TutorProfile>;

/**
 * The searched coordinates, per profile: a multiplier applied to a group of habit rates (clamped to
 * [0, 1]). Each group is one mechanism of lib/simulation/psi-tutor/README.md.
 */
export const PSI_FIT_COORDINATES: Record<string, (p: TutorProfile, f: number) => TutorProfile> = {
  // scaffolding: steps, hints, checks, analogies → S_SD (Table I), and the weak-case pool
  scaffolding: (p, f) => ({ ...p, habits: { ...p.habits, steps: clamp01(p.habits.steps * f), hint: clamp01(p.habits.hint * f), check: clamp01(p.habits.check * f), analogy: clamp01(p.habits.analogy * f) } }),
  // learner-specific recap and references → S_KD
  recap: (p, f) => ({ ...p, habits: { ...p.habits, recap: clamp01(p.habits.recap * f), learnerReference: clamp01(p.habits.learnerReference * f) } }),
  // target-level vocabulary → S_RA, Figure 1
  bloomMatch: (p, f) => ({ ...p, habits: { ...p.habits, bloomMatch: p.habits.bloomMatch.map((x) => clamp01(x * f)) as unknown as TutorProfile['habits']['bloomMatch'] } }),
  // scaffolding kept under a defective prompt → Table III ΔSD
  defectiveScaffolding: (p, f) => ({ ...p, defective: { ...p.defective, scaffolding: clamp01(p.defective.scaffolding * f) } }),
  // other readings of an ambiguous prompt → Table III ΔTV, ΔKD
  alternatives: (p, f) => ({ ...p, defective: { ...p.defective, alternatives: { ambiguous: clamp01(p.defective.alternatives.ambiguous * f), other: clamp01(p.defective.alternatives.other * f) } } }),
  // explaining concepts in prerequisite order → S_TV, every tutor's PSI level without touching S_SD
  prerequisiteOrder: (p, f) => ({ ...p, habits: { ...p.habits, prerequisiteOrder: clamp01(p.habits.prerequisiteOrder * f) } }),
  // the framing worded as a judgement → S_RA only: the tutor's PSI level without its S_SD. It starts at
  // 0, where a multiplier cannot move it, so the step is additive: f = 1.25 adds 0.25, f = 0.8 takes 0.2 off.
  judgingFraming: (p, f) => ({ ...p, habits: { ...p.habits, judgingFraming: clamp01(p.habits.judgingFraming + (f - 1)) } }),
  // following the scaffolding checklist items → Table V ΔSD, gain
  complianceSd: (p, f) => ({ ...p, regeneration: { ...p.regeneration, compliance: { ...p.regeneration.compliance, sd: clamp01(p.regeneration.compliance.sd * f) } } }),
};

/** Options of `psiFitSearch`. */
export interface PsiFitSearchOptions {
  /** Replicate studies per trial on the search seeds (`<prefix>1` …). */
  replicates: number;
  /** Replicates for the standardising sd s₀ (at least `replicates`). */
  scaleReplicates: number;
  /** Multipliers tried per coordinate (1 = keep). */
  steps: readonly number[];
  /** A step must lower the search objective by more than this. */
  minGain: number;
  /** Search seed prefix (default `fit`). */
  prefix?: string;
  /** Held-out check of every step the search would accept: replicates on seeds `<prefix>1` … (default `hold`); 0 = none. */
  holdout?: { replicates: number; prefix?: string };
  /** Passes over all coordinates (default 1); the search stops early after a pass that accepts nothing. */
  passes?: number;
  log?: (s: string) => void;
}

/**
 * Coarse coordinate search: for each coordinate and profile, tries the multipliers `steps` (1 = keep)
 * and takes the best if it lowers the objective on the search seeds by more than `minGain` (a guard
 * against fitting the search seeds' noise) AND lowers it on the held-out seeds (`holdout`), which the
 * search never chooses by: a step that only fits the search seeds' noise is refused. Deterministic
 * (fixed seeds, fixed order). A replicate sd from few replicates is too noisy to divide by (an sd near
 * 0 makes one z huge), so both objectives are Σ ((m − target) / s₀)² with s₀ each target's sd at the
 * starting habits over `scaleReplicates` search seeds (floored as in J); the result is judged by J
 * itself on fresh seeds by the caller (scripts/fit-psi.ts).
 */
export function psiFitSearch(course: PsiCourse, published: PsiFitPublished, start: Habits, options: PsiFitSearchOptions): Habits {
  const cache = new Map<string, ReturnType<typeof scoreResponse>>();
  const prefix = options.prefix ?? 'fit';
  const scale = psiFitTable(course, published, start, Math.max(options.replicates, options.scaleReplicates), prefix, cache).map((r) => Math.max(r.sd, 0.5 * 10 ** -r.decimals));
  const scaled = (rows: PsiFitRow[]) => rows.reduce((s, r, i) => s + ((r.expected - r.published) / scale[i]!) ** 2, 0);
  const j = (h: Habits) => scaled(psiFitTable(course, published, h, options.replicates, prefix, cache));
  const hold = options.holdout && options.holdout.replicates > 0 ? options.holdout : undefined;
  const jHold = (h: Habits) => (hold ? scaled(psiFitTable(course, published, h, hold.replicates, hold.prefix ?? 'hold', cache)) : 0);
  let best = { habits: start, j: j(start), jHold: jHold(start) };
  options.log?.(`start: J = ${best.j.toFixed(1)} (${options.replicates} replicates)${hold ? `, held-out ${best.jHold.toFixed(1)} (${hold.replicates})` : ''}`);
  for (let pass = 1; pass <= (options.passes ?? 1); pass++) {
    let accepted = 0;
    for (const [name, apply] of Object.entries(PSI_FIT_COORDINATES)) {
      for (const id of TUTOR_PROFILE_IDS) {
        let candidate: { habits: Habits; j: number; f: number } | undefined;
        for (const f of options.steps) {
          if (f === 1) continue;
          const trial = { ...best.habits, [id]: apply(best.habits[id], f) };
          const jt = j(trial);
          if (jt < (candidate?.j ?? best.j - options.minGain)) candidate = { habits: trial, j: jt, f };
        }
        let verdict = 'kept';
        if (candidate) {
          const jh = jHold(candidate.habits);
          if (!hold || jh < best.jHold) {
            best = { habits: candidate.habits, j: candidate.j, jHold: jh };
            accepted++;
            verdict = `×${candidate.f} accepted`;
          } else verdict = `×${candidate.f} refused (held-out ${jh.toFixed(1)} ≥ ${best.jHold.toFixed(1)})`;
        }
        options.log?.(`pass ${pass} ${name} ${id}: ${verdict}; J = ${best.j.toFixed(1)}${hold ? `, held-out ${best.jHold.toFixed(1)}` : ''}`);
      }
      if (cache.size > 200_000) cache.clear();
    }
    if (accepted === 0) break;
  }
  return best.habits;
}
