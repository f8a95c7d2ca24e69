/**
 * The all-responses line of [KST-2026] §4.5.1 (exact 79.7 %, precision 89.6 %, … over 2,400 responses):
 * the macro average over every scored response, whatever its condition.
 */
import type { ScoredRecord } from '../analysis/score';
import { mean } from '../stats/mean';
import { percent } from '../stats/prints-as';

/** A proportion as a percentage rounded to one decimal (0.6125 → 61.3), the papers' precision (lib/stats `percent`). */
export const pct = (x: number) => percent(x);

/**
 * Macro averages over all scored responses beside the paper's overall line.
 * @example
 * const scores = (exact: number) => ({ scores: { exact, precision: 1, recall: exact, f1: exact, jaccard: exact } }) as any;
 * const published = { overall: { n: 2400, exact: 61.3, precision: 90, recall: 80, f1: 85, jaccard: 75 } };
 * overallComparison([scores(1), scores(0)], published).slice(0, 3); // => [{ measure: 'n', computed: 2, paper: 2400 }, { measure: 'exact (%)', computed: 50, paper: 61.3 }, { measure: 'precision (%)', computed: 100, paper: 90 }]
 */
export function overallComparison(
  scored: readonly ScoredRecord[],
  published: { overall: { n: number; exact: number; precision: number; recall: number; f1: number; jaccard: number } },
) {
  const n = scored.length;
  const meanOf = (k: 'exact' | 'precision' | 'recall' | 'f1' | 'jaccard') => (n === 0 ? null : pct(mean(scored.map((r) => r.scores[k]))));
  const p = published.overall;
  return [
    { measure: 'n', computed: n, paper: p.n },
    { measure: 'exact (%)', computed: meanOf('exact'), paper: p.exact },
    { measure: 'precision (%)', computed: meanOf('precision'), paper: p.precision },
    { measure: 'recall (%)', computed: meanOf('recall'), paper: p.recall },
    { measure: 'F1 (%)', computed: meanOf('f1'), paper: p.f1 },
    { measure: 'Jaccard (%)', computed: meanOf('jaccard'), paper: p.jaccard },
  ];
}
