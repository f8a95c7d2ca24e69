/**
 * Plotly figure specifications for the PSI notebooks ([PSI-2026]'s Figure 1, regeneration before/after,
 * sensitivity), as plain data (no plotly import): tested here, rendered and exported by lib/figures.
 * PSI values are on 0–1. Where the paper prints a value it is drawn as a black open diamond. The specs
 * carry no simulated-data note themselves: lib/figures `saveFigure(name, spec, { simulated: true })`
 * adds the watermark and the title suffix, so the flag is given once, where the figure is drawn.
 */
import type { RegenerationPair } from '../psi/aggregate';
import { DEFAULT_PSI_PARAMETERS } from '../psi/parameters';
import type { FigureSpec } from '../figures/spec';

const PAPER_MARKER = { symbol: 'diamond-open', size: 12, color: 'black', line: { width: 2 } };
const label = (names: Readonly<Record<string, string>> | undefined, model: string) =>
  names?.[model] ? `${model} (≈ ${names[model]})` : model;

type BloomRow = { model: string; level: number; levelName: string; n: number; psi: number };
type PooledBloomRow = { level: number; levelName: string; n: number; psi: number };

/**
 * Figure 1: mean PSI by target Bloom level, one line per model plus the mean over all models (dashed
 * black), with the paper's cross-model means (`published`, keyed by lower-case level name, e.g.
 * { remember: 0.6, analyze: 0.56 }) as diamonds. `names` maps a model to the paper model it mirrors.
 */
export function bloomFigureSpec(
  perModel: readonly BloomRow[],
  pooled: readonly PooledBloomRow[],
  options: { names?: Readonly<Record<string, string>>; published?: Readonly<Record<string, number>> },
): FigureSpec {
  const levels = pooled.map((p) => p.levelName);
  const models = [...new Set(perModel.map((r) => r.model))].sort();
  const data: Array<Record<string, unknown>> = models.map((model) => {
    const rows = pooled.map((p) => perModel.find((r) => r.model === model && r.level === p.level));
    return {
      type: 'scatter',
      mode: 'lines+markers',
      name: label(options.names, model),
      x: levels,
      y: rows.map((r) => r?.psi ?? null),
      customdata: rows.map((r) => r?.n ?? 0),
      hovertemplate: '%{x}: PSI %{y:.3f} (n = %{customdata})<extra>%{fullData.name}</extra>',
    };
  });
  data.push({
    type: 'scatter',
    mode: 'lines+markers',
    name: 'all models',
    x: levels,
    y: pooled.map((p) => p.psi),
    line: { dash: 'dash', color: 'black', width: 3 },
    marker: { color: 'black' },
  });
  if (options.published) {
    const pub = levels.map((l) => options.published![l.toLowerCase()] ?? null);
    if (pub.some((v) => v !== null)) {
      data.push({ type: 'scatter', mode: 'markers', name: 'paper: cross-model mean', x: levels, y: pub, marker: PAPER_MARKER });
    }
  }
  return {
    data,
    layout: {
      title: { text: `Mean PSI by target Bloom level` },
      xaxis: { title: { text: 'Target Bloom level (n = scenarios × models)' }, type: 'category', ticktext: pooled.map((p) => `${p.levelName}<br>n=${p.n}`), tickvals: levels },
      yaxis: { title: { text: 'Mean PSI' } },
      legend: { orientation: 'h', y: -0.3 },
      width: 780,
      height: 500,
    },
  };
}

/**
 * Regeneration before/after: one column per regenerated case (grouped by model, lowest round-1 PSI
 * first), an open circle at the round-1 PSI, a filled one at the round-2 PSI, joined by a solid blue
 * segment when PSI rose and a dotted vermillion one when it did not (Okabe–Ito colours and two line
 * styles: no red/green pair). `threshold` draws the selection threshold.
 */
export function regenerationFigureSpec(
  pairs: readonly RegenerationPair[],
  options: { names?: Readonly<Record<string, string>>; threshold?: number | null },
): FigureSpec {
  const sorted = [...pairs].sort(
    (a, b) =>
      (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) ||
      a.before.psi - b.before.psi ||
      (a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : 0),
  );
  const x = sorted.map((_, i) => i + 1);
  const hover = sorted.map((p) => `${p.model} ${p.scenario}: ${p.before.psi.toFixed(3)} → ${p.after.psi.toFixed(3)}`);
  const segments = (improved: boolean) => {
    const xs: Array<number | null> = [];
    const ys: Array<number | null> = [];
    sorted.forEach((p, i) => {
      if (p.after.psi > p.before.psi !== improved) return;
      xs.push(i + 1, i + 1, null);
      ys.push(p.before.psi, p.after.psi, null);
    });
    return { xs, ys };
  };
  const up = segments(true);
  const down = segments(false);
  const improvedCount = sorted.filter((p) => p.after.psi > p.before.psi).length;
  const data: Array<Record<string, unknown>> = [
    { type: 'scatter', mode: 'lines', name: `PSI rose (${improvedCount})`, x: up.xs, y: up.ys, line: { color: '#0072B2', width: 2 }, hoverinfo: 'skip' },
    { type: 'scatter', mode: 'lines', name: `PSI did not rise (${sorted.length - improvedCount})`, x: down.xs, y: down.ys, line: { color: '#D55E00', width: 2.5, dash: 'dot' }, hoverinfo: 'skip' },
    { type: 'scatter', mode: 'markers', name: 'round 1 (before)', x, y: sorted.map((p) => p.before.psi), text: hover, hoverinfo: 'text', marker: { symbol: 'circle-open', size: 7, color: '#222222', line: { width: 1.5 } } },
    { type: 'scatter', mode: 'markers', name: 'round 2 (after)', x, y: sorted.map((p) => p.after.psi), text: hover, hoverinfo: 'text', marker: { symbol: 'circle', size: 7, color: '#222222' } },
  ];
  // Model groups: a divider before each group after the first, and the model's name above its columns.
  const shapes: Array<Record<string, unknown>> = [];
  const annotations: Array<Record<string, unknown>> = [];
  let start = 0;
  for (let i = 1; i <= sorted.length; i++) {
    if (i === sorted.length || sorted[i]!.model !== sorted[start]!.model) {
      const model = sorted[start]!.model;
      annotations.push({
        x: (start + 1 + i) / 2,
        y: 1.02,
        xref: 'x',
        yref: 'paper',
        yanchor: 'bottom',
        showarrow: false,
        text: `${options.names?.[model] ? `≈ ${options.names[model]}` : model}<br>n=${i - start}`,
        font: { size: 11 },
      });
      if (i < sorted.length) shapes.push({ type: 'line', xref: 'x', yref: 'paper', x0: i + 0.5, x1: i + 0.5, y0: 0, y1: 1, line: { color: '#999', dash: 'dot', width: 1 } });
      start = i;
    }
  }
  if (options.threshold !== undefined && options.threshold !== null) {
    shapes.push({ type: 'line', xref: 'paper', yref: 'y', x0: 0, x1: 1, y0: options.threshold, y1: options.threshold, line: { color: '#888', dash: 'dash', width: 1 } });
    annotations.push({ xref: 'paper', yref: 'y', x: 1, y: options.threshold, xanchor: 'right', yanchor: 'bottom', showarrow: false, text: `selection threshold ${options.threshold}`, font: { size: 10, color: '#666' } });
  }
  return {
    data,
    layout: {
      title: { text: `PSI before and after PSI-guided regeneration, per case`, y: 0.97 },
      xaxis: { title: { text: 'Regenerated case (grouped by model, lowest round-1 PSI first)' }, range: [0.3, sorted.length + 0.7], showgrid: false },
      yaxis: { title: { text: 'PSI' } },
      shapes,
      annotations,
      margin: { t: 110 },
      legend: { orientation: 'h', y: -0.22 },
      width: 980,
      height: 520,
    },
  };
}

/**
 * δ_opt sensitivity: mean PSI per model against δ_opt (lines), with a dotted vertical line at the
 * baseline δ_opt (default 0.65, the paper's value; labelled as the paper's only when it is, and
 * `paper` is not false: a study that does not replicate [PSI-2026] calls it the baseline).
 */
export function deltaSensitivitySpec(
  result: ReadonlyArray<{ delta: number; perModel: ReadonlyArray<{ model: string; psi: number }> }>,
  options: { names?: Readonly<Record<string, string>>; baseline?: number; paper?: boolean },
): FigureSpec {
  const baseline = options.baseline ?? 0.65;
  const paperValue = options.paper !== false && baseline === DEFAULT_PSI_PARAMETERS.deltaOpt;
  const models = [...new Set(result.flatMap((r) => r.perModel.map((m) => m.model)))].sort();
  return {
    data: models.map((model) => ({
      type: 'scatter',
      mode: 'lines+markers',
      name: label(options.names, model),
      x: result.map((r) => r.delta),
      y: result.map((r) => r.perModel.find((m) => m.model === model)?.psi ?? null),
    })),
    layout: {
      title: { text: `Mean PSI (standard prompts) under different δ_opt` },
      xaxis: { title: { text: 'δ_opt (target share of familiar concepts)' } },
      yaxis: { title: { text: 'Mean PSI' } },
      shapes: [{ type: 'line', xref: 'x', yref: 'paper', x0: baseline, x1: baseline, y0: 0, y1: 1, line: { color: '#666', dash: 'dot' } }],
      annotations: [{ xref: 'x', yref: 'paper', x: baseline, y: 1, yanchor: 'bottom', showarrow: false, text: `${paperValue ? 'paper' : 'baseline'} δ_opt = ${baseline}`, font: { size: 11 } }],
      legend: { orientation: 'h', y: -0.25 },
      width: 760,
      height: 480,
    },
  };
}
