// The reviewers' report in the bundled Chromium: every page of a freshly built site loads from file://
// with no console error, every link inside it resolves (files and #anchors), and every figure — the
// notebooks' own, plus an interactive plotly one and a PNG from a synthetic notebook — renders non-blank.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { closeFigureBrowser, holdFigureBrowser, withPage } from '../../lib/figures/browser';
import type { Notebook } from '../../lib/notebook/ipynb';
import { projectRoot } from '../../lib/notebook/project';
import { readSiteNotebooks, siteDifferences, siteFiles, writeSite } from '../../scripts/report';
import { pngPixels } from '../support/png';

const root = projectRoot();

/** A notebook whose outputs carry the figure bundles other viewers may get: plotly JSON, PNG, an <img> in HTML. */
function synthetic(png: string): Notebook {
  const plotly = { data: [{ type: 'bar', x: ['a', 'b', 'c'], y: [3, 1, 2] }], layout: { width: 500, height: 300, title: { text: 'synthetic' } } };
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      { cell_type: 'markdown', id: 'm', metadata: {}, source: '# 99 — Synthetic figures\n\nSee [notebook 01](01-kst-foundations.ipynb) and [the figure](../figures/synthetic-bar.html).' },
      {
        cell_type: 'code',
        id: 'c1',
        metadata: {},
        source: 'fig.show()',
        execution_count: 1,
        outputs: [
          { output_type: 'display_data', metadata: {}, data: { 'application/vnd.plotly.v1+json': plotly, 'image/png': png, 'text/plain': 'figure' } },
          { output_type: 'display_data', metadata: {}, data: { 'text/markdown': 'Interactive version: [figures/synthetic-bar.html](../figures/synthetic-bar.html)' } },
        ],
      },
      {
        cell_type: 'code',
        id: 'c2',
        metadata: {},
        source: 'png.show()',
        execution_count: 2,
        outputs: [
          { output_type: 'display_data', metadata: {}, data: { 'image/png': png } },
          { output_type: 'display_data', metadata: {}, data: { 'text/html': `<img src="data:image/png;base64,${png}" width="400">` } },
        ],
      },
    ],
  };
}

test('the committed report/ is what the executed notebooks build (reproduce rebuilds it byte for byte)', () => {
  const diff = siteDifferences(join(root, 'report'), siteFiles(root));
  assert.deepEqual(diff, [], 'report/ is stale: run npm run report (npm run reproduce does it)');
});

test('every report page loads without console errors, every link resolves, every figure is drawn', { timeout: 600_000 }, async () => {
  holdFigureBrowser(); // one browser for every page, closed in the finally below
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-report-'));
  try {
    const png = readFileSync(join(root, 'figures', '04-figure-1-exact-f1.png')).toString('base64');
    const notebooks = [...readSiteNotebooks(root), { file: 'notebooks/99-synthetic.ipynb', notebook: synthetic(png) }];
    const files = siteFiles(root, { notebooks });
    writeSite(dir, files);
    const pages = [...files.keys()].filter((f) => f.endsWith('.html')).sort();
    assert.ok(pages.includes('index.html') && pages.includes('environment.html') && pages.includes('99-synthetic.html'));
    assert.equal(pages.filter((p) => /^\d\d-.*\.html$/.test(p)).length, notebooks.length, 'one page per notebook');
    assert.ok(files.has('plotly.min.js'), 'the one shared local plotly copy is written when a figure is interactive');
    let figuresSeen = 0;
    let interactiveSeen = 0;
    for (const page of pages) {
      const problems: string[] = [];
      const shots: Array<{ where: string; png: Buffer }> = [];
      const links = await withPage(async (p) => {
        p.on('console', (m) => {
          if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
        });
        p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
        p.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
        p.on('request', (r) => {
          if (!/^(file|data|about):/.test(r.url())) problems.push(`network request (the report must be offline): ${r.url()}`);
        });
        await p.goto(pathToFileURL(join(dir, page)).href, { waitUntil: 'load' });
        // Interactive figures are drawn by site.js after load; wait until each has its SVG.
        await p.waitForFunction(() => {
          const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ querySelector(s: string): unknown }> } }).document;
          return Array.from(d.querySelectorAll('.plotly-figure')).every((el) => el.querySelector('.main-svg') !== null);
        }, undefined, { timeout: 30_000 });
        const figures = await p.$$('figure.figure, .output.html.figure img');
        for (const [i, f] of figures.entries()) {
          await f.scrollIntoViewIfNeeded();
          shots.push({ where: `${page} figure ${i + 1}`, png: await f.screenshot() });
        }
        interactiveSeen += (await p.$$('.plotly-figure .main-svg')).length;
        return p.evaluate(() => {
          type El = { getAttribute(n: string): string | null; href?: string; src?: string };
          const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
          return Array.from(d.querySelectorAll('a[href], link[href], script[src], img[src]')).map((a) => ({
            raw: a.getAttribute('href') ?? a.getAttribute('src') ?? '',
            href: a.href ?? a.src ?? '',
          }));
        });
      });
      assert.deepEqual(problems, [], page);
      for (const { where, png: shot } of shots) {
        const px = await withPage((p) => pngPixels(p, shot));
        assert.ok(px.width >= 100 && px.height >= 100, `${where}: ${px.width}×${px.height}`);
        assert.ok(px.differing > 500, `${where} looks blank (${px.differing} pixels differ from the background)`);
        figuresSeen++;
      }
      for (const link of links) {
        if (/^(https?|mailto|data):/.test(link.raw) || link.raw === '') continue;
        const url = new URL(link.href);
        assert.equal(url.protocol, 'file:', `${page}: ${link.raw}`);
        const target = fileURLToPath(url);
        assert.ok(target.startsWith(dir), `${page}: ${link.raw} leaves the report folder`);
        assert.ok(existsSync(target), `${page}: dead link ${link.raw}`);
        if (url.hash) {
          const id = decodeURIComponent(url.hash.slice(1));
          const html = files.get(target.slice(dir.length + 1));
          assert.ok(typeof html === 'string' && html.includes(`id="${id}"`), `${page}: no anchor ${link.raw}`);
        }
      }
    }
    // The notebooks' 10 figures, plus the synthetic plotly one and its two PNGs.
    assert.ok(figuresSeen >= 13, `only ${figuresSeen} figures rendered`);
    assert.ok(interactiveSeen >= 2, 'the interactive figure is drawn on its page and on its own figure page');
    assert.ok(readdirSync(join(dir, 'figures')).includes('synthetic-bar.html'), 'the "interactive version" link got its page');
  } finally {
    await closeFigureBrowser();
    rmSync(dir, { recursive: true, force: true });
  }
});
