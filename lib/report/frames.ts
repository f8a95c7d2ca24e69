/**
 * Glue between the analysis and danfojs DataFrames, for readers who want to explore the responses as a
 * table: flat rows in, and a check that a DataFrame's grouped means agree with lib/analysis's tables.
 */
import type { ScoredRecord } from '../analysis/score';

export interface ResponseRow {
  run_id: string;
  model: string;
  domain: string;
  condition: string;
  order: number;
  /** The mastered set as `ID,ID` ('' for the empty state). */
  state: string;
  status: string;
  exact: number;
  precision: number;
  recall: number;
  f1: number;
  jaccard: number;
}

/** One flat row per scored response (what `new dfd.DataFrame(rows)` takes). */
export function responseRows(scored: readonly ScoredRecord[]): ResponseRow[] {
  return scored.map((r) => ({
    run_id: r.runId,
    model: r.model,
    domain: r.domain,
    condition: r.condition,
    order: r.order,
    state: r.state.join(','),
    status: r.status,
    exact: r.scores.exact,
    precision: r.scores.precision,
    recall: r.scores.recall,
    f1: r.scores.f1,
    jaccard: r.scores.jaccard,
  }));
}

/**
 * The largest |grouped − reference| over `measures`, matching rows on the `keys` columns. `grouped` rows
 * name a measure's mean `<measure>_mean` (danfojs's `groupby(...).col(...).mean()` naming). A group
 * without a reference row, or a reference row without a group, is an error: the two tables must cover
 * the same cells. `cells` is the number of (group, measure) values compared.
 *
 * @example
 * largestDifference([{ c: 'P0', x_mean: 0.5 }], [{ c: 'P0', x: 0.5 }], ['c'], ['x']); // => { largest: 0, cells: 1 }
 * largestDifference([{ c: 'P0', x_mean: 0.5 }, { c: 'P1', x_mean: 0.25 }], [{ c: 'P0', x: 0.5 }, { c: 'P1', x: 0.75 }], ['c'], ['x']); // => { largest: 0.5, cells: 2 }
 */
export function largestDifference(
  grouped: ReadonlyArray<Record<string, unknown>>,
  reference: ReadonlyArray<Record<string, unknown>>,
  keys: readonly string[],
  measures: readonly string[],
): { largest: number; cells: number } {
  const keyOf = (row: Record<string, unknown>) => keys.map((k) => String(row[k])).join('|');
  const byKey = new Map(reference.map((row) => [keyOf(row), row]));
  if (byKey.size !== grouped.length) {
    throw new Error(`largestDifference: ${grouped.length} groups but ${byKey.size} reference rows`);
  }
  let largest = 0;
  let cells = 0;
  for (const row of grouped) {
    const ref = byKey.get(keyOf(row));
    if (!ref) throw new Error(`largestDifference: no reference row for ${keyOf(row)}`);
    for (const m of measures) {
      largest = Math.max(largest, Math.abs(Number(row[`${m}_mean`]) - Number(ref[m])));
      cells += 1;
    }
  }
  return { largest, cells };
}
