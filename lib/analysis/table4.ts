import { CONDITIONS, type Condition } from '../conditions';
import { compareProportions, competitionRanks } from '../stats';
import { groupBy } from './group';
import type { ScoredRecord } from './score';

export interface Table4Row {
  model: string;
  condition: Condition;
  n: number;
  exact: number;
  /** Standard competition rank ("1224") of `exact` among the models within the condition; 1 = best. */
  rank: number;
}

/**
 * Table 4: exact-set accuracy per model and condition, ranked within each condition. Accuracies are
 * compared as fractions k/n by cross-multiplication, so equal proportions always tie even when the
 * models' n differ (and floating-point rounding can never split a tie).
 */
export function table4(scored: readonly ScoredRecord[]): Table4Row[] {
  const rows: Table4Row[] = [];
  const byCondition = groupBy(scored, (r) => r.condition);
  for (const condition of CONDITIONS) {
    const inCondition = byCondition.get(condition);
    if (!inCondition) continue;
    const byModel = [...groupBy(inCondition, (r) => r.model)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const cells = byModel.map(([model, rs]) => ({
      model,
      n: rs.length,
      correct: rs.reduce((k, r) => k + r.scores.exact, 0),
    }));
    const ranks = competitionRanks(cells, { compare: (a, b) => compareProportions({ k: a.correct, n: a.n }, { k: b.correct, n: b.n }) });
    cells.forEach((c, i) => rows.push({ model: c.model, condition, n: c.n, exact: c.correct / c.n, rank: ranks[i]! }));
  }
  return rows.sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : CONDITIONS.indexOf(a.condition) - CONDITIONS.indexOf(b.condition)));
}
