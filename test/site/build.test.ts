/**
 * lib/site/build.ts: the reviewers' static site from executed notebooks — page names and titles, the
 * simulated-data notice, provenance per page, cell anchors, the pager, interactive figures, and the
 * order-independent fingerprint. A two-notebook toy stands in for the real notebooks (test/site/report.test.ts
 * checks the committed report).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cell, Notebook } from '../../lib/notebook/ipynb';
import { buildSite, fingerprint, notebookTitle, pageName, renderNotebookPage, showsSimulatedData, sourceHidden, type SiteInput } from '../../lib/site/build';
import { SITE_CSS, SITE_JS } from '../../lib/site/style';

const md = (id: string, source: string): Cell => ({ cell_type: 'markdown', id, metadata: {}, source });
const code = (id: string, source: string, outputs: Cell['outputs'] = [], tags: string[] = []): Cell => ({ cell_type: 'code', id, metadata: tags.length ? { tags } : {}, source, outputs, execution_count: 1 });
const nb = (cells: Cell[]): Notebook => ({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells });

const first = nb([
  md('intro', 'Some text first.\n\n## Domains *and* states\n\nMore.'),
  code('parameters', 'const domainsDir = "data/raw/domains";', [], ['parameters']),
  code('out', 'console.log(1)', [{ output_type: 'stream', name: 'stdout', text: 'Table 3 — SIMULATED data\n' }]),
  code('empty', '   '),
]);
const plotlySpec = { data: [{ type: 'bar', y: [1] }], layout: { title: { text: '<b>x</b>' } } };
const second = nb([code('fig', 'fig.show()', [{ output_type: 'display_data', data: { 'application/vnd.plotly.v1+json': plotlySpec, 'text/plain': '[figure f]' }, metadata: {} }]), md('claims-md', '# Claims')]);
const input = (): SiteInput => ({
  notebooks: [
    { file: 'notebooks/01-kst-foundations.ipynb', notebook: first },
    { file: 'notebooks/02-collect.ipynb', notebook: second },
  ],
  environmentMarkdown: '# Environment\n\nx',
  environment: {
    Software: [['Node.js', 'v20'], ['operating system', 'Linux']],
    'Notebook parameters': [['notebooks/01-kst-foundations.ipynb', 'domainsDir', '`"data/raw/domains"`']],
    Seeds: [['notebooks/02-collect.ipynb', 'seed', '`20260908`']],
    'Raw inputs': [['data/raw/domains/slope.json', '123', '`abc`'], ['data/raw/kst/run.json', '9', '`def`']],
  },
  sourceFingerprint: 'f00d',
  plotlyBundle: () => '/* plotly */',
});

test('pageName and notebookTitle: the file name as .html; the first Markdown heading, else the file name', () => {
  assert.equal(pageName('notebooks/04-table3-figure1.ipynb'), '04-table3-figure1.html');
  assert.equal(notebookTitle(first, 'notebooks/01.ipynb'), 'Domains *and* states');
  assert.equal(notebookTitle(nb([code('c', 'x')]), 'notebooks/01.ipynb'), '01.ipynb');
});

test('the index shows each notebook with one number and one separator: no list counter, "—" and "·" alike', () => {
  const headed = (title: string): Notebook => nb([md('h', `# ${title}\n\nText.`)]);
  assert.equal(notebookTitle(headed('04 — Table 3'), 'x.ipynb'), '04 · Table 3');
  assert.equal(notebookTitle(headed('10 · How a response gets its PSI'), 'x.ipynb'), '10 · How a response gets its PSI');
  assert.equal(notebookTitle(headed('1.5 times the PSI'), 'x.ipynb'), '1.5 times the PSI', 'a number that starts the title is no notebook number');
  const index = buildSite({
    ...input(),
    notebooks: [
      { file: 'notebooks/08-graphs.ipynb', notebook: headed('08 — Reconstructed graphs: wrong structure?') },
      { file: 'notebooks/10-psi.ipynb', notebook: headed('10 · How a response gets its PSI') },
    ],
  }).get('index.html') as string;
  assert.doesNotMatch(index, /<ol/, 'an <ol> numbers the items 1, 2, … beside their own numbers');
  const shown = [...index.matchAll(/<li><a href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]);
  assert.deepEqual(shown, ['08 · Reconstructed graphs: wrong structure?', '10 · How a response gets its PSI']);
  assert.match(SITE_CSS, /ul\.notebooks \{ list-style: none;/, 'no bullets beside the numbers either');
});

test('showsSimulatedData looks at the outputs (HTML, Markdown, text), never at the source', () => {
  assert.equal(showsSimulatedData(first), true);
  assert.equal(showsSimulatedData(nb([code('c', '// SIMULATED in a comment', [{ output_type: 'stream', name: 'stdout', text: 'real' }])])), false);
  assert.equal(showsSimulatedData(nb([code('c', 'x', [{ output_type: 'display_data', data: { 'text/markdown': '**ILLUSTRATIVE** ratings' }, metadata: {} }])])), true);
});

test('a notebook page: notice, provenance of its own parameters and inputs, cells anchored by id, the pager', () => {
  const { html, figures, interactive } = renderNotebookPage(input(), 0);
  assert.equal(interactive, false);
  assert.equal(figures.size, 0);
  assert.match(html, /<title>Domains and states<\/title>/); // Markdown marks dropped from the title
  assert.match(html, /<div class="notice simulated" role="note">/);
  assert.match(html, /<div class="cell markdown" id="intro">/);
  assert.match(html, /<div class="cell code" id="parameters">\n<div class="prompt">In \[1\]: <span class="tag">parameters<\/span><\/div>/);
  assert.doesNotMatch(html, /id="empty"/, 'an empty code cell is left out');
  // Provenance: its parameter, the one raw input under data/raw/domains (not run.json), no seeds, the software.
  assert.match(html, /<td>domainsDir<\/td><td><code>&quot;data\/raw\/domains&quot;<\/code><\/td>/);
  assert.match(html, /<code>data\/raw\/domains\/slope\.json<\/code>/);
  assert.doesNotMatch(html, /data\/raw\/kst\/run\.json/);
  assert.match(html, /<dt>seeds<\/dt><dd>none \(no random draws in this notebook\)<\/dd>/);
  assert.match(html, /<dt>executed with<\/dt><dd>Node\.js v20; operating system Linux<\/dd>/);
  assert.match(html, /<dt>source fingerprint<\/dt><dd><code>f00d<\/code>/);
  // Pager: nothing before the first page; the next page by its title.
  assert.match(html, /<footer class="pager"><span><\/span><a href="02-collect\.html">Claims →<\/a><\/footer>/);
  assert.doesNotMatch(html, /plotly\.min\.js/);
});

test('a page with a plotly figure loads the shared plotly; the site then ships plotly.min.js and site.js', () => {
  const page = renderNotebookPage(input(), 1);
  assert.equal(page.interactive, true);
  assert.match(page.html, /<script src="plotly\.min\.js"><\/script>/);
  assert.match(page.html, /<div class="notice" role="note">This page uses no simulated responses/);
  assert.match(page.html, /<dt>seeds<\/dt><dd>seed = <code>20260908<\/code><\/dd>/);
  assert.ok(page.html.includes('\\u003cb>x\\u003c/b>'), 'the embedded spec cannot open an element');
  const site = buildSite(input());
  assert.deepEqual([...site.keys()], ['01-kst-foundations.html', '02-collect.html', 'environment.html', 'index.html', 'plotly.min.js', 'site.js', 'style.css']);
  assert.equal(site.get('plotly.min.js'), '/* plotly */');
  assert.equal(site.get('site.js'), SITE_JS);
  assert.equal(site.get('style.css'), SITE_CSS);
  const index = site.get('index.html') as string;
  assert.match(index, /<li><a href="01-kst-foundations\.html">Domains <em>and<\/em> states<\/a> <span class="badge">simulated data<\/span>/);
  assert.match(index, /<li><a href="02-collect\.html">Claims<\/a> <span class="source-file">/);
  assert.match(index, /<a href="02-collect\.html#claims-md">/);
  assert.match(index, /<div class="notice simulated"/, 'a page shows simulated data: the index says so');
  const collected = buildSite({ ...input(), notebooks: input().notebooks.slice(1) });
  assert.doesNotMatch(collected.get('index.html') as string, /notice simulated/, 'no page shows simulated data: no simulated notice on the index');
  assert.throws(() => buildSite({ ...input(), plotlyBundle: undefined } as SiteInput), /a figure is interactive but no plotly bundle was given/);
  // Without an interactive figure no plotly is written, and the same input gives the same bytes.
  const still = { ...input(), notebooks: input().notebooks.slice(0, 1) };
  assert.deepEqual([...buildSite(still).keys()], ['01-kst-foundations.html', 'environment.html', 'index.html', 'style.css']);
  assert.deepEqual(buildSite(still), buildSite(still));
});

test('fingerprint: SHA-256 over sorted (name, SHA-256 of bytes) lines, whatever the order given', () => {
  // Worked with Python's hashlib: sha256 of "a.txt\0" + sha256("one").hex + "\n" + "b.txt\0" + sha256("two").hex + "\n".
  const expected = '218de061eb5187060b36792c429549b26aa00a3335cc9f429548bd7cecff3537';
  assert.equal(fingerprint([{ name: 'a.txt', data: 'one' }, { name: 'b.txt', data: Buffer.from('two') }]), expected);
  assert.equal(fingerprint([{ name: 'b.txt', data: 'two' }, { name: 'a.txt', data: 'one' }]), expected);
  assert.equal(fingerprint([]), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'); // sha256 of nothing
  assert.notEqual(fingerprint([{ name: 'a.txt', data: 'one!' }, { name: 'b.txt', data: 'two' }]), expected);
});

test('a cell collapsed in Jupyter (metadata.jupyter.source_hidden) is collapsed on its page too; others are not', () => {
  assert.equal(sourceHidden({ jupyter: { source_hidden: true } }), true);
  assert.equal(sourceHidden({ jupyter: { source_hidden: false } }), false);
  assert.equal(sourceHidden({}), false);
  assert.equal(sourceHidden({ jupyter: 'x' }), false);
});

test('a solution cell is inside <details> on the page, an ordinary cell is not', () => {
  const hidden: Cell = { ...code('sol', 'const solution = 1;'), metadata: { jupyter: { source_hidden: true }, tags: ['solution'] } };
  const page = renderNotebookPage({ ...input(), notebooks: [{ file: 'notebooks/01-kst-foundations.ipynb', notebook: nb([md('t', '# T'), hidden, code('open', 'const shown = 2;')]) }] }, 0).html;
  assert.match(page, /<details class="hidden-source"><summary>solution[^<]*<\/summary><pre class="source"><code class="language-typescript">const solution = 1;<\/code><\/pre><\/details>/);
  assert.doesNotMatch(page, /<details[^>]*><summary>[^<]*<\/summary><pre class="source"><code class="language-typescript">const shown = 2;/);
});
