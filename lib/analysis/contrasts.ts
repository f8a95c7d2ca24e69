import { ADJACENT_CONTRASTS, designContrasts, type Condition } from '../conditions';
import { conditionContrast, holm, pairedDifferences, stateMeans } from '../stats';
import type { ScoredRecord } from './score';

export interface ContrastRow {
  contrast: string;
  metric: 'exact' | 'f1';
  /** Number of knowledge states with responses under both conditions. */
  states: number;
  estimate: number | null;
  ci_low: number | null;
  ci_high: number | null;
  p: number | null;
  /** Holm-adjusted across the three exact contrasts; null for F1 (reported descriptively). */
  p_holm: number | null;
  /** The seed string the bootstrap and sign-flip draws were derived from. */
  seed: string;
}

export interface InferenceOptions {
  resamples: number;
  flips: number;
  seed: string;
}

/**
 * The paired state-level differences of a contrast (`later − earlier`, e.g. 'P2-P1') for `metric`: scores
 * averaged within state and condition over models and orders (stateMeans), states present in both
 * conditions, sorted by state key (pairedDifferences). The one derivation behind the contrast table and
 * notebook 06's distributions. RangeError for a name that is not an adjacent contrast.
 *
 * One state with exact scores P1 [1, 0] and P2 [1, 1]: state means 0.5 and 1, difference 0.5.
 * @example
 * const r = (condition: string, exact: number) => ({ condition, stateKey: 's1', scores: { exact, f1: exact } }) as any;
 * contrastDifferences([r('P1', 1), r('P1', 0), r('P2', 1), r('P2', 1)], 'P2-P1', 'exact'); // => { states: ['s1'], differences: [0.5] }
 * contrastDifferences([], 'P3-P0', 'exact'); // throws /unknown contrast "P3-P0"/
 */
export function contrastDifferences(
  scored: readonly ScoredRecord[],
  contrast: string,
  metric: 'exact' | 'f1',
): { states: string[]; differences: number[] } {
  const spec = ADJACENT_CONTRASTS.find((c) => c.name === contrast);
  if (!spec) throw new RangeError(`unknown contrast ${JSON.stringify(contrast)} (expected ${ADJACENT_CONTRASTS.map((c) => c.name).join(', ')})`);
  const means = (condition: Condition) =>
    stateMeans(
      scored.filter((r) => r.condition === condition),
      { state: (r) => r.stateKey, value: (r) => r.scores[metric] },
    );
  const { keys, differences } = pairedDifferences(means(spec.later), means(spec.earlier));
  return { states: keys, differences };
}

/**
 * The paper's condition contrasts (§4.4). Each knowledge state gets equal weight: within a state and
 * condition the response scores are averaged over models and orders; a contrast is the mean over states
 * of the paired state-level differences (later − earlier condition), with a percentile bootstrap interval
 * over states and a two-sided sign-flip randomization p. Holm's adjustment runs over the exact-set
 * contrasts that could be computed.
 */
export function contrasts(scored: readonly ScoredRecord[], options: InferenceOptions): ContrastRow[] {
  const rows: ContrastRow[] = [];
  for (const metric of ['exact', 'f1'] as const) {
    for (const { name } of ADJACENT_CONTRASTS) {
      const seed = `${options.seed}:${name}:${metric}`;
      const { differences } = contrastDifferences(scored, name, metric);
      if (differences.length === 0) {
        rows.push({ contrast: name, metric, states: 0, estimate: null, ci_low: null, ci_high: null, p: null, p_holm: null, seed });
        continue;
      }
      const c = conditionContrast(differences, { resamples: options.resamples, flips: options.flips, seed });
      rows.push({ contrast: name, metric, states: differences.length, estimate: c.estimate, ci_low: c.low, ci_high: c.high, p: c.p, p_holm: null, seed });
    }
  }
  const exactRows = rows.filter((r) => r.metric === 'exact' && r.p !== null);
  const adjusted = holm(exactRows.map((r) => r.p!));
  exactRows.forEach((r, i) => (r.p_holm = adjusted[i]!));
  return rows;
}

/**
 * The rows of contrasts whose two conditions are both in `conditions` (a design's): a design with
 * only P0 and P1 has no P2−P1 or P3−P2 to report, and an empty row would read as "not estimable".
 * Such rows have no states, so no p either: dropping them leaves Holm's adjustment unchanged.
 * @example
 * const row = (contrast: string) => ({ contrast }) as ContrastRow;
 * contrastsInDesign([row('P1-P0'), row('P2-P1'), row('P3-P2')], ['P0', 'P1']).map((r) => r.contrast); // => ['P1-P0']
 */
export function contrastsInDesign(rows: readonly ContrastRow[], conditions: readonly Condition[]): ContrastRow[] {
  const inDesign = new Set(designContrasts(conditions).map((c) => c.name));
  return rows.filter((r) => inDesign.has(r.contrast));
}
