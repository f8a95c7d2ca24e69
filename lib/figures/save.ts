import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { releaseTemporary, trackTemporary } from '../io/temporaries';
import { tmpdir } from 'node:os';
import { outputBase } from './output-root';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { InputError } from '../errors';
import { writeFilesAtomic } from '../io/atomic';
import { sortKeysDeep } from '../notebook/ipynb';
import { projectRoot } from '../notebook/project';
import { withPage } from './browser';
import { checkOutputName, figureHtml, figureSize, finalSpec, type FigureOptions, type FigureSpec } from './spec';
import { showBundle, showMarkdown, type DisplayBundle } from './display';

/** What `saveFigure` wrote, with helpers to show it in the notebook cell. */
export interface SavedFigure {
  name: string;
  files: { html: string; svg: string; png: string; json: string };
  /** The static SVG (vector, for print). */
  svg: string;
  /** The PNG at PNG_SCALE × the figure's size. */
  png: Buffer;
  /** The MIME bundle `show()` displays (see figureBundle). */
  bundle: DisplayBundle;
  /** Displays the figure in the current notebook cell plus a link to the interactive HTML. */
  show(): void;
}

export interface SaveFigureOptions extends FigureOptions {
  /** Output folder; default `<project>/figures`. */
  dir?: string;
  /** Folder the notebooks live in, for the relative link to the HTML; default `<project>/notebooks`. */
  notebookDir?: string;
}

/** Decodes a `data:` URL as returned by Plotly.toImage (percent-encoded or base64). */
export function decodeDataUrl(url: string): Buffer {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0) throw new Error(`not a data URL: ${url.slice(0, 40)}`);
  const header = url.slice(0, comma);
  const body = url.slice(comma + 1);
  return header.endsWith(';base64') ? Buffer.from(body, 'base64') : Buffer.from(decodeURIComponent(body), 'utf8');
}

/** PNGs are exported at twice the figure's size (print resolution; sharp on high-density screens). */
export const PNG_SCALE = 2;

/** Attributes of the root <svg> element in the order canonicalSvg writes them; others follow by name. */
const SVG_ROOT_ORDER = ['class', 'xmlns', 'xmlns:xlink', 'width', 'height', 'viewBox', 'style'];

/**
 * Plotly's SVG export with its root element's attributes in one fixed order, and an empty `style=""`
 * left out. Plotly sets the root's `style` at a moment that depends on timing (under load it comes
 * before or after `viewBox`), which changed the bytes of an otherwise identical SVG from run to run.
 * @example
 * canonicalSvg('<svg class="main-svg" width="9" viewBox="0 0 9 9" style=""></svg>'); // => '<svg class="main-svg" width="9" viewBox="0 0 9 9"></svg>'
 */
export function canonicalSvg(svg: string): string {
  const root = /^<svg\b([^>]*)>/.exec(svg);
  if (!root) throw new Error(`plotly's SVG export does not start with <svg: ${svg.slice(0, 40)}`);
  const attrs = [...root[1]!.matchAll(/\s([A-Za-z_:][-A-Za-z0-9_:.]*)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!] as const);
  const rank = (name: string) => (SVG_ROOT_ORDER.includes(name) ? SVG_ROOT_ORDER.indexOf(name) : SVG_ROOT_ORDER.length);
  const kept = attrs
    .filter(([name, value]) => !(name === 'style' && value.trim() === ''))
    .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return `<svg${kept.map(([name, value]) => ` ${name}="${value}"`).join('')}>${svg.slice(root[0].length)}`;
}

/** What a figure's sidecar `figures/<name>.json` records: enough to check the exported SVG/PNG against. */
export interface FigureManifest {
  name: string;
  /** The title as drawn (after finalSpec: "(simulated data)" appended when simulated). */
  title: string;
  simulated: boolean;
  width: number;
  height: number;
  /** Number of traces in the spec. */
  traces: number;
  /** Each trace's plotly type, in spec order (plotly's default "scatter" when the trace gives none). */
  types: string[];
  /** The PNG holds pngScale × width by pngScale × height pixels. */
  pngScale: number;
}

/**
 * The manifest of a figure, computed from the spec in Node (not from the browser), so a test can compare
 * what Chromium drew with what was asked for.
 * @example
 * const m = figureManifest('f', { data: [{ type: 'bar', x: ['a'], y: [1] }], layout: {} }, { title: 'T', simulated: true });
 * [m.name, m.title, m.simulated, m.traces, m.types, m.width, m.height]; // => ['f', 'T (simulated data)', true, 1, ['bar'], 800, 500]
 */
export function figureManifest(name: string, spec: FigureSpec, options: FigureOptions): FigureManifest {
  const drawn = finalSpec(spec, options);
  const { width, height } = figureSize(drawn, options);
  const title = drawn.layout?.['title'];
  const text = typeof title === 'string' ? title : String((title as { text?: unknown } | undefined)?.text ?? options.title);
  const types = drawn.data.map((trace) => (typeof trace['type'] === 'string' ? trace['type'] : 'scatter'));
  return { name, title: text, simulated: options.simulated, width, height, traces: types.length, types, pngScale: PNG_SCALE };
}

/** The `text/plain` of a figure's output: what a viewer without images shows. */
export function figureAltText(name: string, title: string): string {
  return `[figure ${name}: ${title}]`;
}

/**
 * The MIME bundle a figure cell shows, chosen so the figure appears in every common viewer:
 *
 * - `image/png` at PNG_SCALE ×, with `width`/`height` metadata so it is drawn at the figure's size
 *   (JupyterLab, classic Notebook 6, VS Code, nbconvert 6 and 7, GitHub all render PNG, trusted or not);
 * - `application/vnd.plotly.v1+json`, the plotly spec, which front ends with a plotly renderer (VS Code,
 *   JupyterLab with plotly's extension) draw interactively — the others skip it and show the PNG;
 * - `text/plain` naming the figure.
 *
 * No `image/svg+xml` and no `text/html`: nbconvert prefers either over the PNG, and its HTML cleaner
 * strips inline SVG (a blank figure in Debian 12's nbconvert 6.5). `metadata.kstbench.figure` names the
 * figure, so tests can find which cell shows which file.
 */
export function figureBundle(name: string, drawn: FigureSpec, png: Buffer, size: { width: number; height: number }): DisplayBundle {
  const title = drawn.layout?.['title'];
  const text = typeof title === 'string' ? title : String((title as { text?: unknown } | undefined)?.text ?? name);
  return {
    data: {
      'image/png': png.toString('base64'),
      // Keys sorted as the notebook file stores them, so the bundle in memory and read back are the same.
      'application/vnd.plotly.v1+json': sortKeysDeep({ data: drawn.data, layout: drawn.layout ?? {}, config: { displaylogo: false } }),
      'text/plain': figureAltText(name, text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()),
    },
    metadata: { 'image/png': { width: size.width, height: size.height }, kstbench: { figure: name } },
  };
}

/**
 * Draws `html` (a page from `figureHtml`) in headless Chromium and exports it with plotly's own
 * `Plotly.toImage`: SVG text at the given size and PNG bytes at PNG_SCALE × that size. Throws with the page's error if plotly
 * could not draw the figure.
 */
export async function renderFigure(html: string, size: { width: number; height: number }): Promise<{ svg: string; png: Buffer }> {
  return withPage(async (page) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    // Loading from a file is faster than page.setContent for a 5 MB page (no CDP document.write).
    const dir = mkdtempSync(join(tmpdir(), 'kstbench-figure-'));
    trackTemporary(dir); // a signal that stops the command removes it (lib/io/temporaries.ts)
    try {
      const file = join(dir, 'figure.html');
      writeFileSync(file, html);
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      releaseTemporary(dir);
    }
    await page.waitForFunction(() => {
      const w = globalThis as unknown as { __figureReady?: boolean; __figureError?: string };
      return w.__figureReady === true || w.__figureError !== undefined;
    });
    const failed = await page.evaluate(() => (globalThis as unknown as { __figureError?: string }).__figureError);
    if (failed !== undefined || errors.length > 0) throw new Error(`plotly could not draw the figure: ${failed ?? errors.join('; ')}`);
    const urls = await page.evaluate(async ({ width, height, scale }) => {
      const P = (globalThis as unknown as { Plotly: { toImage(gd: string, o: object): Promise<string> } }).Plotly;
      const svg = await P.toImage('figure', { format: 'svg', width, height });
      const png = await P.toImage('figure', { format: 'png', width, height, scale });
      return { svg, png };
    }, { ...size, scale: PNG_SCALE });
    const png = decodeDataUrl(urls.png);
    // Chromium's canvas has a size limit (about 2^28 pixels, 65,535 a side): past it toImage gives an
    // empty data URL, which was written as a 0-byte PNG with the figure reported saved.
    if (png.length === 0) {
      throw new InputError(
        `the figure is ${size.width} × ${size.height} px, and its PNG at ${PNG_SCALE}× (${size.width * PNG_SCALE} × ${size.height * PNG_SCALE} px) is past Chromium's canvas limit: it came out empty; draw a smaller figure`,
      );
    }
    return { svg: canonicalSvg(decodeDataUrl(urls.svg).toString('utf8')), png };
  });
}

/**
 * The interactive page an executed notebook links to. A headless run (`npm run reproduce`) writing the
 * project's own `figures/` links the report's copy, `report/figures/<name>.html`: `figures/*.html` are
 * git-ignored (each inlines plotly), so in a clone the executed notebooks — in Jupyter, nbconvert or
 * GitHub — would link a file that is not there, while report/ is committed and the same run rebuilds
 * it. An interactive session, or any other folder, links the file just written.
 * @example
 * interactivePage('f', '/p/figures/f.html', '/p', '/p/figures', {}); // => '/p/report/figures/f.html'
 * interactivePage('f', '/p/figures/f.html', '/p', '/p/figures', { KSTBENCH_INTERACTIVE: '1' }); // => '/p/figures/f.html'
 * interactivePage('f', '/p/tmp/x/f.html', '/p', '/p/tmp/x', {}); // => '/p/tmp/x/f.html'
 */
export function interactivePage(name: string, written: string, root: string, dir: string, env: NodeJS.ProcessEnv = process.env): string {
  const headless = env['KSTBENCH_INTERACTIVE'] !== '1';
  return headless && dir === join(root, 'figures') ? join(root, 'report', 'figures', `${name}.html`) : written;
}

/**
 * Saves a plotly figure as `figures/<name>.html` (self-contained, interactive), `<name>.svg` and
 * `<name>.png` (exported in headless Chromium, the PNG at PNG_SCALE ×) and the sidecar `<name>.json` (its `FigureManifest`:
 * title, trace count and types, for checking the exports), all written together atomically, and returns
 * them with a `show()` for the notebook cell. `simulated: true` draws a "SIMULATED DATA" watermark.
 *
 * Example (notebook cell):
 *   const fig = await saveFigure('fig-3-agreement', { data: [{ type: 'bar', x: ['a', 'b'], y: [1, 2] }] },
 *                                { title: 'Agreement by domain', simulated: true });
 *   fig.show();
 */
export async function saveFigure(name: string, spec: FigureSpec, options: SaveFigureOptions): Promise<SavedFigure> {
  checkOutputName(name, 'figure');
  if (typeof options?.title !== 'string' || typeof options.simulated !== 'boolean') {
    throw new InputError(`figure ${name}: options need a title (string) and simulated (boolean)`, { item: name });
  }
  const root = projectRoot();
  const dir = options.dir ?? join(outputBase(root), 'figures');
  const html = figureHtml(name, spec, options);
  const drawn = finalSpec(spec, options);
  const size = figureSize(drawn, options);
  const { svg, png } = await renderFigure(html, size).catch((err: unknown) => {
    throw err instanceof InputError ? new InputError(`figure ${name}: ${err.message}`, { item: name }) : err;
  });
  const bundle = figureBundle(name, drawn, png, size);
  const manifest = figureManifest(name, spec, options);
  const files = {
    html: join(dir, `${name}.html`),
    svg: join(dir, `${name}.svg`),
    png: join(dir, `${name}.png`),
    json: join(dir, `${name}.json`),
  };
  writeFilesAtomic([
    { path: files.html, data: html },
    { path: files.svg, data: svg },
    { path: files.png, data: png },
    { path: files.json, data: `${JSON.stringify(manifest, null, 2)}\n` },
  ]);
  const page = interactivePage(name, files.html, root, dir);
  const link = relative(options.notebookDir ?? join(root, 'notebooks'), page).split('\\').join('/');
  const shown = relative(root, page).split('\\').join('/');
  return {
    name,
    files,
    svg,
    png,
    bundle,
    show() {
      showBundle(bundle);
      showMarkdown(`Interactive version: [${shown}](${link})`);
    },
    [inspect.custom]() {
      // (the sidecar .json is left out on purpose: this text is in executed notebooks' outputs)
      return `SavedFigure ${relative(root, join(dir, name))}.{html,svg,png}`;
    },
  } as SavedFigure;
}
