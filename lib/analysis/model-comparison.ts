import type { Condition } from '../conditions';
import type { ScoredRecord } from './score';

/**
 * The data behind [KST-2026] Figure 3: correct (exact-set) responses of each model for one domain ×
 * condition, best first (by share correct, then model name).
 *
 * @example
 * const r = (model: string, exact: number) => ({ model, domain: 'd', condition: 'P0', scores: { exact } }) as any;
 * modelComparison([r('m1', 1), r('m1', 0), r('m2', 1)], 'd', 'P0'); // => [{ model: 'm2', correct: 1, n: 1 }, { model: 'm1', correct: 1, n: 2 }]
 */
export function modelComparison(scored: readonly ScoredRecord[], domain: string, condition: Condition): Array<{ model: string; correct: number; n: number }> {
  const byModel = new Map<string, { correct: number; n: number }>();
  for (const r of scored) {
    if (r.domain !== domain || r.condition !== condition) continue;
    const m = byModel.get(r.model) ?? { correct: 0, n: 0 };
    m.correct += r.scores.exact;
    m.n += 1;
    byModel.set(r.model, m);
  }
  return [...byModel]
    .map(([model, v]) => ({ model, ...v }))
    .sort((a, b) => b.correct * a.n - a.correct * b.n || (a.model < b.model ? -1 : 1));
}
