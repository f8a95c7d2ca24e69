import { CONDITIONS, type Condition } from '../conditions';
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
    const sum = { exact: 0, precision: 0, recall: 0, f1: 0, jaccard: 0 };
    for (const { scores } of rows) {
      sum.exact += scores.exact;
      sum.precision += scores.precision;
      sum.recall += scores.recall;
      sum.f1 += scores.f1;
      sum.jaccard += scores.jaccard;
    }
    const n = rows.length;
    return { condition, n, exact: sum.exact / n, precision: sum.precision / n, recall: sum.recall / n, f1: sum.f1 / n, jaccard: sum.jaccard / n };
  });
}
