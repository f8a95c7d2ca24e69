/**
 * The all-responses line of paper 000 §4.5.1 (exact 79.7 %, precision 89.6 %, … over 2,400 responses):
 * the macro average over every scored response, whatever its condition.
 */
import type { ScoredRecord } from '../analysis/score';

const pct = (x: number) => Math.round(x * 1000) / 10;

/**
 * Macro averages over all scored responses beside the paper's overall line.
 * Example: two responses with exact 1 and 0 → exact 50.0.
 */
export function overallComparison(
  scored: readonly ScoredRecord[],
  published: { overall: { n: number; exact: number; precision: number; recall: number; f1: number; jaccard: number } },
) {
  const n = scored.length;
  const mean = (k: 'exact' | 'precision' | 'recall' | 'f1' | 'jaccard') => (n === 0 ? null : pct(scored.reduce((s, r) => s + r.scores[k], 0) / n));
  const p = published.overall;
  return [
    { measure: 'n', computed: n, paper: p.n },
    { measure: 'exact (%)', computed: mean('exact'), paper: p.exact },
    { measure: 'precision (%)', computed: mean('precision'), paper: p.precision },
    { measure: 'recall (%)', computed: mean('recall'), paper: p.recall },
    { measure: 'F1 (%)', computed: mean('f1'), paper: p.f1 },
    { measure: 'Jaccard (%)', computed: mean('jaccard'), paper: p.jaccard },
  ];
}
