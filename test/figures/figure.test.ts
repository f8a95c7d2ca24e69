import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { pngPixels } from '../support/png';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closeFigureBrowser, withPage } from '../../lib/figures/browser';
import { canonicalSvg, saveFigure } from '../../lib/figures/save';
import { finalSpec, SIMULATED_LABEL, type FigureSpec } from '../../lib/figures/spec';


const dir = mkdtempSync(join(tmpdir(), 'kstbench-fig-'));
const spec: FigureSpec = {
  data: [
    { type: 'bar', name: 'observed', x: ['a', 'b', 'c'], y: [3, 1, 2] },
    { type: 'scatter', mode: 'lines+markers', name: 'model', x: ['a', 'b', 'c'], y: [2.5, 1.5, 2] },
    { type: 'scatter', mode: 'markers', name: 'chance', x: ['a', 'b', 'c'], y: [1, 1, 1] },
  ],
  layout: { xaxis: { title: { text: 'domain' } } },
};

after(async () => {
  await closeFigureBrowser();
});

test('simulated figures carry a watermark and a title note; real ones do not', () => {
  const sim = finalSpec(spec, { title: 'T', simulated: true });
  const annotations = sim.layout!['annotations'] as Array<{ text: string; x: number; y: number; xanchor: string; yanchor: string }>;
  assert.equal(annotations.length, 1);
  assert.equal(annotations[0]!.text, SIMULATED_LABEL);
  // A corner badge outside the plotting area: 800 × 500 with plotly's default margins (l 80, r 80,
  // t 100, b 80) puts the figure's top-right corner, 6 px in, at paper x (800 − 80 − 6)/640, y (500 − 80 − 6)/320.
  assert.deepEqual([annotations[0]!.x, annotations[0]!.y, annotations[0]!.xanchor, annotations[0]!.yanchor], [714 / 640, 414 / 320, 'right', 'top']);
  assert.equal((sim.layout!['font'] as { family: string }).family, '"Open Sans", Arial, sans-serif');
  assert.equal((sim.layout!['colorway'] as string[]).length, 8);
  assert.deepEqual(sim.layout!['title'], { text: 'T (simulated data)' });
  const real = finalSpec(spec, { title: 'T', simulated: false });
  assert.equal(real.layout!['annotations'], undefined);
  assert.deepEqual(real.layout!['title'], { text: 'T' });
  assert.equal(real.layout!['width'], 800);
  assert.equal(real.layout!['height'], 500);
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
