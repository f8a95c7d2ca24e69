import { CONDITIONS, type Condition } from '../conditions';
import { groupBy, mean } from './group';
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
    return {
      condition,
      n: rows.length,
      exact: mean(rows.map((r) => r.scores.exact)),
      precision: mean(rows.map((r) => r.scores.precision)),
      recall: mean(rows.map((r) => r.scores.recall)),
      f1: mean(rows.map((r) => r.scores.f1)),
      jaccard: mean(rows.map((r) => r.scores.jaccard)),
    };
  });
}
