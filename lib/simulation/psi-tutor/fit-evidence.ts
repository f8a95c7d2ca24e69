/**
 * The evidence that the fit of the simulated PSI tutors lowered its objective: J (lib/simulation/
 * psi-tutor/fit.ts) of the hand-tuned version-2 habits (profiles-v2.ts) and of the shipped, fitted
 * version-3 habits (profiles.ts) on the same fresh seeds, stored once by scripts/fit-evidence.ts in
 * data/replicates/psi-fit.json (about 24 whole studies, too slow for the test suite), and the checks
 * that make that file trustworthy (`fitEvidenceProblems`): the habits it was made from are today's
 * (fingerprints), every mean, sd, z and J is what its stored per-replicate values give, J fell, and a
 * re-run of chosen replicates gives the stored values exactly (so a change of the simulator's code,
 * which no fingerprint sees, shows too).
 */
import { createHash } from 'node:crypto';
import type { PsiCourse } from '../../psi/schema';
import type { scoreResponse } from '../../psi/score';
import type { FitEvidence, FitVersion } from '../../records/fit-evidence';
import { psiFitRows, psiFitTargets, psiFitValues, psiObjective, type PsiFitPublished } from './fit';
import type { TutorProfile, TutorProfileId } from './profiles';

type Habits = Readonly<Record<TutorProfileId, TutorProfile>>;

/** Where the evidence is stored, relative to the project root. */
export const FIT_EVIDENCE_FILE = 'data/replicates/psi-fit.json';

/**
 * The replicate seeds: `fresh1` … `fresh12`, the seeds scripts/fit-psi.ts confirmed the fit on, used by
 * neither its search (`fit1` …) nor the held-out check of every step (`hold1` …).
 */
export const FIT_EVIDENCE_SEEDS: readonly string[] = Array.from({ length: 12 }, (_, k) => `fresh${k + 1}`);

export const PSI_OBJECTIVE_TEXT = 'J = Σ z² over the targets, z = (replicate mean − target) / max(replicate sd, ½·10^−decimals) (lib/simulation/psi-tutor/fit.ts)';

/** sha256 (16 hex) of a habit table's JSON: what the stored evidence was made from. */
export function habitsFingerprint(habits: Habits): string {
  return createHash('sha256').update(JSON.stringify(habits)).digest('hex').slice(0, 16);
}

function fitVersion(course: PsiCourse, published: PsiFitPublished, label: string, habits: Habits, seeds: readonly string[]): FitVersion {
  const values = psiFitValues(course, published, { ...habits }, seeds);
  const rows = psiFitRows(published, values);
  return { label, fingerprint: habitsFingerprint(habits), objective: psiObjective(rows), rows: rows.map(({ target, expected, sd, z }) => ({ target, expected, sd, z })), values };
}

/** Computes the evidence: both habit tables over the same seeds (deterministic: a re-run gives the same record). */
export function psiFitEvidence(
  course: PsiCourse,
  published: PsiFitPublished,
  options: { baseline: { label: string; habits: Habits }; current: { label: string; habits: Habits }; seeds?: readonly string[] },
): FitEvidence {
  const seeds = options.seeds ?? FIT_EVIDENCE_SEEDS;
  return {
    paper: 'psi',
    simulated: true,
    objective: PSI_OBJECTIVE_TEXT,
    seeds: [...seeds],
    targets: psiFitTargets(published).map(({ target, published: p, decimals }) => ({ target, published: p, decimals })),
    baseline: fitVersion(course, published, options.baseline.label, options.baseline.habits, seeds),
    current: fitVersion(course, published, options.current.label, options.current.habits, seeds),
  };
}

export interface FitEvidenceExpectation {
  published: PsiFitPublished;
  baseline: Habits;
  current: Habits;
  /**
   * Replicates to re-run (indices into the stored seeds) and the course to run them on; none when
   * omitted. A shared `scoreCache` (scoring is pure) makes repeated re-runs cheap.
   */
  rerun?: { course: PsiCourse; indices: readonly number[]; scoreCache?: Map<string, ReturnType<typeof scoreResponse>> };
}

/** What is wrong with stored evidence, one line each; [] when it is current and consistent and J fell. */
export function fitEvidenceProblems(evidence: FitEvidence, expected: FitEvidenceExpectation): string[] {
  const problems: string[] = [];
  const targets = psiFitTargets(expected.published).map(({ target, published, decimals }) => ({ target, published, decimals }));
  if (JSON.stringify(targets) !== JSON.stringify(evidence.targets)) problems.push('the stored targets are not today\'s (lib/simulation/psi-tutor/fit.ts, data/published/psi-2026.json): run npm run fit-evidence');
  for (const key of ['baseline', 'current'] as const) {
    const stored = evidence[key];
    const habits = expected[key];
    const name = `${key} (${stored.label})`;
    if (stored.fingerprint !== habitsFingerprint(habits)) problems.push(`${name}: made from habits with fingerprint ${stored.fingerprint}, not from the habits given (${habitsFingerprint(habits)}): the file is stale; run npm run fit-evidence`);
    if (stored.values.length !== evidence.seeds.length || stored.values.some((v) => v.length !== targets.length)) {
      problems.push(`${name}: ${stored.values.length} replicates of values for ${evidence.seeds.length} seeds, or not ${targets.length} targets each`);
      continue;
    }
    const rows = psiFitRows(expected.published, stored.values);
    rows.forEach((r, i) => {
      const s = stored.rows[i];
      if (!s || s.target !== r.target || s.expected !== r.expected || s.sd !== r.sd || s.z !== r.z) problems.push(`${name}: the stored row "${s?.target ?? r.target}" is not what its replicate values give (expected ${r.expected}, sd ${r.sd}, z ${r.z})`);
    });
    if (stored.rows.length !== rows.length) problems.push(`${name}: ${stored.rows.length} rows for ${rows.length} targets`);
    if (stored.objective !== psiObjective(rows)) problems.push(`${name}: the stored J ${stored.objective} is not the Σ z² of its values (${psiObjective(rows)})`);
    for (const k of expected.rerun?.indices ?? []) {
      const seed = evidence.seeds[k];
      if (seed === undefined) {
        problems.push(`${name}: no replicate ${k} to re-run`);
        continue;
      }
      const again = psiFitValues(expected.rerun!.course, expected.published, { ...habits }, [seed], expected.rerun!.scoreCache)[0]!;
      const t = again.findIndex((x, i) => x !== stored.values[k]![i]);
      if (t >= 0) problems.push(`${name}: replicate ${seed} re-run gives ${targets[t]!.target} = ${again[t]}, stored ${stored.values[k]![t]}: the simulator changed; run npm run fit-evidence`);
    }
  }
  if (!(evidence.current.objective < evidence.baseline.objective)) problems.push(`the fit did not lower J: ${evidence.current.label} ${evidence.current.objective.toFixed(1)}, ${evidence.baseline.label} ${evidence.baseline.objective.toFixed(1)}`);
  return problems;
}
