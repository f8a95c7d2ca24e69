/**
 * A small Markdown renderer for the notebooks' prose and `text/markdown` outputs — the subset they use
 * (CommonMark-like): ATX headings, paragraphs, `*`/`-` and `1.` lists (nested by indentation), `>`
 * quotes, fenced code, pipe tables (with `\|` escapes), `---` rules; inline code, links, `**bold**`,
 * `*italic*`/`_italic_`, and `$…$` maths typeset by KaTeX (HTML + MathML, no script on the page; its
 * stylesheet and fonts are copied into the report by `katexAssets`). Raw HTML is escaped, never passed
 * through: the prose is text, and the report must not run anything a notebook's author did not mean.
 *
 * Links go through `rewriteLink`, so the report can point a notebook's relative links at its own
 * pages (or drop them when the target is not part of the report).
 */

import katex from 'katex';
import { escapeHtml } from '../io/html';

export interface MarkdownOptions {
  /** Maps a link target as written to the one the page uses; null renders the text without a link. */
  rewriteLink?: (href: string) => string | null;
}

/**
 * One `$…$` formula as KaTeX HTML (with MathML for screen readers). A formula KaTeX cannot parse is
 * shown as its TeX in red with the parser's message as a tooltip (KaTeX's `throwOnError: false`), so
 * a typo shows on the page instead of stopping the build.
 *
 * @example
 * renderMath('K^O').includes('class="katex"'); // => true
 * renderMath('K^O').includes('<annotation encoding="application/x-tex">K^O</annotation>'); // => true
 */
export function renderMath(tex: string): string {
  return katex.renderToString(tex, { throwOnError: false, output: 'htmlAndMathml', strict: 'ignore' });
}

/** True when an HTML page contains KaTeX output (so it needs the KaTeX stylesheet). */
export function hasMath(html: string): boolean {
  return html.includes('class="katex"');
}

/**
 * Inline Markdown → HTML (text escaped).
 * @example
 * renderInline('a *b* `c` & <d>'); // => 'a <em>b</em> <code>c</code> &amp; &lt;d&gt;'
 */
export function renderInline(text: string, options: MarkdownOptions = {}): string {
  const out: string[] = [];
  let i = 0;
  let plain = '';
  const flush = () => {
    out.push(emphasis(escapeHtml(plain)));
    plain = '';
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!|$<>~]/.test(text[i + 1]!)) {
      // Escaped punctuation: kept literally (as an entity so emphasis cannot pick it up).
      flush();
      out.push(`&#${text.charCodeAt(i + 1)};`);
      i += 2;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(run, i + run.length);
      if (end > 0) {
        flush();
        out.push(`<code>${escapeHtml(text.slice(i + run.length, end).replace(/^ (.*) $/, '$1'))}</code>`);
        i = end + run.length;
        continue;
      }
    }
    if (ch === '[') {
      const m = /^\[((?:[^\]\\]|\\.)*)\]\(([^()\s]*(?:\([^()\s]*\))?[^()\s]*)\)/.exec(text.slice(i));
      if (m) {
        flush();
        const inner = renderInline(m[1]!, options);
        const href = options.rewriteLink ? options.rewriteLink(m[2]!) : m[2]!;
        if (href === null) out.push(`<span class="unlinked" title="${escapeHtml(m[2]!)} is not part of the report">${inner}</span>`);
        else out.push(`<a href="${escapeHtml(href)}"${/^https?:/.test(href) ? ' rel="noopener"' : ''}>${inner}</a>`);
        i += m[0].length;
        continue;
      }
    }
    if (ch === '$' && text[i + 1] !== '$') {
      const end = text.indexOf('$', i + 1);
      if (end > i + 1 && !/\s/.test(text[i + 1]!) && !/\s/.test(text[end - 1]!)) {
        flush();
        out.push(renderMath(text.slice(i + 1, end)));
        i = end + 1;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out.join('');
}

/** Bold and italic over already-escaped text (no code or links inside: those are handled first). */
function emphasis(html: string): string {
  return html
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/__(?=\S)([\s\S]*?\S)__/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*(?=[^\s*])([^*]*?[^\s*])\*(?![*\w])/g, '$1<em>$2</em>')
    .replace(/(^|[^_\w])_(?=[^\s_])([^_]*?[^\s_])_(?![_\w])/g, '$1<em>$2</em>');
}

/** Splits a table row into cells, honouring `\|` and pipes inside code spans. */
function tableCells(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  let inCode = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && s[i + 1] === '|') {
      cur += '\\|';
      i++;
    } else if (c === '`') {
      inCode = !inCode;
      cur += c;
    } else if (c === '|' && !inCode) {
      cells.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  cells.push(cur.trim());
  return cells;
}

const TABLE_RULE = /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/;
const LIST_ITEM = /^(\s*)([*+-]|\d+[.)])\s+(.*)$/;

/**
 * Block-level Markdown → HTML.
 * @example
 * renderMarkdown('# T\n\ntext'); // => '<h1>T</h1>\n<p>text</p>'
 */
export function renderMarkdown(markdown: string, options: MarkdownOptions = {}): string {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  const isBlank = (l: string | undefined) => l === undefined || l.trim() === '';
  const startsBlock = (l: string) =>
    /^\s*(#{1,6}\s|```|~~~|>|(-{3,}|\*{3,})\s*$)/.test(l) || LIST_ITEM.test(l);
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++;
      const lang = fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : '';
      out.push(`<pre><code${lang}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^\s*(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      out.push(`<h${level}>${renderInline(heading[2]!, options)}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s*(-{3,}|\*{3,})\s*$/.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (/^\s*>/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && !isBlank(lines[i]) && (/^\s*>/.test(lines[i]!) || !startsBlock(lines[i]!))) {
        body.push(lines[i]!.replace(/^\s*>\s?/, ''));
        i++;
      }
      out.push(`<blockquote>\n${renderMarkdown(body.join('\n'), options)}\n</blockquote>`);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]!)) {
      const head = tableCells(line);
      const aligns = tableCells(lines[i + 1]!).map((c) => (c.endsWith(':') ? (c.startsWith(':') ? 'center' : 'right') : c.startsWith(':') ? 'left' : ''));
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && !isBlank(lines[i]) && lines[i]!.includes('|')) rows.push(tableCells(lines[i++]!));
      const style = (j: number) => (aligns[j] ? ` style="text-align:${aligns[j]}"` : '');
      out.push(
        [
          '<table class="md-table">',
          `<thead><tr>${head.map((c, j) => `<th${style(j)}>${renderInline(c, options)}</th>`).join('')}</tr></thead>`,
          '<tbody>',
          ...rows.map((r) => `<tr>${head.map((_, j) => `<td${style(j)}>${renderInline(r[j] ?? '', options)}</td>`).join('')}</tr>`),
          '</tbody>',
          '</table>',
        ].join('\n'),
      );
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      i = renderList(lines, i, out, options);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !isBlank(lines[i]) && !(para.length > 0 && startsBlock(lines[i]!))) para.push(lines[i++]!.trim());
    out.push(`<p>${renderInline(para.join('\n'), options)}</p>`);
  }
  return out.join('\n');
}

/** Renders the list starting at `start` (items at its indentation; deeper lines belong to the items). */
function renderList(lines: string[], start: number, out: string[], options: MarkdownOptions): number {
  const first = LIST_ITEM.exec(lines[start]!)!;
  const indent = first[1]!.length;
  const ordered = /\d/.test(first[2]!);
  const startNumber = ordered ? Number.parseInt(first[2]!, 10) : 1;
  const items: string[][] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i]!;
    const m = LIST_ITEM.exec(line);
    if (m && m[1]!.length === indent && /\d/.test(m[2]!) === ordered) {
      items.push([m[3]!]);
      i++;
      continue;
    }
    if (line.trim() === '') {
      // A blank line ends the list unless the next line continues it (indented, or another item).
      const next = lines[i + 1];
      const nextItem = next !== undefined ? LIST_ITEM.exec(next) : null;
      if (next !== undefined && (/^\s+\S/.test(next) && next.search(/\S/) > indent || (nextItem && nextItem[1]!.length === indent && /\d/.test(nextItem[2]!) === ordered))) {
        items[items.length - 1]!.push('');
        i++;
        continue;
      }
      break;
    }
    const lead = line.search(/\S/);
    if (lead > indent || (!m && !/^\s*(#{1,6}\s|```|>)/.test(line))) {
      items[items.length - 1]!.push(line.slice(Math.min(lead, indent + 2)));
      i++;
      continue;
    }
    break;
  }
  const tag = ordered ? 'ol' : 'ul';
  const startAttr = ordered && startNumber !== 1 ? ` start="${startNumber}"` : '';
  out.push(`<${tag}${startAttr}>`);
  for (const body of items) {
    const text = body.join('\n');
    const html = renderMarkdown(text, options);
    // A tight item (no blank line inside) shows its first paragraph without <p>, as CommonMark does.
    const loose = body.join('\n').trim().includes('\n\n');
    out.push(`<li>${loose ? html : html.replace(/^<p>([\s\S]*?)<\/p>/, '$1')}</li>`);
  }
  out.push(`</${tag}>`);
  return i;
}
