/**
 * Replicate statistics of the claims ledger: the simulator run over R seeded replicate corpora, every
 * claim that depends on responses computed on each (the same rebuilds as the shipped corpus), and
 * summarised as a mean, sd and central 95 % interval (numbers) or counts per value (statements, names).
 * The status of a claim on simulated input is whether the paper's value lies in that spread
 * (lib/claims/rule.ts `simulationStatus`), so a simulator that cannot produce the paper's number makes
 * the claim `outside-simulation-spread`, whatever one draw happened to give.
 *
 * Replicate k of the KST study is the whole design decided with every profile's seed strings suffixed
 * `~r<k>` (lib/simulation/kst-respondent/study.ts); of the PSI study, both rounds with the tutors' seed
 * `r<k>` (lib/simulation/psi-tutor/study.ts). A `transform` rewrites each replicate corpus before it
 * is scored: the mutation tests (test/claims/replicates.test.ts) use it to swap condition labels,
 * shuffle model labels or replace every answer by the reference, and the claims must turn outside.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_INFERENCE, validateResponses, type InferenceOptions } from '../analysis';
import type { Domain } from '../kst';
import type { PsiCourse, PsiRecord } from '../psi/schema';
import type { PsiParameters } from '../psi/parameters';
import type { ClaimEntry, PrintedValue } from '../records/published-claims';
import type { ClaimReplicates, ReplicateSummary } from '../records/claim-replicates';
import type { ExtractedLine } from '../records/extracted';
import type { PublishedKst } from '../records/published-kst';
import type { PublishedPsi } from '../records/published-psi';
import { DOMAIN_DIFFICULTY, SIMULATED_PROFILES, SIMULATED_VERSION } from '../simulation/kst-respondent/profiles';
import { simulateKstStudy, type SimulatedKstStudy } from '../simulation/kst-respondent/study';
import { TUTOR_PROFILES } from '../simulation/psi-tutor/profiles';
import { simulatePsiStudy } from '../simulation/psi-tutor/study';
import { percentileLinear } from '../stats/percentile';
import { mean } from '../stats/mean';
import { kstClaimValues } from './kst';
import { psiClaimValues } from './psi';
import { valueText } from './rule';

/**
 * Bootstrap and sign-flip sizes of the contrast claims inside each replicate: the paper's own (10,000
 * resamples, 100,000 flips, lib/analysis DEFAULT_INFERENCE). Fewer flips would put a floor under the
 * replicates' p values (5,000 flips: Holm p ≥ 0.0006), above the paper's "< .0001", and make that claim
 * outside for a reason of ours, not of the simulator. One replicate then takes about 1.5 s.
 */
export const REPLICATE_INFERENCE: InferenceOptions = DEFAULT_INFERENCE;
/** Default number of replicates (why 200: scripts/replicates.ts). */
export const DEFAULT_REPLICATES = 200;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6 || 0;

/** Summary of one claim's values over the replicates (non-finite numbers count as the category "none"). */
export function summariseValues(values: readonly PrintedValue[]): ReplicateSummary {
  const numbers = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (numbers.length === values.length && numbers.length > 0) {
    const sorted = [...numbers].sort((a, b) => a - b);
    const m = mean(sorted);
    const sd = sorted.length > 1 ? Math.sqrt(sorted.reduce((s, x) => s + (x - m) ** 2, 0) / (sorted.length - 1)) : 0;
    return { kind: 'number', n: sorted.length, mean: round6(m), sd: round6(sd), low: round6(percentileLinear(sorted, 0.025)), high: round6(percentileLinear(sorted, 0.975)) };
  }
  const counts: Record<string, number> = {};
  for (const v of values) {
    const key = typeof v === 'number' && !Number.isFinite(v) ? 'none' : valueText(v);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return { kind: 'category', n: values.length, counts: Object.fromEntries(Object.entries(counts).sort((a, b) => (a[0] < b[0] ? -1 : 1))) };
}

/** The claims that depend on responses: every rebuilt claim not true by construction. */
export function responseDependent(claims: readonly ClaimEntry[]): ClaimEntry[] {
  return claims.filter((c) => c.rebuilt !== undefined && c.basis !== 'by-construction');
}

/** A replicate whose corpus cannot decide a claim (Computed.unavailable) counts as this category, not as its placeholder value. */
export const UNAVAILABLE_REPLICATE = 'cannot be checked';

/** Each claim's summary over the replicate runs (claim id → computed value of each run). */
export function summariseClaimRuns(claims: readonly ClaimEntry[], runs: Array<Map<string, { value: PrintedValue; unavailable?: string }>>): Record<string, ReplicateSummary> {
  return Object.fromEntries(
    claims.map((c) => [c.id, summariseValues(runs.map((r) => {
      const computed = r.get(c.id)!;
      return computed.unavailable !== undefined ? UNAVAILABLE_REPLICATE : computed.value;
    }))]),
  );
}

const hash = (x: unknown) => createHash('sha256').update(JSON.stringify(x)).digest('hex').slice(0, 16);

/** What the KST statistics depend on: the simulator's parameters, the claims, R and the inference sizes. */
export function kstFingerprint(claims: readonly ClaimEntry[], replicates: number, inference: InferenceOptions): string {
  return hash({ v: SIMULATED_VERSION, profiles: SIMULATED_PROFILES, difficulty: DOMAIN_DIFFICULTY, claims: claims.map((c) => [c.id, c.value]), replicates, inference });
}

/** What the PSI statistics depend on: the tutors' habits, the claims and R. */
export function psiFingerprint(claims: readonly ClaimEntry[], replicates: number): string {
  return hash({ tutors: TUTOR_PROFILES, claims: claims.map((c) => [c.id, c.value]), replicates });
}

export interface KstReplicateOptions {
  published: PublishedKst;
  domains: readonly Domain[];
  replicates?: number;
  inference?: InferenceOptions;
  /** Rewrites each replicate corpus before scoring (mutation tests). */
  transform?: (lines: ExtractedLine[], k: number) => ExtractedLine[];
  /** Only the claims of these notebook cells (all response-dependent claims when omitted). */
  cells?: readonly string[];
  onReplicate?: (k: number) => void;
  /** The replicate corpus of a seed suffix (default simulateKstStudy; tests pass a cache). */
  study?: (seedSuffix: string) => SimulatedKstStudy;
}

/** Replicate statistics of the KST claims (see the module comment). */
export function kstReplicates(options: KstReplicateOptions): ClaimReplicates {
  const R = options.replicates ?? DEFAULT_REPLICATES;
  const inference = options.inference ?? REPLICATE_INFERENCE;
  const claims = responseDependent(options.published.claims).filter((c) => options.cells === undefined || options.cells.includes(c.rebuilt!.cell.split('#')[1]!));
  const cells = [...new Set(claims.map((c) => c.rebuilt!.cell.split('#')[1]!))];
  const seeds = Array.from({ length: R }, (_, i) => `~r${i + 1}`);
  const runs = seeds.map((seedSuffix, i) => {
    const study = options.study ? options.study(seedSuffix) : simulateKstStudy(options.domains, { seedSuffix });
    const lines = options.transform ? options.transform(study.lines, i + 1) : study.lines;
    const records = validateResponses(lines.map((value, j) => ({ line: j + 1, value })), options.domains, `<replicate ${seedSuffix}>`);
    const { values } = kstClaimValues({ published: options.published, records, finalRecords: study.finals, domains: options.domains, inference }, cells);
    options.onReplicate?.(i + 1);
    return values;
  });
  return {
    paper: 'kst',
    simulated: true,
    generator: `simulated respondent sim-a…sim-f (SIMULATED_VERSION ${SIMULATED_VERSION}), whole design per replicate, seed strings suffixed by the replicate's seed (lib/simulation/kst-respondent/study.ts)${options.transform ? ', transformed' : ''}`,
    fingerprint: kstFingerprint(claims, R, inference),
    replicates: R,
    seeds,
    inference: { resamples: inference.resamples, flips: inference.flips, seed: inference.seed },
    claims: summariseClaimRuns(claims, runs),
  };
}

export interface PsiReplicateOptions {
  published: PublishedPsi;
  course: PsiCourse;
  replicates?: number;
  params?: Partial<PsiParameters>;
  transform?: (study: { round1: PsiRecord[]; round2: PsiRecord[] }, k: number) => { round1: PsiRecord[]; round2: PsiRecord[] };
  onReplicate?: (k: number) => void;
}

/** A simulated scored record as the collector writes it (the PSI record schema). */
function asRecord(r: { run_id: string; round: 1 | 2; scenario: string; variant: 'standard' | 'defective'; model: string; text: string; parent_run_id?: string }): PsiRecord {
  return { run_id: r.run_id, round: r.round, scenario: r.scenario, variant: r.variant, model: r.model, simulated: true, text: r.text, status: 'valid', ...(r.parent_run_id !== undefined ? { parent_run_id: r.parent_run_id } : {}) };
}

/** Replicate statistics of the PSI claims (see the module comment). */
export function psiReplicates(options: PsiReplicateOptions): ClaimReplicates {
  const R = options.replicates ?? DEFAULT_REPLICATES;
  const claims = responseDependent(options.published.claims);
  const seeds = Array.from({ length: R }, (_, i) => `r${i + 1}`);
  const runs = seeds.map((seed, i) => {
    const sim = simulatePsiStudy(options.course, { seed });
    const study = { round1: sim.round1.map(asRecord), round2: sim.round2.map(asRecord) };
    const { round1, round2 } = options.transform ? options.transform(study, i + 1) : study;
    const { values } = psiClaimValues({ published: options.published, course: options.course, round1, round2, ...(options.params ? { params: options.params } : {}) });
    options.onReplicate?.(i + 1);
    return values;
  });
  return {
    paper: 'psi',
    simulated: true,
    generator: 'simulated tutors sim-tutor-a…d, both rounds per replicate with the tutors\' seed string set to the replicate\'s seed (lib/simulation/psi-tutor/study.ts)',
    fingerprint: psiFingerprint(claims, R),
    replicates: R,
    seeds,
    claims: summariseClaimRuns(claims, runs),
  };
}
