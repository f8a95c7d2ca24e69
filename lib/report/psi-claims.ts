/**
 * Tables behind two PSI claims the simulation does not reproduce or that need a definition: the Figure 1
 * trend (least-squares slope per model, lib/psi/bloom-trend.ts) and the weak-case selection counts
 * (4 / 23 / 22 / 13 of 30, 62 in all), set beside the spread of defective-case PSI that would produce
 * them. Pure functions: notebooks render the rows.
 */
import { linearRegression, probit, sampleStandardDeviation } from 'simple-statistics';
import type { ScoredRecord } from '../psi/aggregate';
import type { BloomSlope } from '../psi/bloom-trend';
import type { PublishedPsi } from '../records/published-psi';
import { mean } from '../stats/mean';

/** The trend per model: slope of PSI per Bloom level and whether it is negative (the claim's reading). */
export function bloomSlopeTable(slopes: readonly BloomSlope[], mirrors: Readonly<Record<string, string>>) {
  return slopes.map((s) => ({
    model: s.model,
    'paper model': mirrors[s.model] ?? (s.model === 'all models' ? 'all models' : null),
    records: s.records,
    levels: s.levels.join(','),
    'PSI per level (slope)': Number.isFinite(s.slope) ? s.slope : null,
    declines: s.declines,
  }));
}

/**
 * The common threshold t and per-model spread σ that the paper's counts imply if each model's
 * defective-case PSI were normal around its Table I mean m: the selected fraction k/n = Φ((t − m)/σ), so
 * m = t − σ·Φ⁻¹(k/n), fitted by least squares over the models. Example (the paper): t ≈ 0.590, σ ≈ 0.043.
 */
export function impliedSelectionSpread(published: PublishedPsi, casesPerModel: number): { threshold: number; sigma: number } {
  const points = Object.entries(published.table4.selected_per_model).map(([model, k]) => [probit(k / casesPerModel), published.table1.psi[model]!] as [number, number]);
  const fit = linearRegression(points);
  return { threshold: fit.b, sigma: -fit.m };
}

/**
 * Per model: the mean and SD of round-1 defective-case PSI, the cases selected below the threshold and
 * the paper's count, so a reader sees why the counts differ (a wider spread than the paper's implied σ
 * flattens the counts).
 */
export function selectionSpreadTable(
  scored: readonly ScoredRecord[],
  selection: { perModel: Readonly<Record<string, number>>; consideredPerModel: Readonly<Record<string, number>> },
  published: PublishedPsi,
  mirrors: Readonly<Record<string, string>>,
) {
  const defective = scored.filter((r) => r.round === 1 && r.variant === 'defective');
  return Object.keys(selection.perModel).map((model) => {
    const psi = defective.filter((r) => r.model === model).map((r) => r.psi);
    const pm = mirrors[model];
    return {
      model,
      'paper model': pm ?? null,
      cases: selection.consideredPerModel[model] ?? psi.length,
      'defective PSI mean': psi.length ? mean(psi) : null,
      'defective PSI SD': psi.length > 1 ? sampleStandardDeviation(psi) : null,
      selected: selection.perModel[model] ?? 0,
      'selected (paper)': pm === undefined ? null : (published.table4.selected_per_model[pm] ?? null),
    };
  });
}
