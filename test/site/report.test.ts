// The reviewers' report in the bundled Chromium: every page of a freshly built site loads from file://
// with no console error, every link inside it resolves (files and #anchors), and every figure — the
// notebooks' own, plus an interactive plotly one and a PNG from a synthetic notebook — renders non-blank.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { closeFigureBrowser, holdFigureBrowser, withPage } from '../../lib/figures/browser';
import type { Notebook } from '../../lib/notebook/ipynb';
import { projectRoot } from '../../lib/notebook/project';
import { readSiteNotebooks, siteDifferences, siteFiles, writeSite } from '../../scripts/report';
import { PAPER_ITEMS } from '../../lib/site/paper-items';
import { COLOUR_WORDS } from '../../lib/site/style';
import { pngPixels } from '../support/png';

const root = projectRoot();
// One browser for the file's two browser tests (launched at the first page), closed after the last test.
holdFigureBrowser();
after(async () => {
  await closeFigureBrowser();
});

/**
 * Run in the page: what is wrong with its layout. The page must not scroll sideways; no element may
 * stick out of its parent unless an ancestor scrolls or clips it (a wide table scrolls in its own
 * box); no table cell may clip its text (a header narrower than its word); no `$…$` may be left as raw
 * TeX outside code.
 */
// A string, not a function: tsx would wrap the inner functions in a helper the page does not have.
const LAYOUT_PROBLEMS = `(() => {
  const out = [];
  if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways (' + document.documentElement.scrollWidth + ' px wide)');
  const name = (el) => el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  const insideScroller = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX)) return true;
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const parent = el.parentElement;
    const box = el.getBoundingClientRect();
    if (!parent || box.width === 0 || el.closest('.katex')) continue;
    if (box.right > parent.getBoundingClientRect().right + 1 && !insideScroller(el)) out.push(name(el) + ' is wider than its container');
    if ((el.tagName === 'TH' || el.tagName === 'TD') && el.scrollWidth > el.clientWidth + 1) out.push(name(el) + ' clips its text');
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && n.parentElement.closest('pre, code, .katex, script, style')) continue;
    const tex = /\\$[^\\s$][^$]*[^\\s$]\\$|\\$[^\\s$]\\$/.exec(n.textContent || '');
    if (tex) out.push('raw TeX ' + tex[0] + ' (not rendered)');
  }
  return out;
})()`;

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
    // One page visits every report page in turn, and a second one decodes the screenshots: a fresh page
    // per visit started a renderer process each time, which compiled the 3.5 MB plotly.min.js again on
    // each of the 19 pages that load it (about 1.5 s of CPU a page). A navigation still gives each page
    // a new document and window; the viewport is reset to the context's 1280 × 900 before each visit.
    await withPage((decoder) => withPage(async (p) => {
      let problems: string[] = [];
      p.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
      });
      p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      p.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
      p.on('request', (r) => {
        if (!/^(file|data|about):/.test(r.url())) problems.push(`network request (the report must be offline): ${r.url()}`);
      });
      for (const page of pages) {
        problems = [];
        const shots: Array<{ where: string; png: Buffer }> = [];
        await p.setViewportSize({ width: 1280, height: 900 });
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
        for (const width of [1280, 820]) {
          await p.setViewportSize({ width, height: 900 });
          problems.push(...((await p.evaluate(LAYOUT_PROBLEMS)) as string[]).map((m) => `at ${width} px: ${m}`));
        }
        const links = await p.evaluate(() => {
          type El = { getAttribute(n: string): string | null; href?: string; src?: string };
          const d = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
          return Array.from(d.querySelectorAll('a[href], link[href], script[src], img[src]')).map((a) => ({
            raw: a.getAttribute('href') ?? a.getAttribute('src') ?? '',
            href: a.href ?? a.src ?? '',
          }));
        });
        assert.deepEqual(problems, [], page);
        for (const { where, png: shot } of shots) {
          const px = await pngPixels(decoder, shot);
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
    }));
    // The notebooks' 10 figures, plus the synthetic plotly one and its two PNGs.
    assert.ok(figuresSeen >= 13, `only ${figuresSeen} figures rendered`);
    assert.ok(interactiveSeen >= 2, 'the interactive figure is drawn on its page and on its own figure page');
    assert.ok(readdirSync(join(dir, 'figures')).includes('synthetic-bar.html'), 'the "interactive version" link got its page');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the index names every table and figure of both papers beside the page that has it, in the one colour vocabulary', () => {
  const index = siteFiles(root).get('index.html') as string;
  // The papers' inventory: [KST-2026] Tables 1-4, Figures 1-3; [PSI-2026] Tables I-VI, Fig. 1.
  const want = ['Table 1', 'Table 2', 'Table 3', 'Table 4', 'Figure 1', 'Figure 2', 'Figure 3'].map((i) => `KST-2026 ${i}`)
    .concat(['Table I', 'Table II', 'Table III', 'Table IV', 'Table V', 'Table VI', 'Fig. 1'].map((i) => `PSI-2026 ${i}`));
  assert.deepEqual(PAPER_ITEMS.map((p) => `${p.paper} ${p.item}`).sort(), [...want].sort());
  for (const p of PAPER_ITEMS) {
    const row = new RegExp(`<tr><td>\\[${p.paper}\\]</td><td class="paper-item">${p.item.replace('.', '\\.')}</td><td>[^<]*</td><td><a href="${p.notebook}\\.html">`);
    assert.match(index, row, `${p.paper} ${p.item} is not listed with a link to ${p.notebook}.html`);
  }
  // Every table or figure the published numbers cite is in the inventory.
  const cited = new Set<string>();
  for (const f of readdirSync(join(root, 'data', 'published')).filter((n) => n.endsWith('.json'))) {
    const paper = f.startsWith('psi') ? 'PSI-2026' : 'KST-2026';
    for (const m of readFileSync(join(root, 'data', 'published', f), 'utf8').matchAll(/"where": "[^"]*"/g)) {
      for (const t of m[0].matchAll(/\b(Table [0-9IVX]+|Figure [0-9]+)\b/g)) cited.add(`${paper} ${paper === 'PSI-2026' ? t[1]!.replace('Figure', 'Fig.') : t[1]}`);
    }
  }
  assert.ok(cited.size >= 10);
  assert.deepEqual([...cited].filter((c) => !want.includes(c)), []);
  assert.match(index, new RegExp(`<span class="agrees">${COLOUR_WORDS.agrees}</span>, differing ones <span class="differs">${COLOUR_WORDS.differs}</span>`));
  const docs = readFileSync(join(root, 'docs', 'figures-and-browser.md'), 'utf8');
  assert.match(docs, new RegExp(`agreeing\\s+cells ${COLOUR_WORDS.agrees}, differing ones ${COLOUR_WORDS.differs}`), 'docs/figures-and-browser.md says other colours than the report');
});

test('the layout check flags sideways scroll, an element wider than its box, a clipped header and raw TeX; a scrolling box is fine', { timeout: 120_000 }, async () => {
  const problems = await withPage(async (p) => {
    await p.setViewportSize({ width: 820, height: 600 });
    await p.setContent(`<body style="margin:0"><div style="width:300px"><div style="width:900px">wide</div></div>
      <div style="overflow-x:auto;width:300px"><table><tr><td style="white-space:nowrap">${'x'.repeat(200)}</td></tr></table></div>
      <table><tr><th style="max-width:3em;overflow:hidden">simulated:sim-tutor-a</th></tr></table><p>the fringe $K^O$ here</p><code>$not tex$</code></body>`);
    return (await p.evaluate(LAYOUT_PROBLEMS)) as string[];
  });
  assert.ok(problems.some((m) => /page scrolls sideways/.test(m)), problems.join('; '));
  assert.ok(problems.some((m) => /div "wide" is wider than its container/.test(m)));
  assert.ok(problems.some((m) => /th "simulated:sim-tutor-a" clips its text/.test(m)));
  assert.ok(problems.some((m) => /raw TeX \$K\^O\$/.test(m)));
  assert.ok(!problems.some((m) => /xxxx/.test(m) || /not tex/.test(m)), 'a table inside a scrolling box, and TeX in code, are not problems');
});
