/**
 * The paper's Figure 1 trend claim made precise. "PSI declines with the target Bloom level for every
 * model" is read as: for each model, the least-squares slope of PSI on the scenario's target level
 * (each standard-prompt record one point, so a level counts by its number of scenarios) is negative.
 * A stricter reading — the level means never rise from one level to the next — is reported beside it:
 * with one Remember scenario and uneven levels, a negative slope need not be monotone.
 */
import { linearRegression } from 'simple-statistics';
import type { ScoredRecord } from './aggregate';
import type { PsiCourse } from './schema';

export interface BloomSlope {
  model: string;
  records: number;
  levels: number[];
  /** Change in PSI per Bloom level (least squares); NaN with fewer than two distinct levels. */
  slope: number;
  declines: boolean;
}

/**
 * Least-squares slope of PSI on the target Bloom level per model and over all models pooled (model
 * "all models"), standard prompts of round 1 only. PSI 0.7, 0.6, 0.5 at levels 1, 2, 3 fall by 0.1 a level.
 * @example
 * const course = { scenarioById: new Map([['s1', { target_bloom: 1 }], ['s2', { target_bloom: 2 }], ['s3', { target_bloom: 3 }]]) } as any;
 * const rec = (scenario: string, psi: number, variant = 'standard') => ({ model: 'm', scenario, psi, variant, round: 1 }) as any;
 * const [m, all] = bloomTrendSlopes([rec('s1', 0.7), rec('s2', 0.6), rec('s3', 0.5), rec('s3', 0.9, 'defective')], course);
 * [m.model, m.records, m.levels, +m.slope.toFixed(10), m.declines]; // => ['m', 3, [1, 2, 3], -0.1, true]
 * all.model; // => 'all models'
 */
export function bloomTrendSlopes(scored: readonly ScoredRecord[], course: PsiCourse): BloomSlope[] {
  const standard = scored.filter((r) => r.variant === 'standard' && (r.round ?? 1) === 1 && Number.isFinite(r.psi));
  const fit = (model: string, rs: readonly ScoredRecord[]): BloomSlope => {
    const points = rs.map((r) => [course.scenarioById.get(r.scenario)!.target_bloom, r.psi] as [number, number]);
    const levels = [...new Set(points.map(([x]) => x))].sort((a, b) => a - b);
    const slope = levels.length < 2 ? Number.NaN : linearRegression(points).m;
    return { model, records: rs.length, levels, slope, declines: slope < 0 };
  };
  const models = [...new Set(standard.map((r) => r.model))].sort();
  return [...models.map((m) => fit(m, standard.filter((r) => r.model === m))), fit('all models', standard)];
}
