/**
 * Breakdowns of exact-set accuracy the paper reports in its running text (§4.5.1–§4.5.2) beyond Tables
 * 3 and 4: the all-responses line, accuracy per domain, each model's average over the conditions, and
 * model × domain × condition with its leaders (who has the highest score in each of the 16 cells, and
 * whether any model has it everywhere). Proportions in [0, 1]; ties compare counts exactly.
 */
import { CONDITIONS, type Condition } from '../conditions';
import { compareProportions, competitionRanks } from '../stats';
import { groupBy } from './group';
import { mean } from '../stats/mean';
import type { ScoredRecord } from './score';
import type { Table4Row } from './table4';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Macro averages over every scored response, whatever its condition (the paper's overall line). */
export function overallMeans(scored: readonly ScoredRecord[]) {
  const m = (pick: (r: ScoredRecord) => number) => mean(scored.map(pick));
  return {
    n: scored.length,
    exact: m((r) => r.scores.exact),
    precision: m((r) => r.scores.precision),
    recall: m((r) => r.scores.recall),
    f1: m((r) => r.scores.f1),
    jaccard: m((r) => r.scores.jaccard),
  };
}

/** Exact-set accuracy per domain pooled over conditions, models and orders, domains sorted by id. */
export function domainAccuracy(scored: readonly ScoredRecord[]): Array<{ domain: string; n: number; exact: number }> {
  return [...groupBy(scored, (r) => r.domain)]
    .sort(([a], [b]) => byName(a, b))
    .map(([domain, rs]) => ({ domain, n: rs.length, exact: mean(rs.map((r) => r.scores.exact)) }));
}

/**
 * Each model's exact-set accuracy averaged over the conditions it has (equal weight per condition, as
 * the paper's "averaged over all four conditions"). 0.76, 0.70, 0.98, 1.00 average to 3.44 / 4 = 0.86.
 * @example
 * const rows = [['P0', 0.76], ['P1', 0.7], ['P2', 0.98], ['P3', 1]].map(([condition, exact]) => ({ model: 'm', condition, exact })) as any;
 * modelAverages(rows).map((r) => [r.model, r.conditions, +r.average.toFixed(10)]); // => [['m', 4, 0.86]]
 */
export function modelAverages(rows: readonly Table4Row[]): Array<{ model: string; conditions: number; average: number }> {
  return [...groupBy(rows, (r) => r.model)]
    .sort(([a], [b]) => byName(a, b))
    .map(([model, rs]) => ({ model, conditions: rs.length, average: mean(rs.map((r) => r.exact)) }));
}

export interface ModelDomainConditionRow {
  model: string;
  domain: string;
  condition: Condition;
  n: number;
  correct: number;
  exact: number;
  /** Competition rank ("1224") of the model within its domain × condition cell; 1 = highest. */
  rank: number;
}

/** Exact-set accuracy of every model in every domain × condition cell, ranked within the cell. */
export function modelDomainCondition(scored: readonly ScoredRecord[]): ModelDomainConditionRow[] {
  const rows: ModelDomainConditionRow[] = [];
  const cells = [...groupBy(scored, (r) => `${r.domain}\u0000${r.condition}`)];
  for (const [, inCell] of cells) {
    const { domain, condition } = inCell[0]!;
    const models = [...groupBy(inCell, (r) => r.model)].sort(([a], [b]) => byName(a, b));
    const counts = models.map(([model, rs]) => ({ model, n: rs.length, correct: rs.reduce((k, r) => k + r.scores.exact, 0) }));
    const ranks = competitionRanks(counts, { compare: (a, b) => compareProportions({ k: a.correct, n: a.n }, { k: b.correct, n: b.n }) });
    counts.forEach((c, i) => rows.push({ model: c.model, domain, condition, n: c.n, correct: c.correct, exact: c.correct / c.n, rank: ranks[i]! }));
  }
  return rows.sort((a, b) => byName(a.domain, b.domain) || CONDITIONS.indexOf(a.condition) - CONDITIONS.indexOf(b.condition) || byName(a.model, b.model));
}

/** Per domain × condition cell: the highest accuracy and every model that has it (shared first places count). */
export function cellLeaders(rows: readonly ModelDomainConditionRow[]): Array<{ domain: string; condition: Condition; top: number; leaders: string[]; models: number }> {
  const out: Array<{ domain: string; condition: Condition; top: number; leaders: string[]; models: number }> = [];
  for (const [, cell] of groupBy(rows, (r) => `${r.domain}\u0000${r.condition}`)) {
    const leaders = cell.filter((r) => r.rank === 1);
    out.push({ domain: cell[0]!.domain, condition: cell[0]!.condition, top: leaders[0]!.exact, leaders: leaders.map((r) => r.model).sort(byName), models: cell.length });
  }
  return out;
}

/**
 * Whether some model has the (joint) highest score in every domain × condition cell, and how many cells
 * each model leads. `everywhere` lists the models that lead all cells (empty: no model is consistently
 * highest, the paper's §4.5.2 finding).
 */
export function consistentLeaders(rows: readonly ModelDomainConditionRow[]): { cells: number; everywhere: string[]; cellsLed: Record<string, number> } {
  const leaders = cellLeaders(rows);
  const models = [...new Set(rows.map((r) => r.model))].sort(byName);
  const cellsLed: Record<string, number> = Object.fromEntries(models.map((m) => [m, 0]));
  for (const cell of leaders) for (const m of cell.leaders) cellsLed[m]!++;
  return { cells: leaders.length, everywhere: models.filter((m) => cellsLed[m] === leaders.length), cellsLed };
}
