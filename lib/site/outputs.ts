import { posix } from 'node:path';
import { sortKeysDeep, type Output } from '../notebook/ipynb';
import { markComparisons, type ClaimCell } from './compare';
import { escapeHtml } from '../io/html';
import { renderMarkdown, type MarkdownOptions } from './markdown';

/**
 * One cell output as report HTML. Figures: a plotly spec (`application/vnd.plotly.v1+json`) becomes an
 * interactive figure drawn by the report's one shared copy of plotly; otherwise the SVG or PNG of the
 * bundle is shown as an `<img>` with a data URI (self-contained, and an image cannot clash with the
 * page's ids or styles the way inline SVG can). `text/html` is kept as the notebook shows it, with
 * published-vs-computed tables marked (compare.ts); `text/markdown` is rendered; text is preformatted.
 */

export const PLOTLY_MIME = 'application/vnd.plotly.v1+json';

/** A static or interactive figure found in a cell, for the report's per-figure files. */
export interface FigureFile {
  /** File name inside report/figures/ (`<name>.svg`, `<name>.png` or `<name>.html`). */
  file: string;
  data: string | Buffer;
}

export interface OutputContext extends MarkdownOptions {
  /** Notebook-relative path of the page (for messages). */
  page: string;
  /** A fresh id for an element of this page (`fig-3`). */
  nextId(): string;
  /** Set when an interactive figure was rendered (the page then loads plotly). */
  interactive: boolean;
  /** The last figure rendered in the current cell, for the cell's "interactive version" link. */
  lastFigure?: { svg?: string; png?: string; plotly?: unknown };
  /** The page's claims (lib/site/compare.ts `claimIndex`), so main tables are coloured by the ledger's status. */
  claims?: readonly ClaimCell[];
}

function text(value: unknown): string {
  if (Array.isArray(value)) return value.join('');
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

/** Strips ANSI colour codes (tracebacks may carry them). */
function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}

/** The figure of a bundle as report HTML, or undefined when the bundle holds no figure. */
function figureHtml(data: Record<string, unknown>, ctx: OutputContext): string | undefined {
  const plotly = data[PLOTLY_MIME];
  const svg = data['image/svg+xml'] !== undefined ? text(data['image/svg+xml']) : undefined;
  const png = data['image/png'] !== undefined ? text(data['image/png']).replace(/\s+/g, '') : undefined;
  if (plotly === undefined && svg === undefined && png === undefined) return undefined;
  ctx.lastFigure = {};
  if (svg !== undefined) ctx.lastFigure.svg = svg;
  if (png !== undefined) ctx.lastFigure.png = png;
  if (plotly !== undefined && typeof plotly === 'object') {
    ctx.lastFigure.plotly = plotly;
    ctx.interactive = true;
    const id = ctx.nextId();
    // Keys sorted: the same spec read from disk or from memory must give the same page bytes.
    const spec = JSON.stringify(sortKeysDeep(plotly)).replace(/</g, '\\u003c');
    return `<figure class="figure interactive"><div class="plotly-figure" id="${id}" data-spec="${id}-spec"></div><script type="application/json" id="${id}-spec">${spec}</script></figure>`;
  }
  const src = svg !== undefined ? `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}` : `data:image/png;base64,${png!}`;
  return `<figure class="figure"><img src="${src}" alt="figure"></figure>`;
}

/** Renders one nbformat output. */
export function renderOutput(output: Output, ctx: OutputContext): string {
  switch (output.output_type) {
    case 'stream':
      return `<pre class="output stream ${output.name ?? 'stdout'}">${escapeHtml(stripAnsi(text(output.text)))}</pre>`;
    case 'error':
      return `<pre class="output error">${escapeHtml(stripAnsi([`${output.ename}: ${output.evalue}`, ...(output.traceback ?? [])].join('\n')))}</pre>`;
    default: {
      const data = output.data ?? {};
      const figure = figureHtml(data, ctx);
      if (figure !== undefined) return figure;
      if (data['text/html'] !== undefined) {
        const html = linkCellReferences(markComparisons(text(data['text/html']), ctx.claims));
        const cls = /<img\s[^>]*src="data:image\//.test(html) ? 'output html figure' : 'output html';
        return `<div class="${cls}">${html}</div>`;
      }
      if (data['text/markdown'] !== undefined) return `<div class="output markdown">${renderMarkdown(text(data['text/markdown']), ctx)}</div>`;
      if (data['text/plain'] !== undefined) return `<pre class="output plain">${escapeHtml(stripAnsi(text(data['text/plain'])))}</pre>`;
      return `<p class="output unsupported">(output of type ${escapeHtml(Object.keys(data).join(', ') || 'none')} not shown)</p>`;
    }
  }
}

/**
 * Turns every cell reference written as text in an HTML output (`04-table3-figure1.ipynb#claims-table3`,
 * as the claims ledger prints its counterparts) into a link to that cell on its report page. Only text
 * between tags is touched, never attributes.
 * @example
 * linkCellReferences('<td>04-x.ipynb#claims-a</td>'); // => '<td><a href="04-x.html#claims-a">04-x.ipynb#claims-a</a></td>'
 */
export function linkCellReferences(html: string): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part) =>
      part.startsWith('<') ? part : part.replace(/\b(\d\d-[a-z0-9-]+)\.ipynb#([A-Za-z0-9_-]+)/g, '<a href="$1.html#$2">$1.ipynb#$2</a>'),
    )
    .join('');
}

/**
 * Where a link written in a notebook (relative to notebooks/) points in the report: another notebook →
 * its page; a figure's interactive page (`../figures/<name>.html`, or the report's own copy
 * `../report/figures/<name>.html` that `npm run reproduce` links) → the report's copy of that figure
 * (see `figureLinkTarget`); a web address or an anchor → unchanged; anything else → null (not part of
 * the report, so shown as text rather than as a dead link).
 */
export function rewriteNotebookLink(href: string, figureTarget: (name: string) => string | null): string | null {
  if (/^(https?:|mailto:|#)/.test(href)) return href;
  if (/^[a-z]+:/i.test(href) || href.startsWith('/')) return null;
  const [path, hash] = href.split('#', 2) as [string, string | undefined];
  const resolved = posix.normalize(posix.join('notebooks', path));
  const nb = /^notebooks\/([^/]+)\.ipynb$/.exec(resolved);
  if (nb) return `${nb[1]}.html${hash ? `#${hash}` : ''}`;
  const fig = /^(?:report\/)?figures\/([^/]+)\.(html|svg|png)$/.exec(resolved);
  if (fig) return figureTarget(fig[1]!);
  return null;
}
