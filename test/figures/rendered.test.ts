/**
 * Every committed figure (figures/*.svg and .png, written by the notebooks through saveFigure) opened in
 * headless Chromium: the SVG must hold as many plotly traces of each kind as the figure's spec asks for,
 * the PNG must decode at the spec's size and not be blank, and figures drawn from simulated data must
 * say so in their title and watermark.
 *
 * What is expected comes from sources other than the drawing itself: the spec's trace list, read from
 * the sidecar figures/<name>.json (saveFigure computes it in Node) and, when present, from the
 * interactive figures/<name>.html (the plotly spec embedded as JSON; gitignored, so only after a local
 * `npm run reproduce`) — both must agree. Whether a figure is made from simulated data is worked out from
 * the data: the notebook that shows the figure, the .jsonl files its parameters cell names, and whether
 * any record in them is flagged `"simulated": true`.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { pngPixels } from '../support/png';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { notebookRecords } from '../support/notebook-records';
import { pathToFileURL } from 'node:url';
import { closeFigureBrowser, holdFigureBrowser, withPage } from '../../lib/figures/browser';
import type { FigureManifest } from '../../lib/figures/save';
import { SIMULATED_LABEL } from '../../lib/figures/spec';
import { cellSource, readNotebook } from '../../lib/notebook/ipynb';
import { projectRoot } from '../../lib/notebook/project';


const root = projectRoot();
const figuresDir = join(root, 'figures');
const notebooksDir = join(root, 'notebooks');
const names = existsSync(figuresDir)
  ? readdirSync(figuresDir)
      .filter((n) => n.endsWith('.svg'))
      .map((n) => n.slice(0, -'.svg'.length))
      .sort()
  : [];

// One browser for the whole file (launched at the first page), closed after the last test.
holdFigureBrowser();
after(async () => {
  await closeFigureBrowser();
});

/** What the figure's spec implies, as far as the exports can show it. */
type Expected = Pick<FigureManifest, 'title' | 'simulated' | 'width' | 'height' | 'types'> & { pngScale: number };

/** The spec embedded in a figure page (`var spec = {...};`, see figureHtml) and its simulated flag. */
function expectedFromHtml(file: string): Omit<Expected, 'pngScale'> {
  const html = readFileSync(file, 'utf8');
  const line = html.split('\n').find((l) => l.startsWith('var spec = '));
  assert.ok(line, `${file}: no "var spec = ..." line`);
  const spec = JSON.parse(line.slice('var spec = '.length, -1)) as { data: Array<{ type?: string }>; layout: Record<string, unknown> };
  const simulated = /<meta name="kstbench-simulated" content="(true|false)">/.exec(html);
  assert.ok(simulated, `${file}: no kstbench-simulated meta tag`);
  const title = spec.layout['title'];
  return {
    title: typeof title === 'string' ? title : String((title as { text: string }).text),
    simulated: simulated[1] === 'true',
    width: spec.layout['width'] as number,
    height: spec.layout['height'] as number,
    types: spec.data.map((t) => t.type ?? 'scatter'),
  };
}

/** The sidecar and/or the HTML page; when both exist they must describe the same figure. */
function expectedFor(name: string): Expected {
  const jsonFile = join(figuresDir, `${name}.json`);
  const htmlFile = join(figuresDir, `${name}.html`);
  const fromJson = existsSync(jsonFile) ? (JSON.parse(readFileSync(jsonFile, 'utf8')) as FigureManifest) : undefined;
  const fromHtml = existsSync(htmlFile) ? expectedFromHtml(htmlFile) : undefined;
  assert.ok(fromJson ?? fromHtml, `figures/${name}.svg has neither figures/${name}.json nor .html: run npm run reproduce`);
  if (fromJson) {
    assert.equal(fromJson.name, name);
    assert.equal(fromJson.traces, fromJson.types.length, `figures/${name}.json: traces ≠ types.length`);
  }
  if (fromJson && fromHtml) {
    const { title, simulated, width, height, types } = fromJson;
    assert.deepEqual({ title, simulated, width, height, types }, fromHtml, `figures/${name}.json disagrees with figures/${name}.html`);
  }
  // Only the sidecar records the PNG's scale (NaN when it is missing fails the size check).
  return { ...(fromHtml ?? fromJson)!, pngScale: fromJson?.pngScale ?? Number.NaN };
}

/** Plotly's SVG group for one trace of each type (the kinds the notebooks draw; extend when new ones appear). */
const TRACE_SELECTOR: Record<string, string> = {
  scatter: 'g.trace.scatter',
  bar: 'g.trace.bars',
  histogram: 'g.trace.bars',
  heatmap: 'g.hm',
  box: 'g.trace.boxes',
};

/** Expected number of SVG groups per selector, e.g. types [bar, scatter, bar] → {g.trace.bars: 2, g.trace.scatter: 1}. */
function expectedGroups(name: string, types: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(Object.values(TRACE_SELECTOR).map((s) => [s, 0]));
  for (const type of types) {
    const selector = TRACE_SELECTOR[type];
    assert.ok(selector, `figure ${name}: no SVG selector known for trace type "${type}" (add it to TRACE_SELECTOR)`);
    counts[selector]! += 1;
  }
  return counts;
}

/** Plotly's rendering of a title: `<br>` starts a new line, tags become styled spans, entities decode. */
function renderedText(title: string): string {
  return title
    .replace(/<br\s*\/?>/gi, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** A figure output: the display_data whose metadata names the figure (saveFigure's show()). */
interface FigureOutput {
  data: Record<string, unknown>;
  metadata: { kstbench?: { figure?: string }; 'image/png'?: { width?: number; height?: number } };
}

/** The figure outputs of a notebook's code cells. */
function figureOutputs(file: string): FigureOutput[] {
  const nb = readNotebook(file);
  return nb.cells
    .flatMap((c) => (c.cell_type === 'code' ? (c.outputs ?? []) : []))
    .map((o) => o as unknown as FigureOutput)
    .filter((o) => typeof o.metadata?.kstbench?.figure === 'string');
}

/** For each figure name, the notebooks whose outputs show it. */
function notebooksShowing(): Map<string, string[]> {
  const shownBy = new Map<string, string[]>();
  for (const file of readdirSync(notebooksDir).filter((n) => n.endsWith('.ipynb')).sort()) {
    for (const o of figureOutputs(join(notebooksDir, file))) {
      const name = o.metadata.kstbench!.figure!;
      const list = shownBy.get(name) ?? [];
      if (!list.includes(file)) list.push(file);
      shownBy.set(name, list);
    }
  }
  return shownBy;
}

/** The record files a notebook reads (its parameters, or the study it follows: test/support/notebook-records.ts). */
function dataFilesOf(notebookFile: string): string[] {
  return notebookRecords(root, basename(notebookFile)).recordFiles;
}

/** True when some line of the JSON Lines file is a record flagged `"simulated": true`. */
function hasSimulatedRecord(file: string): boolean {
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    if (line.trim() === '' || !line.includes('simulated')) continue;
    const value = JSON.parse(line) as { simulated?: unknown };
    if (value.simulated === true) return true;
  }
  return false;
}

test('the repository has figures, each with its PNG and a description of its spec', () => {
  assert.ok(names.length > 0, 'no figures/*.svg: run npm run reproduce');
  const pngs = readdirSync(figuresDir).filter((n) => n.endsWith('.png'));
  assert.deepEqual(pngs.map((n) => n.slice(0, -4)).sort(), names, 'figures/*.png and figures/*.svg differ');
  for (const name of names) expectedFor(name);
});

test('each figure is shown by exactly one notebook, as the committed PNG at its size, with no SVG or HTML', () => {
  const shownBy = notebooksShowing();
  for (const name of names) {
    const nbs = shownBy.get(name) ?? [];
    assert.equal(nbs.length, 1, `figures/${name}: shown by ${nbs.length === 0 ? 'no notebook' : nbs.join(', ')}`);
    const png = readFileSync(join(figuresDir, `${name}.png`)).toString('base64');
    const outputs = figureOutputs(join(notebooksDir, nbs[0]!)).filter((o) => o.metadata.kstbench!.figure === name);
    assert.equal(outputs.length, 1, `${nbs[0]} shows figures/${name} ${outputs.length} times`);
    const { data, metadata } = outputs[0]!;
    const shown = Array.isArray(data['image/png']) ? (data['image/png'] as string[]).join('') : data['image/png'];
    assert.ok(shown === png, `${nbs[0]} does not show the PNG in figures/${name}.png (stale figure or notebook?)`);
    const expected = expectedFor(name);
    assert.deepEqual(metadata['image/png'], { width: expected.width, height: expected.height }, `${nbs[0]}: display size of ${name}`);
    // nbconvert prefers SVG and HTML over PNG, and its cleaner blanks inline SVG: neither may be there.
    assert.deepEqual(Object.keys(data).sort(), ['application/vnd.plotly.v1+json', 'image/png', 'text/plain'], `${nbs[0]}: MIME types of ${name}`);
    const plotly = data['application/vnd.plotly.v1+json'] as { data: unknown[]; layout: { width: number; height: number } };
    assert.equal(plotly.data.length, expected.types.length, `${nbs[0]}: traces in the interactive ${name}`);
    assert.deepEqual([plotly.layout.width, plotly.layout.height], [expected.width, expected.height]);
  }
});

test('figures made from simulated data say so (title and watermark); the others do not', () => {
  const shownBy = notebooksShowing();
  const simulatedData = new Map<string, boolean>();
  for (const name of names) {
    const notebook = shownBy.get(name)?.[0];
    assert.ok(notebook, `figures/${name}: no notebook shows it`);
    if (!simulatedData.has(notebook)) simulatedData.set(notebook, dataFilesOf(join(notebooksDir, notebook)).some(hasSimulatedRecord));
    const expected = expectedFor(name);
    const svg = readFileSync(join(figuresDir, `${name}.svg`), 'utf8');
    const watermark = svg.includes(`>${SIMULATED_LABEL}<`);
    const titleSays = expected.title.endsWith('(simulated data)');
    if (simulatedData.get(notebook)) {
      assert.ok(expected.simulated && titleSays && watermark, `figures/${name} (${notebook}) is drawn from simulated records but does not say so`);
    }
    // The flag, the title note and the watermark go together.
    assert.equal(titleSays, expected.simulated, `figures/${name}: title "${expected.title}" vs simulated=${expected.simulated}`);
    assert.equal(watermark, expected.simulated, `figures/${name}: watermark present=${watermark} vs simulated=${expected.simulated}`);
  }
  // The committed corpora are simulated, so at least the corpus figures must carry the note.
  assert.ok([...simulatedData.values()].some(Boolean), 'no notebook reads simulated records: is the data check broken?');
});

/** What Chromium shows for an SVG file: root element, size, trace groups, title text, all texts. */
interface SvgView {
  root: string;
  width: string | null;
  height: string | null;
  groups: Record<string, number>;
  title: string | null;
  texts: string[];
}

/** Pixels of a PNG drawn on a canvas: size and how many differ from the top-left (background) colour. */

/** PNG signature and IHDR size read in Node (independent of the browser's decoder). */
function pngHeader(buf: Buffer): { width: number; height: number } {
  assert.ok(buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'not a PNG signature');
  assert.equal(buf.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

for (const name of names) {
  test(`figures/${name}.svg and .png render in Chromium as the spec says`, async () => {
    const expected = expectedFor(name);
    const groups = expectedGroups(name, expected.types);
    const png = readFileSync(join(figuresDir, `${name}.png`));
    // PNGs are exported at PNG_SCALE × the figure's size (the sidecar records the scale).
    assert.equal(expected.pngScale, 2, `figures/${name}.json: pngScale`);
    const pngSize = { width: expected.width * expected.pngScale, height: expected.height * expected.pngScale };
    assert.deepEqual(pngHeader(png), pngSize, `figures/${name}.png size`);

    await withPage(async (page) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(join(figuresDir, `${name}.svg`)).href);
      const view: SvgView = await page.evaluate((selectors) => {
        type El = { tagName: string; textContent: string | null; getAttribute(a: string): string | null };
        const d = (globalThis as unknown as { document: { documentElement: El; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> } }).document;
        const counts: Record<string, number> = {};
        for (const s of selectors) counts[s] = d.querySelectorAll(s).length;
        const texts = Array.from(d.querySelectorAll('text'), (t) => t.textContent ?? '');
        return {
          root: d.documentElement.tagName,
          width: d.documentElement.getAttribute('width'),
          height: d.documentElement.getAttribute('height'),
          groups: counts,
          title: d.querySelector('text.gtitle')?.textContent ?? null,
          texts,
        };
      }, Object.keys(groups));
      assert.equal(view.root, 'svg');
      assert.equal(view.width, String(expected.width));
      assert.equal(view.height, String(expected.height));
      assert.deepEqual(view.groups, groups, `figures/${name}.svg: trace groups drawn vs. spec (types ${expected.types.join(', ')})`);
      // (plotly puts zero-width spaces around super/subscript spans)
      assert.equal(view.title?.replace(/\u200b/g, ''), renderedText(expected.title), `figures/${name}.svg: title`);
      assert.equal(view.texts.includes(SIMULATED_LABEL), expected.simulated, `figures/${name}.svg: watermark`);
      assert.deepEqual(errors, []);

      // The PNG decoded by the browser: same size, and a real share of pixels that are not background.
      const pixels = await pngPixels(page, png);
      assert.equal(pixels.width, pngSize.width);
      assert.equal(pixels.height, pngSize.height);
      // A blank export has 0%; the sparsest committed figure (01-space-slope: thin lines and dots on white)
      // has 2.6%, the bar charts and the heatmap 19-46%.
      const share = pixels.differing / (pixels.width * pixels.height);
      assert.ok(share > 0.01, `figures/${name}.png: only ${(100 * share).toFixed(2)}% non-background pixels`);
    });
  });
}
