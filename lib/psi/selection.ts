import { InputError } from '../errors';
import type { Variant } from './schema';

/** The fields weak-case selection needs from a scored round-1 record. */
export interface SelectionCandidate {
  run_id: string;
  model: string;
  variant: Variant;
  psi: number;
  round?: number;
  status?: string;
}

/**
 * Default PSI threshold for weak cases: 0.59. Worked out from the paper's published numbers: per-model
 * mean PSI 0.638 / 0.557 / 0.565 / 0.595 and 4 / 23 / 22 / 13 of 30 defective cases selected per model.
 * Under a normal approximation with a common spread σ, the selected fractions 0.13 / 0.77 / 0.73 / 0.43
 * put the common threshold at mean + z·σ with z = −1.11 / +0.73 / +0.62 / −0.17; σ ≈ 0.04 makes all four
 * agree at 0.59 ± 0.004 (the means are the standard-prompt ones; the paper reports the defective means
 * only 0.002 lower overall). On such a distribution the threshold selects about half (62 of 120) of the cases.
 */
export const DEFAULT_WEAK_THRESHOLD = 0.59;

export interface WeakCaseOptions {
  /** Prompt variant to select from (paper: 'defective'). */
  variant?: Variant;
  /** Select cases with PSI strictly below this value; null = no threshold. Default DEFAULT_WEAK_THRESHOLD. */
  threshold?: number | null;
  /** Keep at most this many of the lowest cases (after the threshold). */
  quota?: number;
}

export interface WeakCaseSelection<T extends SelectionCandidate> {
  /** Selected cases, lowest PSI first (ties: run_id ascending). */
  selected: T[];
  threshold: number | null;
  quota: number | null;
  variant: Variant;
  /** Number of eligible cases (right variant, round 1, status not 'missing', finite PSI). */
  considered: number;
  /** Selected cases per model, models sorted by name. */
  perModel: Record<string, number>;
  /** Eligible cases per model (same keys as perModel). */
  consideredPerModel: Record<string, number>;
}

/**
 * Selects the weak-performing cases for PSI-guided regeneration: among round-1 cases of `variant`
 * with a finite PSI (missing responses are never selected), sort by PSI ascending with ties broken by
 * run_id (plain code-unit order), keep those with PSI < threshold, then at most `quota` of them.
 * Deterministic: the same records (in any order) give the same selection.
 * @example
 * const rec = (run_id: string, psi: number) => ({ run_id, psi, model: 'm', variant: 'defective' as const });
 * const cases = [rec('c', 0.5), rec('b', 0.6), rec('a', 0.5)];
 * selectWeakCases(cases, { threshold: 0.59 }).selected.map((r) => r.run_id); // => ['a', 'c']
 * selectWeakCases(cases, { threshold: 0.59, quota: 1 }).selected.map((r) => r.run_id); // => ['a']
 */
export function selectWeakCases<T extends SelectionCandidate>(
  records: readonly T[],
  options: WeakCaseOptions = {},
): WeakCaseSelection<T> {
  const variant = options.variant ?? 'defective';
  const threshold = options.threshold === undefined ? DEFAULT_WEAK_THRESHOLD : options.threshold;
  const quota = options.quota ?? null;
  if (threshold !== null && !Number.isFinite(threshold)) {
    throw new InputError(`weak-case selection: threshold must be a finite number or null, got ${String(threshold)}`);
  }
  if (quota !== null && !(Number.isInteger(quota) && quota >= 0)) {
    throw new InputError(`weak-case selection: quota must be a non-negative integer, got ${String(quota)}`);
  }
  const eligible = records.filter(
    (r) => r.variant === variant && (r.round ?? 1) === 1 && r.status !== 'missing' && r.status !== 'invalid' && Number.isFinite(r.psi),
  );
  const sorted = [...eligible].sort((a, b) => a.psi - b.psi || (a.run_id < b.run_id ? -1 : a.run_id > b.run_id ? 1 : 0));
  let selected = threshold === null ? sorted : sorted.filter((r) => r.psi < threshold);
  if (quota !== null) selected = selected.slice(0, quota);
  const perModel: Record<string, number> = {};
  const consideredPerModel: Record<string, number> = {};
  for (const model of [...new Set(eligible.map((r) => r.model))].sort()) {
    perModel[model] = 0;
    consideredPerModel[model] = 0;
  }
  for (const r of eligible) consideredPerModel[r.model]!++;
  for (const r of selected) perModel[r.model]!++;
  return { selected, threshold, quota, variant, considered: eligible.length, perModel, consideredPerModel };
}
