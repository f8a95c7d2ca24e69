import { createHash } from 'node:crypto';
import { cellSource, cellTags, sortKeysDeep, type Notebook } from '../notebook/ipynb';
import type { EnvironmentTables } from '../notebook/environment';
import { escapeHtml } from '../io/html';
import { hasMath, renderInline, renderMarkdown } from './markdown';
import { renderOutput, rewriteNotebookLink, type OutputContext } from './outputs';
import { claimIndex } from './compare';
import { PAPER_ITEMS } from './paper-items';
import { COLOUR_WORDS, SITE_CSS, SITE_JS } from './style';

/**
 * The reviewers' report: a static site built from the executed notebooks, by pure functions (the same
 * inputs give the same bytes). `buildSite` returns the files; scripts/report.ts reads the inputs and
 * writes them to report/. Every page is plain HTML with one shared stylesheet; figures are images with
 * data URIs, or — when a cell carries a plotly spec — drawn by one shared local copy of plotly
 * (`plotly.min.js`, only written when some figure needs it). No CDN, no fetch: it works from file://,
 * offline and on any static host.
 */

export interface SiteNotebook {
  /** Path relative to the project root (`notebooks/04-table3-figure1.ipynb`). */
  file: string;
  notebook: Notebook;
}

export interface SiteInput {
  notebooks: SiteNotebook[];
  /** environment.md as written by reproduce (rendered as the environment page). */
  environmentMarkdown: string;
  /** Its tables (parseEnvironment), for the per-page provenance. */
  environment: EnvironmentTables;
  /** SHA-256 over the sources the report was built from (see sourceFingerprint in scripts/report.ts). */
  sourceFingerprint: string;
  /** The git commit to print, when the build is stamped for hosting; committed reports leave it out. */
  commit?: string;
  /** plotly.js (the minified bundle), written once when some figure is interactive. */
  plotlyBundle?: () => string;
  /** KaTeX's stylesheet and fonts by path below katex/, written once when some page has maths. */
  katexAssets?: () => Map<string, string | Buffer>;
}

/** A page's file name: `notebooks/04-table3-figure1.ipynb` → `04-table3-figure1.html`. */
export function pageName(file: string): string {
  return `${file.split('/').pop()!.replace(/\.ipynb$/, '')}.html`;
}

/** What stands between a notebook's number and its title in the site's titles. */
const TITLE_SEPARATOR = ' · ';

/**
 * The notebook's title: its first Markdown heading, without the `#`s (else the file name). A leading
 * notebook number is followed by one separator on every page, `10 · …`, whichever the heading uses
 * (the KST notebooks write `04 — …`, the PSI ones `10 · …`).
 */
export function notebookTitle(nb: Notebook, file: string): string {
  for (const cell of nb.cells) {
    if (cell.cell_type !== 'markdown') continue;
    const m = /^\s*#{1,6}\s+(.+?)\s*$/m.exec(cellSource(cell));
    if (m) return m[1]!.replace(/^(\d+)\s*[—–·:.-]\s+/, `$1${TITLE_SEPARATOR}`);
  }
  return file.split('/').pop()!;
}

/** True when an output of the notebook says it shows simulated data (the notebooks label every such table and figure). */
export function showsSimulatedData(nb: Notebook): boolean {
  return nb.cells.some((c) =>
    (c.outputs ?? []).some((o) => /SIMULATED|simulated data|ILLUSTRATIVE/.test(JSON.stringify([o.data?.['text/html'], o.data?.['text/markdown'], o.text]))),
  );
}

function layout(title: string, body: string, options: { depth?: number; interactive?: boolean } = {}): string {
  const up = '../'.repeat(options.depth ?? 0);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="${up}style.css">`,
    ...(hasMath(body) ? [`<link rel="stylesheet" href="${up}katex/katex.min.css">`] : []),
    ...(options.interactive ? [`<script src="${up}plotly.min.js"></script>`, `<script src="${up}site.js" defer></script>`] : []),
    '</head>',
    '<body>',
    `<nav class="site"><a href="${up}index.html">kstbench report</a> · <a href="${up}environment.html">environment and inputs</a></nav>`,
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const SIMULATED_NOTICE =
  '<div class="notice simulated" role="note"><strong>Simulated data.</strong> The responses behind these results come from the project\'s seeded <em>simulated</em> respondents and tutors, calibrated to the papers\' published numbers — not from real language models. They show that the pipeline reproduces the analysis, not what real models do.</div>';
const NO_SIMULATED_NOTICE =
  '<div class="notice" role="note">This page uses no simulated responses (published numbers and domain files only). Other pages of this report show <strong>simulated data</strong>.</div>';

function notebookRows(rows: string[][] | undefined, file: string): string[][] {
  return (rows ?? []).filter((r) => r[0] === file);
}

/** The raw inputs a notebook names through its parameters (a file, or every file under a folder). */
function inputsOf(parameters: string[][], rawInputs: string[][]): string[][] {
  const paths = parameters
    .map((r) => /^`"(.*)"`$/.exec(r[2] ?? '')?.[1])
    .filter((p): p is string => p !== undefined && p.startsWith('data/raw'));
  return rawInputs.filter((r) => paths.some((p) => r[0] === p || r[0]!.startsWith(`${p.replace(/\/$/, '')}/`)));
}

function provenance(input: SiteInput, file: string): string {
  const env = input.environment;
  const software = new Map((env['Software'] ?? []).map((r) => [r[0]!, r[1]!]));
  const params = notebookRows(env['Notebook parameters'], file);
  const seeds = notebookRows(env['Seeds'], file);
  const inputs = inputsOf(params, env['Raw inputs'] ?? []);
  const code = (v: string) => `<code>${escapeHtml(v.replace(/^`|`$/g, ''))}</code>`;
  const facts = [
    ['commit', input.commit ? code(input.commit) : 'the commit this report was checked out with (a committed report cannot name its own commit; see the source fingerprint)'],
    ['source fingerprint', `${code(input.sourceFingerprint)} <span class="hint">(SHA-256 over the code, notebook sources and inputs: <code>npm run report -- --fingerprint</code>)</span>`],
    ['executed with', ['Node.js', 'tslab (notebook kernel)', 'TypeScript inside tslab', 'Chromium (figure export)', 'operating system'].filter((k) => software.has(k)).map((k) => `${escapeHtml(k)} ${escapeHtml(software.get(k)!)}`).join('; ')],
    ['seeds', seeds.length === 0 ? 'none (no random draws in this notebook)' : seeds.map((r) => `${escapeHtml(r[1]!)} = ${code(r[2]!)}`).join(', ')],
  ];
  const table = (head: string[], rows: string[][], render: (r: string[]) => string[]) =>
    `<table class="facts"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${render(r).map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
  return [
    '<section class="provenance">',
    '<h2>Provenance</h2>',
    `<dl>${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`,
    '<details><summary>Parameters of this run</summary>',
    params.length === 0 ? '<p>This notebook has no parameters.</p>' : table(['parameter', 'value'], params, (r) => [escapeHtml(r[1]!), code(r[2]!)]),
    '</details>',
    '<details><summary>Input files and their SHA-256</summary>',
    inputs.length === 0
      ? '<p>No file under <code>data/raw/</code> is named by this notebook\'s parameters; all inputs are on the <a href="environment.html">environment page</a>.</p>'
      : table(['file', 'bytes', 'SHA-256'], inputs, (r) => [code(r[0]!), escapeHtml(r[1]!), code(r[2]!)]),
    '</details>',
    '</section>',
  ].join('\n');
}

/** One notebook's page, plus the figure files its "interactive version" links point to. */
export function renderNotebookPage(
  input: SiteInput,
  index: number,
): { html: string; figures: Map<string, string | Buffer>; interactive: boolean } {
  const { file, notebook } = input.notebooks[index]!;
  const figures = new Map<string, string | Buffer>();
  let counter = 0;
  const ctx: OutputContext = {
    page: file,
    claims: claimIndex(notebook.cells.flatMap((c) => (c.outputs ?? []).map((o) => o.data?.['text/html']).filter((h) => h !== undefined).map((h) => (Array.isArray(h) ? h.join('') : String(h))))),
    interactive: false,
    nextId: () => `fig-${++counter}`,
    rewriteLink: (href) =>
      rewriteNotebookLink(href, (name) => {
        const fig = ctx.lastFigure;
        if (fig?.plotly !== undefined) {
          figures.set(`${name}.html`, figurePage(name, fig.plotly));
          return `figures/${name}.html`;
        }
        if (fig?.svg !== undefined) {
          figures.set(`${name}.svg`, fig.svg);
          return `figures/${name}.svg`;
        }
        if (fig?.png !== undefined) {
          figures.set(`${name}.png`, Buffer.from(fig.png, 'base64'));
          return `figures/${name}.png`;
        }
        return null;
      }),
  };
  const cells: string[] = [];
  for (const cell of notebook.cells) {
    const source = cellSource(cell);
    // The cell's nbformat id is its anchor, so the claims ledger can link to the cell that shows a claim.
    const cellId = cell.id !== undefined ? ` id="${escapeHtml(cell.id)}"` : '';
    if (cell.cell_type === 'markdown') {
      cells.push(`<div class="cell markdown"${cellId}>${renderMarkdown(source, ctx)}</div>`);
      continue;
    }
    if (cell.cell_type === 'raw' || source.trim() === '') continue;
    ctx.lastFigure = undefined;
    const tags = cellTags(cell);
    const label = tags.includes('parameters') ? ' <span class="tag">parameters</span>' : tags.includes('injected-parameters') ? ' <span class="tag injected">injected parameters</span>' : '';
    const outputs = (cell.outputs ?? []).map((o) => renderOutput(o, ctx)).join('\n');
    cells.push(
      [
        `<div class="cell code"${cellId}>`,
        `<div class="prompt">In [${cell.execution_count ?? ' '}]:${label}</div>`,
        sourceHidden(cell.metadata)
          ? `<details class="hidden-source"><summary>solution (the cell is collapsed in the notebook; click to show its code)</summary><pre class="source"><code class="language-typescript">${escapeHtml(source)}</code></pre></details>`
          : `<pre class="source"><code class="language-typescript">${escapeHtml(source)}</code></pre>`,
        outputs ? `<div class="outputs">\n${outputs}\n</div>` : '',
        '</div>',
      ].join('\n'),
    );
  }
  const prev = input.notebooks[index - 1];
  const next = input.notebooks[index + 1];
  const title = notebookTitle(notebook, file);
  const pager = [
    prev ? `<a href="${pageName(prev.file)}">← ${renderInline(notebookTitle(prev.notebook, prev.file))}</a>` : '<span></span>',
    next ? `<a href="${pageName(next.file)}">${renderInline(notebookTitle(next.notebook, next.file))} →</a>` : '<span></span>',
  ];
  const body = [
    `<header><p class="source-file">${escapeHtml(file)}</p></header>`,
    showsSimulatedData(notebook) ? SIMULATED_NOTICE : NO_SIMULATED_NOTICE,
    provenance(input, file),
    `<main>\n${cells.join('\n')}\n</main>`,
    `<footer class="pager">${pager.join('')}</footer>`,
  ].join('\n');
  return { html: layout(title.replace(/[*_`]/g, ''), body, { interactive: ctx.interactive }), figures, interactive: ctx.interactive };
}

/** True for a cell Jupyter shows collapsed (`metadata.jupyter.source_hidden`), as the exercises' solutions are. */
export function sourceHidden(metadata: Record<string, unknown>): boolean {
  const jupyter = metadata['jupyter'];
  return typeof jupyter === 'object' && jupyter !== null && (jupyter as { source_hidden?: unknown }).source_hidden === true;
}

/** A figure's own interactive page in report/figures/. */
function figurePage(name: string, spec: unknown): string {
  const json = JSON.stringify(sortKeysDeep(spec)).replace(/</g, '\\u003c');
  const body = `<main><figure class="figure interactive"><div class="plotly-figure" id="fig-1" data-spec="fig-1-spec"></div><script type="application/json" id="fig-1-spec">${json}</script></figure></main>`;
  return layout(name, body, { depth: 1, interactive: true });
}

function indexPage(input: SiteInput): string {
  const items = input.notebooks.map(({ file, notebook }) => {
    const sim = showsSimulatedData(notebook) ? ' <span class="badge">simulated data</span>' : '';
    return `<li><a href="${pageName(file)}">${renderInline(notebookTitle(notebook, file))}</a>${sim} <span class="source-file">${escapeHtml(file)}</span></li>`;
  });
  const body = [
    '<header><h1>kstbench: the notebooks, executed</h1>',
    `<p>Every page below is one notebook of this project as <code>npm run reproduce</code> executed it: the prose, the code, and its outputs (tables and figures). Where a paper publishes a number, it stands beside the computed one; agreeing cells are marked <span class="agrees">${COLOUR_WORDS.agrees}</span>, differing ones <span class="differs">${COLOUR_WORDS.differs}</span> with the difference Δ = computed − published.</p></header>`,
    // A run on collected responses only (a study of one's own with real models) has no simulated notice.
    input.notebooks.some(({ notebook }) => showsSimulatedData(notebook)) ? SIMULATED_NOTICE : '',
    // Not an <ol>: its counter (1, 2, …) would stand beside the notebooks' own numbers, which skip.
    `<main><ul class="notebooks">\n${items.join('\n')}\n</ul>`,
    paperItemsTable(input),
    claimsLink(input),
    `<p>Software, parameters, seeds and the SHA-256 of every input: <a href="environment.html">environment and inputs</a>. Source fingerprint <code>${escapeHtml(input.sourceFingerprint)}</code>${input.commit ? `, commit <code>${escapeHtml(input.commit)}</code>` : ''}.</p></main>`,
  ].join('\n');
  return layout('kstbench report', body);
}

/** Every table and figure of both papers beside the page that has it (a supplement's contents). */
function paperItemsTable(input: SiteInput): string {
  const pages = new Map(input.notebooks.map(({ file, notebook }) => [file.split('/').pop()!.replace(/\.ipynb$/, ''), { file, notebook }]));
  const rows = PAPER_ITEMS.map((p) => {
    const nb = pages.get(p.notebook);
    const where = nb ? `<a href="${pageName(nb.file)}">${renderInline(notebookTitle(nb.notebook, nb.file))}</a>` : `<span class="unlinked">${escapeHtml(p.notebook)} (not in this report)</span>`;
    return `<tr><td>[${p.paper}]</td><td class="paper-item">${escapeHtml(p.item)}</td><td>${escapeHtml(p.shows)}</td><td>${where}${p.note ? ` <span class="hint">(${escapeHtml(p.note)})</span>` : ''}</td></tr>`;
  });
  return [
    '<h2 id="paper-items">Every table and figure of the two papers</h2>',
    '<div class="table-scroll"><table class="paper-items"><thead><tr><th>paper</th><th>item</th><th>what it shows</th><th>page</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table></div>',
  ].join('\n');
}

/** The notebook cell that opens the claims ledger (id `claims-md`), as a link for the index; '' without one. */
function claimsLink(input: SiteInput): string {
  const owner = input.notebooks.find(({ notebook }) => notebook.cells.some((c) => c.id === CLAIMS_CELL_ID));
  if (!owner) return '';
  return `<p class="claims-link"><strong>Claims ledger:</strong> <a href="${pageName(owner.file)}#${CLAIMS_CELL_ID}">every published number of both papers, its rebuilt value and status, each linked to the cell that shows it</a>.</p>`;
}

/** Id of the cell that opens the claims ledger in notebook 00 (the ledger test keeps it). */
const CLAIMS_CELL_ID = 'claims-md';

function environmentPage(input: SiteInput): string {
  return layout('Environment and inputs', `<main class="environment">\n${renderMarkdown(input.environmentMarkdown)}\n</main>`);
}

/** Every file of the site, by path inside report/ (sorted, so writing is deterministic too). */
export function buildSite(input: SiteInput): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  let interactive = false;
  input.notebooks.forEach((nb, i) => {
    const page = renderNotebookPage(input, i);
    files.set(pageName(nb.file), page.html);
    for (const [name, data] of page.figures) files.set(`figures/${name}`, data);
    interactive ||= page.interactive || [...page.figures.keys()].some((n) => n.endsWith('.html'));
  });
  files.set('index.html', indexPage(input));
  files.set('environment.html', environmentPage(input));
  files.set('style.css', SITE_CSS);
  if ([...files.values()].some((f) => typeof f === 'string' && hasMath(f))) {
    if (!input.katexAssets) throw new Error('a page has maths but no KaTeX assets were given');
    for (const [name, data] of input.katexAssets()) files.set(`katex/${name}`, data);
  }
  if (interactive) {
    if (!input.plotlyBundle) throw new Error('a figure is interactive but no plotly bundle was given');
    files.set('plotly.min.js', input.plotlyBundle());
    files.set('site.js', SITE_JS);
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** SHA-256 (hex) of a list of (name, bytes) pairs, order-independent: the names are sorted first. */
export function fingerprint(entries: ReadonlyArray<{ name: string; data: string | Buffer }>): string {
  const h = createHash('sha256');
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    h.update(`${e.name}\0${createHash('sha256').update(e.data).digest('hex')}\n`);
  }
  return h.digest('hex');
}
