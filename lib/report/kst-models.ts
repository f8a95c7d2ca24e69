/**
 * Model-level views of [KST-2026] §4.5.2 that Table 4 alone does not show: each model's average over the
 * conditions, the P1 leaders by domain beside the paper's, and model × domain × condition accuracy as a
 * table and as a small-multiples figure (one panel per domain). Pure functions: notebooks render them.
 */
import { CONDITIONS } from '../conditions';
import type { ModelDomainConditionRow } from '../analysis/breakdowns';
import type { PublishedKst } from '../records/published-kst';
import { COLOURWAY, type FigureSpec } from '../figures/spec';
import { modelLabel } from './mirrors';
import { pct } from './overall';


/** Each model's mean over the four conditions beside the mean of its mirrored paper row (percent). */
export function modelAveragesTable(
  averages: ReadonlyArray<{ model: string; conditions: number; average: number }>,
  published: PublishedKst,
  mirrors: Readonly<Record<string, string>>,
) {
  return averages.map((a) => {
    const paper = published.table4.rows.find((r) => r.model === mirrors[a.model]);
    return {
      model: a.model,
      'paper row': mirrors[a.model] ?? null,
      conditions: a.conditions,
      'average (%)': pct(a.average),
      'average (paper, %)': paper ? (paper.P0[0] + paper.P1[0] + paper.P2[0] + paper.P3[0]) / 4 : null,
    };
  });
}

/** Model × domain × condition in a wide layout: one row per model × domain, one column per condition ("73.9 (1)" = accuracy and rank in its cell). */
export function modelDomainTable(rows: readonly ModelDomainConditionRow[], mirrors: Readonly<Record<string, string>>, domainOrder: readonly string[]) {
  const models = [...new Set(rows.map((r) => r.model))].sort();
  const out: Array<Record<string, string | number | null>> = [];
  for (const domain of domainOrder) {
    for (const model of models) {
      const line: Record<string, string | number | null> = { domain, model: modelLabel(model, mirrors) };
      for (const c of CONDITIONS) {
        const r = rows.find((x) => x.model === model && x.domain === domain && x.condition === c);
        line[c] = r ? `${pct(r.exact).toFixed(1)} (${r.rank})` : null;
      }
      out.push(line);
    }
  }
  return out;
}

/** Under one condition, each domain's leader(s) and top score beside the paper's (§4.5.2 prints P1). */
export function leadersTable(
  leaders: ReadonlyArray<{ domain: string; condition: string; top: number; leaders: string[]; models: number }>,
  published: PublishedKst,
  mirrors: Readonly<Record<string, string>>,
  condition = 'P1',
) {
  return leaders
    .filter((l) => l.condition === condition)
    .map((l) => {
      const paper = condition === 'P1' ? published.p1_by_domain.leaders[l.domain] : undefined;
      return {
        domain: l.domain,
        'highest (%)': pct(l.top),
        'highest (paper, %)': paper?.[1] ?? null,
        leaders: l.leaders.map((m) => modelLabel(m, mirrors)).join(' / '),
        'leaders (paper)': paper?.[0] ?? null,
        'models at the top': l.leaders.length,
      };
    });
}

/**
 * Small multiples: one panel per domain (in `domainOrder`), condition on the x axis, exact-set accuracy
 * on the y axis, one line per model (same colour in every panel, legend once).
 */
export function modelDomainFigureSpec(
  rows: readonly ModelDomainConditionRow[],
  options: { domainOrder: readonly string[]; domainLabels?: Readonly<Record<string, string>>; mirrors?: Readonly<Record<string, string>> },
): FigureSpec {
  const models = [...new Set(rows.map((r) => r.model))].sort();
  // The project's colour-blind-safe palette, fixed per model so a model keeps its colour in every panel.
  const palette = COLOURWAY;
  const data: Array<Record<string, unknown>> = [];
  options.domainOrder.forEach((domain, i) => {
    const axis = i === 0 ? '' : String(i + 1);
    models.forEach((model, j) => {
      const cells = CONDITIONS.map((c) => rows.find((r) => r.model === model && r.domain === domain && r.condition === c));
      data.push({
        type: 'scatter',
        mode: 'lines+markers',
        name: modelLabel(model, options.mirrors ?? {}),
        legendgroup: model,
        showlegend: i === 0,
        x: [...CONDITIONS],
        y: cells.map((r) => (r ? pct(r.exact) : null)),
        line: { color: palette[j % palette.length] },
        xaxis: `x${axis}`,
        yaxis: `y${axis}`,
      });
    });
  });
  const layout: Record<string, unknown> = {
    title: { text: 'Exact-set accuracy by model, domain and condition' },
    grid: { rows: 1, columns: options.domainOrder.length, pattern: 'independent' },
    legend: { orientation: 'h', y: -0.32 },
    width: 1100,
    height: 500,
    annotations: options.domainOrder.map((d, i) => ({
      text: options.domainLabels?.[d] ?? d,
      showarrow: false,
      xref: `x${i === 0 ? '' : i + 1} domain`,
      yref: 'paper',
      x: 0.5,
      y: 1.04,
      xanchor: 'center',
      yanchor: 'bottom',
    })),
  };
  options.domainOrder.forEach((_d, i) => {
    const suffix = i === 0 ? '' : String(i + 1);
    layout[`yaxis${suffix}`] = { range: [0, 105], ...(i === 0 ? { title: { text: 'Exact-set accuracy (%)' } } : {}) };
    layout[`xaxis${suffix}`] = { title: { text: 'condition' } };
  });
  return { data, layout };
}
