import { CONDITIONS, type Condition } from '../conditions';
import { mean } from '../stats/mean';
import { groupBy } from './group';
import type { ScoredRecord } from './score';

export interface DomainConditionRow {
  domain: string;
  condition: Condition;
  n: number;
  exact: number;
}

/** Exact-set accuracy per domain × condition (the paper's Figure 2 heatmap), domains sorted by ID. */
export function domainCondition(scored: readonly ScoredRecord[]): DomainConditionRow[] {
  const byDomain = [...groupBy(scored, (r) => r.domain)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const rows: DomainConditionRow[] = [];
  for (const [domain, records] of byDomain) {
    const byCondition = groupBy(records, (r) => r.condition);
    for (const condition of CONDITIONS) {
      const rs = byCondition.get(condition);
      if (rs) rows.push({ domain, condition, n: rs.length, exact: mean(rs.map((r) => r.scores.exact)) });
    }
  }
  return rows;
}
