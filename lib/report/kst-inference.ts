/**
 * What notebook 06 shows besides the contrast table: a contrast's
 * bootstrap distribution (re-drawn with the very seed the analysis used, so its percentiles are the
 * interval in the table), a histogram of it, and the seeds of every draw.
 */
import { InputError } from '../errors';
import type { ContrastRow, InferenceOptions } from '../analysis';
import { contrastDifferences } from '../analysis/contrasts';
import type { ScoredRecord } from '../analysis/score';
import { bootstrapMeans } from '../stats';
import type { FigureSpec } from '../figures/spec';
import { contrastComparison, type PublishedKstTables } from './kst-tables';
import { formatP } from './contrast-text';

// The state-level differences are lib/analysis's own (the ones the contrast table is computed from).
export { contrastDifferences };

/**
 * The row of `contrast` (e.g. "P2-P1") and `metric` ("exact" or "f1"), for the notebook's
 * `histogramContrast` / `histogramMetric` parameters; any other pair is refused in one line naming
 * the ones there are.
 * @example
 * const rows = [{ contrast: 'P2-P1', metric: 'exact' }, { contrast: 'P2-P1', metric: 'f1' }] as never;
 * contrastRow(rows, 'P2-P1', 'f1').metric; // => 'f1'
 * contrastRow(rows, 'P2-P0', 'exact'); // throws /^no contrast P2-P0 \/ exact: the contrasts are P2-P1, the metrics exact, f1$/
 */
export function contrastRow(rows: readonly ContrastRow[], contrast: string, metric: string): ContrastRow {
  const row = rows.find((r) => r.contrast === contrast && r.metric === metric);
  if (row) return row;
  const names = (pick: (r: ContrastRow) => string) => [...new Set(rows.map(pick))].join(', ');
  throw new InputError(`no contrast ${contrast} / ${metric}: the contrasts are ${names((r) => r.contrast)}, the metrics ${names((r) => r.metric)}`, { item: `${contrast}/${metric}` });
}

/**
 * The bootstrap means behind a contrast row's interval: the same differences, resample count and seed
 * (`<row.seed>:bootstrap`) as the analysis, so percentiles 2.5 and 97.5 of the result are ci_low and ci_high.
 */
export function bootstrapDistribution(scored: readonly ScoredRecord[], row: ContrastRow, resamples: number): Float64Array {
  const { differences } = contrastDifferences(scored, row.contrast, row.metric);
  if (differences.length === 0) return new Float64Array(0);
  return bootstrapMeans(differences, resamples, `${row.seed}:bootstrap`);
}

/** Every seed string the inference drew from, one row per contrast, for the record. */
export function inferenceSeeds(rows: readonly ContrastRow[], options: InferenceOptions) {
  return rows.map((r) => ({
    contrast: r.contrast,
    metric: r.metric,
    states: r.states,
    'bootstrap seed': `${r.seed}:bootstrap`,
    resamples: options.resamples,
    'sign-flip seed': `${r.seed}:signflip`,
    flips: options.flips,
    generator: 'seedrandom.alea',
  }));
}

/**
 * Histogram (percentage points) of a contrast's bootstrap means, with vertical lines at the estimate and
 * the interval ends (solid and dotted), and — when given — the paper's estimate (dashed) and interval
 * (dash-dot) in black; notebook 06's prose names these styles (test/notebook/prose.test.ts). The title is
 * left plain: saveFigure marks simulated figures itself.
 */
/** Vermillion (Okabe–Ito) lines for the computed estimate and interval, black for the paper's, over light-blue bars. */
const COMPUTED_LINE = '#D55E00';

export function bootstrapHistogramSpec(
  means: ArrayLike<number>,
  row: ContrastRow,
  options: { published?: { estimate: number; ci_low?: number; ci_high?: number } } = {},
): FigureSpec {
  const x = Array.from(means, (m) => Math.round(m * 1e6) / 1e4);
  // Computed labels just above the plot, the paper's one row higher, so close lines stay readable.
  const line = (at: number, color: string, dash: string, label: string, row = 0) => ({
    shape: { type: 'line', xref: 'x', yref: 'paper', x0: at, x1: at, y0: 0, y1: 1, line: { color, width: 2, dash } },
    annotation: { xref: 'x', yref: 'paper', x: at, y: 1.02 + 0.07 * row, yanchor: 'bottom', text: label, showarrow: false, font: { size: 11, color } },
  });
  const lines = [];
  if (row.estimate !== null) {
    lines.push(line(row.estimate * 100, COMPUTED_LINE, 'solid', 'estimate'));
    lines.push(line(row.ci_low! * 100, COMPUTED_LINE, 'dot', '2.5%'), line(row.ci_high! * 100, COMPUTED_LINE, 'dot', '97.5%'));
  }
  const p = options.published;
  if (p) {
    lines.push(line(p.estimate, 'black', 'dash', 'paper estimate', 1));
    if (p.ci_low !== undefined && p.ci_high !== undefined) lines.push(line(p.ci_low, 'black', 'dashdot', 'paper 2.5%', 1), line(p.ci_high, 'black', 'dashdot', 'paper 97.5%', 1));
  }
  const metric = row.metric === 'exact' ? 'exact-set accuracy' : 'macro F1';
  return {
    data: [{ type: 'histogram', x, nbinsx: 60, name: 'bootstrap means', marker: { color: '#9ecae1' } }],
    layout: {
      title: {
        text: `Bootstrap distribution of ${row.contrast} (${metric}), ${x.length.toLocaleString('en-US')} resamples`,
      },
      xaxis: { title: { text: 'Mean state-level difference (percentage points)' } },
      yaxis: { title: { text: 'Resamples' } },
      shapes: lines.map((l) => l.shape),
      annotations: lines.map((l) => l.annotation).filter((a) => a.text !== ''),
      showlegend: false,
      margin: { t: 110 },
      width: 760,
      height: 460,
    },
  };
}

/**
 * contrastComparison for display: p values as the paper prints them (".6022", "< .0001") instead of
 * raw doubles, which a fixed number of decimals would show as a misleading 0.0000.
 */
export function contrastTable(rows: readonly ContrastRow[], published: PublishedKstTables) {
  const p = (x: number | null) => (x === null ? null : formatP(x).replace(/^= /, ''));
  const paper = (x: number | string | null) => (typeof x === 'number' ? p(x) : x === null ? null : x.replace('0.', '.'));
  return contrastComparison(rows, published).map((r) => ({ ...r, p: p(r.p), p_holm: p(r.p_holm), 'p_holm (paper)': paper(r['p_holm (paper)']) }));
}
