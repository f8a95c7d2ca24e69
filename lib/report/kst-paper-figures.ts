/**
 * Figures 2 and 3 with the paper's published numbers set into them, and the Figure 3 counts as a table.
 * Built on figure2Spec / figure3Spec (unchanged) by adding to their output.
 */
import type { Condition } from '../conditions';
import type { DomainConditionRow, Table3Row } from '../analysis';
import { zeroBarLabels, type FigureSpec } from '../figures/spec';
import { figure1Spec, figure2Spec, figure3Spec } from './kst-figures';
import type { PublishedKst } from '../records/published-kst';
import type { PublishedKstTables } from './kst-tables';
import { modelLabel } from './mirrors';
import { percent } from '../stats/prints-as';

/** The parts of the published-numbers file (the type its zod schema infers) that these figures and tables read. */
export type PublishedKstFigures = PublishedKstTables & Pick<PublishedKst, 'table1' | 'figure3' | 'overall'>;

/**
 * The paper's Figure 3 counts when the figure being drawn shows the same domain × condition (the paper
 * prints only Graph to Equation × P1), else null.
 */
export function paperFigure3For(published: Pick<PublishedKstFigures, 'figure3'>, domain: string, condition: string): PublishedKstFigures['figure3'] | null {
  return published.figure3.domain === domain && published.figure3.condition === condition ? published.figure3 : null;
}

/**
 * Domains in the paper's order (Table 1: Linear Modelling, Slope, Graph to Equation, Equation to Graph),
 * then any others by id; labels are the domain files' titles. Only domains in `present` are kept.
 */
export function paperDomainOrder(
  published: Pick<PublishedKstFigures, 'table1'>,
  domains: ReadonlyArray<{ id: string; title: string }>,
  present: Iterable<string> = domains.map((d) => d.id),
): { order: string[]; labels: Record<string, string> } {
  const have = new Set(present);
  const paper = published.table1.rows.map((r) => r.domain).filter((d) => have.has(d));
  const rest = [...have].filter((d) => !paper.includes(d)).sort();
  const labels: Record<string, string> = {};
  for (const d of domains) if (have.has(d.id)) labels[d.id] = d.title;
  return { order: [...paper, ...rest], labels };
}

/**
 * Figure 1 with the paper's Table 3 exact and F1 values as markers placed on their own bars (each marker
 * shares the offset group of its bar, with plotly's `scattermode: 'group'`). The title is left plain:
 * saveFigure marks simulated figures itself (watermark and title suffix).
 */
export function figure1WithPaper(rows: readonly Table3Row[], published: PublishedKstTables, options: { simulated: boolean }): FigureSpec {
  const paper = Object.fromEntries(published.table3.rows.map((r) => [r.condition, { exact: r.exact, f1: r.f1 }]));
  const spec = figure1Spec(rows, { simulated: options.simulated, published: paper });
  const groups = ['exact', 'f1', 'exact', 'f1'];
  return {
    data: spec.data.map((trace, i) => ({ ...trace, offsetgroup: groups[i] })),
    layout: { ...spec.layout, title: { text: 'Exact-set accuracy and macro F1 by condition' }, scattermode: 'group' },
  };
}

/**
 * Figure 2 heatmap whose cells also print the paper's value where the paper prints one
 * ("36.4<br>n=22<br>paper 36.4"); the paper's per-domain overall goes into the row label.
 */
export function figure2WithPaper(
  rows: readonly DomainConditionRow[],
  published: PublishedKstTables,
  options: { simulated: boolean; domainOrder: readonly string[]; domainLabels?: Record<string, string> },
): FigureSpec {
  const spec = figure2Spec(rows, options);
  const trace = spec.data[0]!;
  const conditions = trace['x'] as Condition[];
  const text = (trace['text'] as string[][]).map((row, i) =>
    row.map((cell, j) => {
      const paper = published.domains.domain_condition_exact[options.domainOrder[i]!]?.[conditions[j]!];
      return paper === undefined || cell === '' ? cell : `${cell}<br>paper ${paper.toFixed(1)}`;
    }),
  );
  const y = options.domainOrder.map((d, i) => {
    const overall = published.domains.overall_exact[d];
    const label = (trace['y'] as string[])[i]!;
    return overall === undefined ? label : `${label}<br>(paper overall ${overall.toFixed(1)})`;
  });
  return {
    data: [{ ...trace, text, y }],
    layout: { ...spec.layout, title: { text: 'Exact-set accuracy (%) by domain and condition' }, margin: { l: 170 }, width: 780, height: 480 },
  };
}

/**
 * Figure 3 with display labels ("sim-a ≈ Claude Fable 5") and the paper's Figure 3 accuracy of the
 * mirrored model as an open diamond beside each bar (only when the figure shows the paper's domain ×
 * condition; pass `paper: null` otherwise).
 */
export function figure3WithPaper(
  comparison: ReadonlyArray<{ model: string; correct: number; n: number }>,
  mirrors: Readonly<Record<string, string>>,
  options: { simulated: boolean; title: string; paper: { n: number; correct: Record<string, number> } | null },
): FigureSpec {
  const labelled = comparison.map((c) => ({ ...c, model: modelLabel(c.model, mirrors) }));
  const spec = figure3Spec(labelled, options);
  const data = [...spec.data];
  if (options.paper) {
    const { n, correct } = options.paper;
    const reversed = [...comparison].reverse();
    const x = reversed.map((c) => {
      const k = correct[mirrors[c.model] ?? ''];
      return k === undefined ? null : percent(k / n);
    });
    data.push({
      type: 'scatter',
      mode: 'markers',
      name: `Paper (of ${n})`,
      y: reversed.map((c) => modelLabel(c.model, mirrors)),
      x,
      text: reversed.map((c) => {
        const k = correct[mirrors[c.model] ?? ''];
        return k === undefined ? '' : `paper ${k}/${n}`;
      }),
      hoverinfo: 'text',
      // A marker at 100 % sits on the axis end: drawn whole, not clipped.
      cliponaxis: false,
      marker: { symbol: 'diamond-open', size: 12, color: 'black', line: { width: 2 } },
    });
  }
  // Labels inside the bars (white on blue), so the paper's markers near the bar ends do not cover them.
  // A bar at 0 has no inside: its label goes right of the axis, in dark text (zeroBarLabels).
  data[0] = { ...data[0], name: 'Computed', ...zeroBarLabels(data[0]!['x'] as number[], 'inside', '#222222'), insidetextanchor: 'middle', textfont: { color: 'white' } };
  return {
    data,
    layout: {
      ...spec.layout,
      title: { text: options.title },
      // The axis stops at 100 %; the legend sits below the axis title, inside the bottom margin.
      xaxis: { title: { text: 'Exact-set accuracy (%)' }, range: [0, 100], dtick: 20 },
      margin: { l: 250, r: 40, b: 120 },
      height: (spec.layout!['height'] as number) + 60,
      showlegend: true,
      legend: { orientation: 'h', x: 0, xanchor: 'left', y: -0.3, yanchor: 'top' },
    },
  };
}

/** Figure 3's counts as a table: computed k/n beside the mirrored model's published count. */
export function figure3Comparison(
  comparison: ReadonlyArray<{ model: string; correct: number; n: number }>,
  mirrors: Readonly<Record<string, string>>,
  paper: { n: number; correct: Record<string, number> } | null,
) {
  return comparison.map((c) => {
    const k = paper ? paper.correct[mirrors[c.model] ?? ''] : undefined;
    return {
      model: c.model,
      'paper row': mirrors[c.model] ?? null,
      correct: c.correct,
      n: c.n,
      'exact %': percent(c.correct / c.n),
      'correct (paper)': k ?? null,
      'n (paper)': k === undefined ? null : paper!.n,
      'exact % (paper)': k === undefined ? null : percent(k / paper!.n),
    };
  });
}
