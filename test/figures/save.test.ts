/** lib/figures/save.ts: a figure saved as HTML, SVG and PNG (drawn by the shared browser), its manifest and its notebook bundle. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { pngPixels } from '../support/png';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closeFigureBrowser, holdFigureBrowser, withPage } from '../../lib/figures/browser';
import { canonicalSvg, decodeDataUrl, figureBundle, figureManifest, interactivePage, saveFigure } from '../../lib/figures/save';
import { SIMULATED_LABEL } from '../../lib/figures/spec';
import { THREE_TRACE_SPEC } from './fixtures';


const dir = mkdtempSync(join(tmpdir(), 'kstbench-fig-'));
const spec = THREE_TRACE_SPEC;

// One browser for the whole file (launched at the first page), closed after the last test.
holdFigureBrowser();
after(async () => {
  await closeFigureBrowser();
});

test('saveFigure exports HTML, SVG and PNG that render in Chromium', async () => {
  const fig = await saveFigure('three-traces', spec, { title: 'Three traces', simulated: true, dir });
  for (const f of Object.values(fig.files)) assert.ok(existsSync(f), f);
  assert.equal(fig.svg, readFileSync(fig.files.svg, 'utf8'));
  assert.ok(fig.svg.includes(SIMULATED_LABEL));
  // What the notebook cell shows: the 2× PNG drawn at the figure's size, the plotly spec for front ends
  // that run plotly, a line of text; no SVG or HTML (nbconvert would prefer them and blank the SVG).
  assert.deepEqual(Object.keys(fig.bundle.data).sort(), ['application/vnd.plotly.v1+json', 'image/png', 'text/plain']);
  assert.equal(fig.bundle.data['image/png'], readFileSync(fig.files.png).toString('base64'));
  assert.deepEqual(fig.bundle.metadata, { 'image/png': { width: 800, height: 500 }, kstbench: { figure: 'three-traces' } });
  assert.equal(fig.bundle.data['text/plain'], '[figure three-traces: Three traces (simulated data)]');
  const plotly = fig.bundle.data['application/vnd.plotly.v1+json'] as { data: unknown[]; layout: Record<string, unknown> };
  assert.equal(plotly.data.length, 3);
  assert.equal(plotly.layout['width'], 800);

  await withPage(async (page) => {
    // The SVG on its own: one plotly trace group per trace, the watermark drawn as text.
    await page.goto(pathToFileURL(fig.files.svg).href);
    const svg = await page.evaluate(() => {
      const d = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number; [i: number]: { textContent: string } } } }).document;
      const texts = d.querySelectorAll('text');
      const all: string[] = [];
      for (let i = 0; i < texts.length; i++) all.push(texts[i]!.textContent);
      return { bars: d.querySelectorAll('g.trace.bars').length, scatter: d.querySelectorAll('g.trace.scatter').length, texts: all };
    });
    assert.equal(svg.bars, 1);
    assert.equal(svg.scatter, 2);
    assert.ok(svg.texts.includes(SIMULATED_LABEL));
    assert.ok(svg.texts.includes('Three traces (simulated data)'));

    // The PNG: draw it on a canvas and count pixels that are not the white background.
    // The PNG is at twice the figure's size.
    const counts = await pngPixels(page, readFileSync(fig.files.png));
    assert.equal(counts.width, 1600);
    assert.equal(counts.height, 1000);
    // Bars, lines, axes and text cover a few percent of the image at least; a blank export has none.
    assert.ok(counts.nonWhite > 0.02 * 1600 * 1000, `only ${counts.nonWhite} non-background pixels`);

    // The interactive HTML: self-contained (no request leaves file://), draws the three traces.
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(fig.files.html).href);
    await page.waitForFunction(() => (globalThis as unknown as { __figureReady?: boolean }).__figureReady === true);
    const traces = await page.evaluate(
      () => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('#figure g.trace').length,
    );
    assert.equal(traces, 3);
    assert.deepEqual(errors, []);
    assert.deepEqual(requests.filter((u) => !u.startsWith('file:')), []);
  });
});

test('exports are byte-stable: the same figure saved twice gives identical files', async () => {
  const a = await saveFigure('stable', spec, { title: 'Stable', simulated: false, dir: join(dir, 'a') });
  const b = await saveFigure('stable', spec, { title: 'Stable', simulated: false, dir: join(dir, 'b') });
  for (const kind of ['html', 'svg', 'png'] as const) {
    assert.ok(readFileSync(a.files[kind]).equals(readFileSync(b.files[kind])), `${kind} differs between runs`);
  }
  assert.ok(!a.svg.includes(SIMULATED_LABEL));
});

test('canonicalSvg: the root element\'s attributes in one order, whatever order plotly wrote them in', () => {
  const tail = '<rect x="0" style=""/></svg>';
  const a = canonicalSvg(`<svg class="main-svg" xmlns="http://www.w3.org/2000/svg" width="9" height="8" style="" viewBox="0 0 9 8">${tail}`);
  const b = canonicalSvg(`<svg class="main-svg" xmlns="http://www.w3.org/2000/svg" width="9" height="8" viewBox="0 0 9 8" style="">${tail}`);
  assert.equal(a, `<svg class="main-svg" xmlns="http://www.w3.org/2000/svg" width="9" height="8" viewBox="0 0 9 8">${tail}`);
  assert.equal(b, a);
  // A non-empty style is kept, after viewBox; unknown attributes come last, by name.
  assert.equal(canonicalSvg('<svg style="x: 1" data-b="2" width="1" data-a="3"></svg>'), '<svg width="1" style="x: 1" data-a="3" data-b="2"></svg>');
  assert.throws(() => canonicalSvg('<?xml?><svg></svg>'), /does not start with <svg/);
});

test('a figure name that is not a safe file name is refused before anything is drawn', async () => {
  await assert.rejects(saveFigure('../x', spec, { title: 't', simulated: false, dir }), /figure name "..\/x"/);
  await assert.rejects(saveFigure('ok', spec, { title: 't' } as never), /options need a title \(string\) and simulated \(boolean\)/);
});

test('figureManifest records the drawn title, size and trace types (plotly\'s default type is scatter)', () => {
  const spec = { data: [{ type: 'bar', y: [1] }, { mode: 'lines', y: [2] }, { type: 'heatmap', z: [[1]] }], layout: { width: 300 } };
  assert.deepEqual(figureManifest('m', spec, { title: 'T', simulated: true }), {
    name: 'm', title: 'T (simulated data)', simulated: true, width: 300, height: 500, traces: 3, types: ['bar', 'scatter', 'heatmap'], pngScale: 2,
  });
  const titled = { data: [], layout: { title: { text: 'From layout' } } };
  assert.deepEqual(figureManifest('n', titled, { title: 'T', simulated: false, height: 200 }), {
    name: 'n', title: 'From layout', simulated: false, width: 800, height: 200, traces: 0, types: [], pngScale: 2,
  });
});

test('decodeDataUrl: base64 and percent-encoded bodies; anything else is refused', () => {
  assert.equal(decodeDataUrl('data:image/png;base64,aGk=').toString('utf8'), 'hi'); // "hi" = 0x68 0x69 = aGk=
  assert.equal(decodeDataUrl('data:image/svg+xml,%3Csvg%3E%20x').toString('utf8'), '<svg> x');
  assert.throws(() => decodeDataUrl('http://x/y.png'), /not a data URL: http:\/\/x\/y\.png/);
  assert.throws(() => decodeDataUrl('data:no-comma'), /not a data URL/);
});

test('figureBundle: PNG at the figure size, the plotly spec with keys sorted, a plain-text title without markup', () => {
  const drawn = { data: [{ y: [1], type: 'bar' }], layout: { width: 300, title: { text: 'A<br>two-line   title' } } };
  const b = figureBundle('f1', drawn, Buffer.from('png!'), { width: 300, height: 200 });
  assert.equal(b.data['image/png'], Buffer.from('png!').toString('base64'));
  assert.equal(b.data['text/plain'], '[figure f1: A two-line title]');
  assert.deepEqual(b.metadata, { 'image/png': { width: 300, height: 200 }, kstbench: { figure: 'f1' } });
  const plotly = b.data['application/vnd.plotly.v1+json'] as Record<string, unknown>;
  assert.deepEqual(Object.keys(plotly), ['config', 'data', 'layout']);
  assert.deepEqual(Object.keys((plotly['data'] as Array<Record<string, unknown>>)[0]!), ['type', 'y']);
  assert.deepEqual(plotly['config'], { displaylogo: false });
  // No title in the layout: the figure's name stands in.
  assert.equal(figureBundle('f2', { data: [] }, Buffer.alloc(0), { width: 1, height: 1 }).data['text/plain'], '[figure f2: f2]');
});

test('interactivePage: a headless run into the project links the committed report copy; a session or another folder the file it wrote', () => {
  // figures/*.html are git-ignored, so a clone's executed notebooks could not open a link into figures/.
  const root = join('/', 'p');
  const written = join(root, 'figures', 'f.html');
  assert.equal(interactivePage('f', written, root, join(root, 'figures'), {}), join(root, 'report', 'figures', 'f.html'));
  assert.equal(interactivePage('f', written, root, join(root, 'figures'), { KSTBENCH_INTERACTIVE: '1', KSTBENCH_SAVE_OUTPUTS: 'project' }), written);
  const scratch = join(root, 'tmp', 'notebook-outputs', 'figures');
  assert.equal(interactivePage('f', join(scratch, 'f.html'), root, scratch, {}), join(scratch, 'f.html'));
});

test('a figure whose PNG is past Chromium\'s canvas limit is refused, naming its size, and nothing is written (it was a 0-byte PNG, reported saved)', async () => {
  const out = join(dir, 'too-wide');
  // 33,000 × 2,120 px: at 2× past the canvas limit (30,000 px wide still draws).
  const wide = { data: [{ type: 'bar', x: ['a', 'b'], y: [1, 2] }], layout: { width: 33_000, height: 2120 } };
  await assert.rejects(saveFigure('too-wide', wide, { title: 'Too wide', simulated: false, dir: out }), (err: unknown) =>
    err instanceof Error && /^figure too-wide: the figure is 33000 × 2120 px, and its PNG at 2× \(66000 × 4240 px\) is past Chromium's canvas limit: it came out empty; draw a smaller figure$/.test(err.message));
  assert.equal(existsSync(out), false, 'no file was written');
});
