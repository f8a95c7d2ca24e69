/**
 * Reconstructed P1 graphs (lib/analysis/graphs) as tables and a figure.
 */
import type { GraphRow, GraphSummaryRow } from '../analysis/graphs';
import type { FigureSpec } from '../figures/spec';
import { percent } from '../stats/prints-as';

const pct = (k: number, n: number) => (n === 0 ? null : percent(k / n));
const pct1 = (x: number) => percent(x);

/**
 * The verdict table: counts with their shares, then mean edge precision/recall (percent) of the
 * direct relation (vs the cover relation) and of the closure (vs the surmise relation).
 * The return type is spelt out: a key computed from a parameter (`[groupName]`) does not survive
 * into the declaration file, which notebooks and test/ are type-checked against.
 */
export function graphSummaryTable(rows: readonly GraphSummaryRow[], groupName = 'group', labels: Readonly<Record<string, string>> = {}): Array<Record<string, string | number | boolean | null>> {
  return rows.map((r) => ({
    [groupName]: labels[r.group] ?? r.group,
    responses: r.responses,
    '(a) correct': r.correct,
    '(b) wrong structure, applied': r['wrong-structure'],
    '(c) inconsistent': r.inconsistent,
    '(a) %': pct(r.correct, r.responses),
    '(b) %': pct(r['wrong-structure'], r.responses),
    '(c) %': pct(r.inconsistent, r.responses),
    'follows own graph %': pct(r.consistent, r.responses),
    'own graph gives reference fringe %': pct(r.implied_correct, r.responses),
    'direct P %': pct1(r.direct_precision),
    'direct R %': pct1(r.direct_recall),
    'closure P %': pct1(r.closure_precision),
    'closure R %': pct1(r.closure_recall),
    'graph = cover': r.direct_exact,
    'closure = surmise': r.closure_exact,
    cyclic: r.cyclic,
  }));
}

/**
 * Stacked horizontal bars: share of P1 responses in each verdict per group (percent). The title is left
 * plain: saveFigure marks simulated figures itself.
 */
export function graphVerdictSpec(
  rows: readonly GraphSummaryRow[],
  options: { title: string; labels?: Readonly<Record<string, string>> },
): FigureSpec {
  const y = rows.map((r) => options.labels?.[r.group] ?? r.group);
  const bar = (name: string, color: string, count: (r: GraphSummaryRow) => number, textColour: string) => ({
    type: 'bar',
    orientation: 'h',
    name,
    y,
    x: rows.map((r) => pct(count(r), r.responses)),
    text: rows.map((r) => `${count(r)}`),
    textposition: 'inside',
    insidetextanchor: 'middle',
    textfont: { color: textColour },
    marker: { color },
  });
  // A segment at 0 has no width for its label, and plotly pushes a stacked bar's outside label back
  // inside; so a group's zero verdicts are named once, right of its bar (the stack ends at 100 %).
  const zeroVerdicts: Array<[string, (r: GraphSummaryRow) => number]> = [['(a)', (r) => r.correct], ['(b)', (r) => r['wrong-structure']], ['(c)', (r) => r.inconsistent]];
  const zeroNotes = rows.flatMap((r, i) => {
    const zeros = r.responses === 0 ? [] : zeroVerdicts.filter(([, count]) => count(r) === 0).map(([name]) => `${name} 0`);
    return zeros.length === 0 ? [] : [{ x: 100, y: y[i], xref: 'x', yref: 'y', xanchor: 'left', showarrow: false, text: zeros.join(' · '), font: { size: 11 } }];
  });
  // Okabe–Ito blue, orange and reddish purple: told apart with the common colour-vision deficiencies.
  return {
    data: [
      bar('(a) correct', '#0072B2', (r) => r.correct, 'white'),
      bar('(b) wrong structure, applied consistently', '#E69F00', (r) => r['wrong-structure'], 'black'),
      bar('(c) inconsistent with own graph', '#CC79A7', (r) => r.inconsistent, 'black'),
    ],
    layout: {
      title: { text: options.title },
      barmode: 'stack',
      xaxis: { title: { text: 'Share of valid P1 responses (%)' }, range: [0, 100] },
      yaxis: { autorange: 'reversed' },
      margin: zeroNotes.length === 0 ? { l: 250, b: 130 } : { l: 250, b: 130, r: 120 },
      ...(zeroNotes.length === 0 ? {} : { annotations: zeroNotes }),
      legend: { orientation: 'h', traceorder: 'normal', x: 0, y: -0.22, yanchor: 'top', font: { size: 11 } },
      width: 900,
      height: 240 + 40 * rows.length,
    },
  };
}

/**
 * A set of IDs in a table cell: space-separated, `∅` when empty (so an empty set is not a blank cell).
 * @example
 * idSetCell(['A', 'C']); // => 'A C'
 * idSetCell(['A>B']); // => 'A>B'
 * idSetCell([]); // => '∅'
 */
export function idSetCell(ids: readonly string[]): string {
  return ids.length === 0 ? '∅' : ids.join(' ');
}

/**
 * One flat row per P1 response (for the CSV and for showing examples): sets as space-separated IDs
 * (`∅` for the empty set), pairs as "p>q" (`∅` when none), edge scores unrounded.
 * So pairs [['A','B']] become "A>B" and an empty set "∅" (idSetCell).
 */
export function graphRowsTable(rows: readonly GraphRow[]) {
  return rows.map((r) => ({
    run_id: r.runId,
    model: r.model,
    domain: r.domain,
    order: r.order,
    state: idSetCell(r.state),
    returned_pairs: idSetCell(r.pairs.map(([p, q]) => `${p}>${q}`)),
    self_pairs: r.selfPairs,
    cyclic: r.cyclic,
    recommended: idSetCell(r.recommended),
    reference_fringe: idSetCell(r.reference),
    own_graph_fringe: idSetCell(r.implied),
    verdict: r.verdict,
    follows_own_graph: r.consistent,
    direct_precision: r.direct.precision,
    direct_recall: r.direct.recall,
    closure_precision: r.closure.precision,
    closure_recall: r.closure.recall,
  }));
}

