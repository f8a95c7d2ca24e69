/**
 * The PSI study run in memory with the simulated tutors, for calibrating their habits
 * (lib/simulation/psi-tutor/calibrate.ts) and for tests. It follows the same steps as `kstbench psi collect`
 * (lib/collect/psi-study.ts) without the collector engine: round 1 = every scenario × {standard,
 * defective} × tutor, scored with lib/psi; round 2 = the weak defective cases chosen by
 * `selectWeakCases`, each revised under the checklist of `buildRegenerationPrompt`, and re-scored.
 * Run IDs, seeds and tie-breaking are those of the collector, so the numbers here are the numbers of
 * the shipped corpus for the same seed (checked by test/simulation/psi-tutor/provider.test.ts).
 *
 * Pure and deterministic: all randomness is inside simulateTutorResponse (seeded).
 */
import { pairRegenerations, regenerationResults, regenerationSubscoreChanges, type ScoredRecord } from '../../psi/aggregate';
import { SUBSCORES, type Subscores } from '../../psi/parameters';
import { buildRegenerationPrompt } from '../../psi/regeneration';
import type { PsiCourse, Scenario, Variant } from '../../psi/schema';
import { scoreResponse } from '../../psi/score';
import { selectWeakCases } from '../../psi/selection';
import { mean } from '../../stats/mean';
import { simulateTutorResponse } from './provider';
import { paperModelStoodInFor } from '../paper-models';
import { TUTOR_PROFILE_IDS, type TutorProfile, type TutorProfileId } from './profiles';

/** A scored simulated record (round 1 or 2) with the text the tutor wrote. */
export interface SimulatedScoredRecord extends ScoredRecord {
  text: string;
}

/** Model spec of a profile as the collector names it: `simulated:sim-tutor-a`. */
export function simulatedModelSpec(profile: TutorProfileId): string {
  return `simulated:${profile}`;
}

/** Same run ID as lib/collect/psi-study.ts `psiRunId` (kept in step by a test). */
function runId(round: 1 | 2, scenario: string, variant: Variant, spec: string): string {
  return `psi-r${round}-${scenario}-${variant}-${spec.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}

function scored(
  round: 1 | 2,
  scenario: Scenario,
  variant: Variant,
  spec: string,
  text: string,
  course: PsiCourse,
  parent?: string,
  cache?: Map<string, ReturnType<typeof scoreResponse>>,
): SimulatedScoredRecord {
  // The fit (fit.ts) re-runs studies where most texts are unchanged; scoring is the cost, so it caches by text.
  const key = `${scenario.id}\u0000${text}`;
  let s = cache?.get(key);
  if (s === undefined) {
    s = scoreResponse(text, scenario, course);
    cache?.set(key, s);
  }
  return {
    run_id: runId(round, scenario.id, variant, spec),
    round,
    scenario: scenario.id,
    variant,
    model: spec,
    ...(parent !== undefined ? { parent_run_id: parent } : {}),
    psi: s.psi,
    subscores: s.subscores,
    evidence: s.evidence,
    scoreSource: 'rescored',
    text,
  };
}

/**
 * Runs both rounds of the simulated PSI study. `threshold` as in `selectWeakCases` (default 0.59).
 * `simulatePsiStudy(course, { seed: '1' }).round2.length` is the number of regenerated cases.
 */
export function simulatePsiStudy(
  course: PsiCourse,
  options: {
    seed?: string;
    threshold?: number;
    profiles?: readonly TutorProfileId[];
    /** Habits to use instead of TUTOR_PROFILES (the fit tries parameter values this way). */
    habits?: Partial<Record<TutorProfileId, TutorProfile>>;
    /** Scores by scenario and text, shared across studies (the fit's cache; scoring is pure). */
    scoreCache?: Map<string, ReturnType<typeof scoreResponse>>;
  } = {},
): { round1: SimulatedScoredRecord[]; round2: SimulatedScoredRecord[] } {
  const seed = options.seed ?? '1';
  const profiles = options.profiles ?? TUTOR_PROFILE_IDS;
  const habitsOf = (id: string) => options.habits?.[id as TutorProfileId];
  const cache = options.scoreCache;
  const round1: SimulatedScoredRecord[] = [];
  for (const scenario of course.scenarios) {
    for (const variant of ['standard', 'defective'] as const) {
      for (const profile of profiles) {
        const text = simulateTutorResponse(profile, { course, scenario, variant, round: 1, seed }, habitsOf(profile));
        round1.push(scored(1, scenario, variant, simulatedModelSpec(profile), text, course, undefined, cache));
      }
    }
  }
  const selection = selectWeakCases(round1, options.threshold === undefined ? {} : { threshold: options.threshold });
  const round2 = selection.selected.map((c) => {
    const scenario = course.scenarioById.get(c.scenario)!;
    const prompt = buildRegenerationPrompt(course, scenario, c.variant, c.text, { psi: c.psi, subscores: c.subscores, evidence: c.evidence });
    const profile = c.model.replace(/^simulated:/, '');
    const text = simulateTutorResponse(profile, { course, scenario, variant: c.variant, round: 2, checklist: prompt.checklist, seed }, habitsOf(profile));
    return scored(2, scenario, c.variant, c.model, text, course, c.run_id, cache);
  });
  return { round1, round2 };
}


/** The study's headline numbers, keyed like data/published/psi-2026.json (models by the paper's names). */
export interface PsiStudySummary {
  /** Table I: mean PSI (standard prompts) per mirrored paper model. */
  psi: Record<string, number>;
  /** Table I: mean S_SD (standard) per mirrored paper model. */
  sd: Record<string, number>;
  /** Table I: lowest per-model mean S_CL, and mean S_EF over all standard records. */
  clMin: number;
  ef: number;
  /** Tables II–III: defective − standard over all round-1 records (PSI and every sub-score). */
  defectiveDelta: Record<'psi' | keyof Subscores, number>;
  /** Figure 1: mean PSI (standard, pooled over models) per target Bloom level (1-based). */
  bloom: Record<number, number>;
  /** Table IV. */
  selected: number;
  selectedPerModel: Record<string, number>;
  improved: number;
  improvedRate: number;
  meanGain: number;
  /** Table V: S_SD before / after, and after − before for PSI and every sub-score. */
  sdBefore: number;
  sdAfter: number;
  regenerationDelta: Record<'psi' | keyof Subscores, number>;
}

/** Summarises a simulated study in the paper's terms. */
export function summarisePsiStudy(course: PsiCourse, study: { round1: readonly ScoredRecord[]; round2: readonly ScoredRecord[] }): PsiStudySummary {
  const paperName = (spec: string) => {
    const standIn = paperModelStoodInFor(spec);
    return standIn?.study === 'psi' ? standIn.paperModel : spec;
  };
  const standard = study.round1.filter((r) => r.variant === 'standard');
  const defective = study.round1.filter((r) => r.variant === 'defective');
  const models = [...new Set(study.round1.map((r) => r.model))];
  const psi: Record<string, number> = {};
  const sd: Record<string, number> = {};
  const cl: number[] = [];
  for (const m of models) {
    const rows = standard.filter((r) => r.model === m);
    psi[paperName(m)] = mean(rows.map((r) => r.psi));
    sd[paperName(m)] = mean(rows.map((r) => r.subscores.sd));
    cl.push(mean(rows.map((r) => r.subscores.cl)));
  }
  const delta = (before: readonly ScoredRecord[], after: readonly ScoredRecord[]) => {
    const out = { psi: mean(after.map((r) => r.psi)) - mean(before.map((r) => r.psi)) } as Record<'psi' | keyof Subscores, number>;
    for (const k of SUBSCORES) out[k] = mean(after.map((r) => r.subscores[k])) - mean(before.map((r) => r.subscores[k]));
    return out;
  };
  const bloom: Record<number, number> = {};
  for (let level = 1; level <= 6; level++) {
    const rows = standard.filter((r) => course.scenarioById.get(r.scenario)!.target_bloom === level);
    if (rows.length > 0) bloom[level] = mean(rows.map((r) => r.psi));
  }
  const pairs = pairRegenerations(study.round1, study.round2);
  const results = regenerationResults(pairs).overall;
  const changes = regenerationSubscoreChanges(pairs);
  const regenerationDelta = Object.fromEntries(changes.map((c) => [c.measure, c.change])) as Record<'psi' | keyof Subscores, number>;
  const selectedPerModel: Record<string, number> = {};
  for (const m of models) selectedPerModel[paperName(m)] = pairs.filter((p) => p.model === m).length;
  const sdRow = changes.find((c) => c.measure === 'sd')!;
  return {
    psi,
    sd,
    clMin: Math.min(...cl),
    ef: mean(standard.map((r) => r.subscores.ef)),
    defectiveDelta: delta(standard, defective),
    bloom,
    selected: pairs.length,
    selectedPerModel,
    improved: results.improved,
    improvedRate: results.rate,
    meanGain: results.meanGain,
    sdBefore: sdRow.before,
    sdAfter: sdRow.after,
    regenerationDelta,
  };
}
