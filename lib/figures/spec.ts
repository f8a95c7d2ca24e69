import { readFileSync } from 'node:fs';
import { InputError } from '../errors';
import { escapeHtml } from '../io/html';
import { z } from 'zod';
import { readJsonFile } from '../io/json';

/**
 * A plotly figure as plain data — what `Plotly.newPlot(div, data, layout)` takes. Kept as JSON so the
 * same spec drives the interactive HTML and the static SVG/PNG export, and so it can be compared in tests.
 */
export interface FigureSpec {
  data: Array<Record<string, unknown>>;
  layout?: Record<string, unknown>;
}

export interface FigureOptions {
  /** Shown as the figure title (unless the layout sets one) and as the HTML page title. */
  title: string;
  /** True when the plotted values come from simulated, not collected, data: a watermark says so. */
  simulated: boolean;
  /** Pixel size of the static export (defaults 800 × 500; a layout width/height wins). */
  width?: number;
  height?: number;
}

/** The watermark text put on figures of simulated data. */
export const SIMULATED_LABEL = 'SIMULATED DATA';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Checks a figure or table name (it becomes a file name). */
export function checkOutputName(name: string, what: string): void {
  if (!NAME.test(name) || name.includes('..')) {
    throw new InputError(`${what} name ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-' only`, { item: name });
  }
}

/** Size of the static export: layout width/height, else the options, else 800 × 500. */
export function figureSize(spec: FigureSpec, options: Pick<FigureOptions, 'width' | 'height'>): { width: number; height: number } {
  const layout = spec.layout ?? {};
  const width = typeof layout['width'] === 'number' ? layout['width'] : (options.width ?? 800);
  const height = typeof layout['height'] === 'number' ? layout['height'] : (options.height ?? 500);
  return { width, height };
}

/**
 * The font every figure is drawn in: Open Sans (plotly's own default) is the one family the pinned
 * browser has (lib/figures/browser.ts gives it only its bundled fonts), so the exported SVG and PNG are
 * the same on every machine. The fallbacks matter only where an SVG is shown by another program.
 */
export const FIGURE_FONT_FAMILY = '"Open Sans", Arial, sans-serif';

/**
 * Default trace colours: the Okabe–Ito palette (distinguishable with the common colour-vision
 * deficiencies; no red/green pair), used where a spec does not choose colours itself.
 */
export const COLOURWAY: readonly string[] = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#000000', '#F0E442'];

/** plotly's default margins, used to place the watermark badge in the figure's corner. */
const DEFAULT_MARGIN = { l: 80, r: 80, t: 100, b: 80 };

/**
 * The "SIMULATED DATA" badge: a small boxed label in the top-right corner of the figure, outside the
 * plotting area (so it covers no bar, label or marker). Plotly places annotations in paper coordinates
 * (0–1 over the plotting area), so the figure corner is worked out from the size and margins.
 */
export function watermarkBadge(layout: Record<string, unknown>, width: number, height: number): Record<string, unknown> {
  const margin = { ...DEFAULT_MARGIN, ...((layout['margin'] as Partial<typeof DEFAULT_MARGIN> | undefined) ?? {}) };
  const plotWidth = Math.max(1, width - margin.l - margin.r);
  const plotHeight = Math.max(1, height - margin.t - margin.b);
  const inset = 6;
  return {
    name: 'simulated-data',
    text: SIMULATED_LABEL,
    xref: 'paper',
    yref: 'paper',
    x: (width - margin.l - inset) / plotWidth,
    y: (height - margin.b - inset) / plotHeight,
    xanchor: 'right',
    yanchor: 'top',
    showarrow: false,
    bgcolor: '#fff4d6',
    bordercolor: '#8a6100',
    borderwidth: 1,
    borderpad: 3,
    font: { size: 11, color: '#5c4100' },
  };
}

/**
 * The spec as it is drawn: title filled in from the options when the layout has none, fixed size, the
 * figure font set explicitly (see FIGURE_FONT_FAMILY), the colour-blind-safe colourway unless the spec
 * sets one, and — for simulated data — a "SIMULATED DATA" badge in the top-right corner plus
 * "(simulated data)" after the title, so no copy of the image can pass for real results.
 */
export function finalSpec(spec: FigureSpec, options: FigureOptions): FigureSpec {
  if (!Array.isArray(spec.data)) throw new InputError(`figure "${options.title}": spec.data must be an array of traces`);
  const layout: Record<string, unknown> = { ...(spec.layout ?? {}) };
  const { width, height } = figureSize(spec, options);
  layout['width'] = width;
  layout['height'] = height;
  layout['font'] = { size: 12, color: '#222222', ...((layout['font'] as Record<string, unknown> | undefined) ?? {}), family: FIGURE_FONT_FAMILY };
  if (layout['colorway'] === undefined) layout['colorway'] = [...COLOURWAY];
  if (layout['title'] === undefined) layout['title'] = { text: options.title };
  if (options.simulated) {
    const title = layout['title'];
    const text = typeof title === 'string' ? title : ((title as { text?: string } | null)?.text ?? options.title);
    layout['title'] = { ...(typeof title === 'object' && title !== null ? title : {}), text: `${text} (simulated data)` };
    const annotations = Array.isArray(layout['annotations']) ? [...(layout['annotations'] as unknown[])] : [];
    annotations.push(watermarkBadge(layout, width, height));
    layout['annotations'] = annotations;
  }
  return { data: spec.data, layout };
}

/** JSON safe to place inside an HTML <script> element (no `</script`, `<!--`, or line separators). */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

let bundles: { plotly: string; plotlyVersion: string; seedrandom: string } | undefined;
/** plotly.js-dist-min and seedrandom's browser build, read once (plotly cannot be `require`d in Node). */
export function browserBundles(): { plotly: string; plotlyVersion: string; seedrandom: string } {
  if (!bundles) {
    const plotly = readFileSync(require.resolve('plotly.js-dist-min/plotly.min.js'), 'utf8');
    const seedrandom = readFileSync(require.resolve('seedrandom/seedrandom.min.js'), 'utf8');
    for (const [name, code] of [['plotly', plotly], ['seedrandom', seedrandom]] as const) {
      if (/<\/script/i.test(code)) throw new Error(`${name} bundle contains "</script" and cannot be inlined`);
    }
    const plotlyVersion = readJsonFile(require.resolve('plotly.js-dist-min/package.json'), z.object({ version: z.string() })).version;
    bundles = { plotly, plotlyVersion, seedrandom };
  }
  return bundles;
}

/** The seed of a figure page's Math.random (plotly draws element ids from it). */
export function figureSeed(name: string): string {
  return `kstbench-figure:${name}`;
}

/**
 * A self-contained interactive HTML page for the figure: seedrandom and plotly inlined (no network),
 * Math.random seeded from the figure name before plotly loads, so the page — and the SVG exported from
 * it — is the same on every run. Sets `window.__figureReady` once drawn (or `window.__figureError`).
 */
export function figureHtml(name: string, spec: FigureSpec, options: FigureOptions): string {
  const { plotly, plotlyVersion, seedrandom } = browserBundles();
  const drawn = finalSpec(spec, options);
  const { width, height } = figureSize(drawn, options);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeHtml(options.title)}</title>`,
    `<meta name="kstbench-figure" content="${escapeHtml(name)}">`,
    `<meta name="kstbench-simulated" content="${options.simulated ? 'true' : 'false'}">`,
    '<style>body{margin:0;background:#fff}</style>',
    `<script>/* seedrandom (Math.random seeded: ${escapeHtml(figureSeed(name))}) */\n${seedrandom}\nMath.seedrandom(${scriptJson(figureSeed(name))});</script>`,
    `<script>/* plotly.js-dist-min ${plotlyVersion} */\n${plotly}</script>`,
    '</head>',
    '<body>',
    `<div id="figure" style="width:${width}px;height:${height}px"></div>`,
    '<script>',
    `var spec = ${scriptJson(drawn)};`,
    "Plotly.newPlot('figure', spec.data, spec.layout, {displaylogo: false, responsive: false})",
    '  .then(function () { window.__figureReady = true; })',
    '  .catch(function (e) { window.__figureError = String(e && e.stack || e); });',
    '</script>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Value-label placement for one bar trace whose labels sit `position` (e.g. 'inside'): a bar at 0 has
 * no inside, so plotly would draw no label for it; such bars get 'outside' (just past the bar's base)
 * and, as outside labels sit on the page background, `outsideColour`. With no bar at 0 the trace keeps
 * `position` as it was, so existing figures do not change.
 * @example
 * zeroBarLabels([0, 12.5], 'inside', '#222222'); // => { textposition: ['outside', 'inside'], outsidetextfont: { color: '#222222' } }
 * zeroBarLabels([3, 12.5], 'inside', '#222222'); // => { textposition: 'inside' }
 */
export function zeroBarLabels(values: ReadonlyArray<number | null>, position: string, outsideColour: string): { textposition: string | string[]; outsidetextfont?: { color: string } } {
  if (!values.some((v) => v === 0)) return { textposition: position };
  return { textposition: values.map((v) => (v === 0 ? 'outside' : position)), outsidetextfont: { color: outsideColour } };
}
