import { CONDITIONS, type Condition } from '../conditions';
import { mean } from '../stats/mean';
import { groupBy } from './group';
import type { ScoredRecord } from './score';

export interface Table3Row {
  condition: Condition;
  n: number;
  exact: number;
  precision: number;
  recall: number;
  f1: number;
  jaccard: number;
}

/**
 * Table 3: per condition, the number of scored responses and the macro average (mean of response-level
 * scores) of each measure. Conditions without responses are left out.
 */
export function table3(scored: readonly ScoredRecord[]): Table3Row[] {
  const byCondition = groupBy(scored, (r) => r.condition);
  return CONDITIONS.filter((c) => byCondition.has(c)).map((condition) => {
    const rows = byCondition.get(condition)!;
    const n = rows.length;
    const measure = (pick: (r: ScoredRecord) => number) => mean(rows.map(pick));
    return {
      condition,
      n,
      exact: measure((r) => r.scores.exact),
      precision: measure((r) => r.scores.precision),
      recall: measure((r) => r.scores.recall),
      f1: measure((r) => r.scores.f1),
      jaccard: measure((r) => r.scores.jaccard),
    };
  });
}
