/**
 * Plotly figure specifications for the KST paper's Figures 1–3, as plain data (no plotly import), so that
 * they can be tested, rendered in a notebook, and exported by lib/figures. Percentages are on 0–100.
 */
import { CONDITION_LABELS, CONDITIONS, type Condition } from '../conditions';
import type { DomainConditionRow, Table3Row } from '../analysis';
import type { ScoredRecord } from '../analysis/score';
import { markSimulated } from './simulated';
import { percent } from '../stats/prints-as';

import { zeroBarLabels, type FigureSpec } from '../figures/spec';


/**
 * Figure 1: exact-set accuracy and macro F1 per condition, as grouped bars labelled with their values.
 * `published` (percent per condition) adds the paper's values as markers beside the bars.
 */
export function figure1Spec(
  rows: readonly Table3Row[],
  options: { simulated: boolean; published?: Partial<Record<Condition, { exact: number; f1: number }>> },
): FigureSpec {
  const x = rows.map((r) => `${r.condition}<br>${CONDITION_LABELS[r.condition]}`);
  // Values inside the bars, at their base: clear of the paper's markers near the bar tops and of the
  // plot's top edge (a 99.0 bar). White on blue, black on orange (Okabe–Ito, readable by contrast).
  const bar = (name: string, values: number[], colour: string, textColour: string) => ({
    type: 'bar',
    name,
    x,
    y: values,
    text: values.map((v) => v.toFixed(1)),
    // A bar at 0 has no inside: its label goes just above the axis, in dark text (zeroBarLabels).
    ...zeroBarLabels(values, 'inside', '#222222'),
    insidetextanchor: 'start',
    textangle: 0,
    textfont: { color: textColour, size: 12 },
    marker: { color: colour },
  });
  const data: Array<Record<string, unknown>> = [
    bar('Exact set', rows.map((r) => percent(r.exact)), '#0072B2', 'white'),
    bar('Macro F1', rows.map((r) => percent(r.f1)), '#E69F00', 'black'),
  ];
  if (options.published) {
    const pub = rows.map((r) => options.published![r.condition]);
    data.push(
      { type: 'scatter', mode: 'markers', name: 'Paper: exact', x, y: pub.map((p) => p?.exact ?? null), cliponaxis: false, marker: { symbol: 'diamond-open', size: 11, color: 'black', line: { width: 2 } } },
      { type: 'scatter', mode: 'markers', name: 'Paper: F1', x, y: pub.map((p) => p?.f1 ?? null), cliponaxis: false, marker: { symbol: 'x-thin-open', size: 11, color: 'black', line: { width: 2 } } },
    );
  }
  return {
    data,
    layout: {
      title: { text: markSimulated('Exact-set accuracy and macro F1 by condition', options.simulated, 'responses') },
      barmode: 'group',
      yaxis: { title: { text: 'Percent' }, range: [0, 100], dtick: 20 },
      legend: { orientation: 'h', y: -0.25 },
      width: 760,
      height: 480,
    },
  };
}

/**
 * Figure 2's colour scale: viridis colours (perceptually ordered, colour-blind-safe) with most of the
 * range spent above 80 %, where the P2/P3 cells sit, so 94, 96 and 99 % get visibly different colours.
 */
export const FIGURE2_COLOURSCALE: ReadonlyArray<[number, string]> = [
  [0, '#440154'],
  [0.5, '#3b528b'],
  [0.8, '#21918c'],
  [0.9, '#5ec962'],
  [0.95, '#b5de2b'],
  [1, '#fde725'],
];

/**
 * Figure 2: heatmap of exact-set accuracy by domain (rows, in `domainOrder`) and condition (columns),
 * each cell annotated with its percentage and n.
 */
export function figure2Spec(
  rows: readonly DomainConditionRow[],
  options: { simulated: boolean; domainOrder: readonly string[]; domainLabels?: Record<string, string> },
): FigureSpec {
  const conditions = CONDITIONS.filter((c) => rows.some((r) => r.condition === c));
  const cell = (d: string, c: Condition) => rows.find((r) => r.domain === d && r.condition === c);
  const z = options.domainOrder.map((d) => conditions.map((c) => (cell(d, c) ? percent(cell(d, c)!.exact) : null)));
  const text = options.domainOrder.map((d) => conditions.map((c) => (cell(d, c) ? `${percent(cell(d, c)!.exact).toFixed(1)}<br>n=${cell(d, c)!.n}` : '')));
  return {
    data: [
      {
        type: 'heatmap',
        x: conditions,
        y: options.domainOrder.map((d) => options.domainLabels?.[d] ?? d),
        z,
        text,
        texttemplate: '%{text}',
        zmin: 0,
        zmax: 100,
        colorscale: FIGURE2_COLOURSCALE,
        colorbar: { title: { text: 'Exact %' }, tickvals: [0, 50, 80, 90, 95, 100], ticktext: ['0', '50', '80', '90', '95', '100'] },
        xgap: 1,
        ygap: 1,
      },
    ],
    layout: {
      title: { text: markSimulated('Exact-set accuracy by domain and condition', options.simulated, 'responses') },
      yaxis: { autorange: 'reversed' },
      width: 720,
      height: 420,
    },
  };
}

/** Figure 3: horizontal bars of exact-set accuracy per model, labelled "xx.x% (k/n)", best on top. */
export function figure3Spec(
  comparison: ReadonlyArray<{ model: string; correct: number; n: number }>,
  options: { simulated: boolean; title: string },
): FigureSpec {
  const reversed = [...comparison].reverse();
  const x = reversed.map((c) => percent(c.correct / c.n));
  return {
    data: [
      {
        type: 'bar',
        orientation: 'h',
        y: reversed.map((c) => c.model),
        x,
        text: reversed.map((c) => `${percent(c.correct / c.n).toFixed(1)}% (${c.correct}/${c.n})`),
        // Inside the bar when it fits, else just right of it: the axis can stop at 100 %. A bar at 0
        // is labelled right of the axis (zeroBarLabels).
        ...zeroBarLabels(x, 'auto', '#222222'),
        insidetextanchor: 'middle',
        cliponaxis: false,
        marker: { color: '#0072B2' },
      },
    ],
    layout: {
      title: { text: markSimulated(options.title, options.simulated, 'responses') },
      xaxis: { title: { text: 'Exact-set accuracy (%)' }, range: [0, 100], dtick: 20 },
      margin: { l: 180 },
      width: 760,
      height: 120 + 45 * comparison.length,
    },
  };
}
