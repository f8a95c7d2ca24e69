import { escapeHtml } from '../io/html';
import { printsAs } from '../stats/prints-as';

/**
 * Published beside computed: the notebooks' comparison tables (written by `toHtmlTable`, lib/figures)
 * put a paper's value in a column named `X (paper)` next to the computed `X`, or in a `paper` column
 * next to `computed`. The report marks each such pair: the published cell as published, the computed
 * cell as agreeing (equal at the paper's printed precision) or differing, with the difference shown.
 */

/** The first number in a cell as printed: `61.3` → 61.3, `< .0001` → 0.0001, `7 (2)` → 7; null if none. */
export function leadingNumber(text: string): { value: number; decimals: number } | null {
  const m = /[-−+]?(?:\d+(?:[.,]\d+)?|\.\d+)/.exec(text.replace(/&minus;/g, '−'));
  if (!m) return null;
  const t = m[0].replace('−', '-').replace(',', '.');
  const dot = t.indexOf('.');
  return { value: Number(t), decimals: dot < 0 ? 0 : t.length - dot - 1 };
}

export type Verdict = { kind: 'match' } | { kind: 'differs'; delta?: number; decimals?: number } | { kind: 'none' };

/**
 * Compares a computed cell with the published one as both are printed. Numbers agree when the computed
 * value prints as the published one (lib/stats/prints-as.ts, the rule of the claims ledger and the paper
 * audit: within half a unit of the published last digit, both ends included); otherwise the difference
 * (computed − published) is given. Text agrees when equal. An empty published cell compares nothing.
 * @example
 * compareCells('61.27', '61.3'); // => { kind: 'match' }
 * compareCells('61.35', '61.3'); // => { kind: 'match' }
 * compareCells('58.0', '61.3').kind; // => 'differs'
 * +(compareCells('58.0', '61.3') as { delta: number }).delta.toFixed(1); // => -3.3
 * compareCells('58.0', ''); // => { kind: 'none' }
 */
export function compareCells(computed: string, published: string): Verdict {
  const c = computed.trim();
  const p = published.trim();
  if (p === '' || p === '–' || p === '—' || p === 'n/a') return { kind: 'none' };
  if (c === p) return { kind: 'match' };
  const cn = leadingNumber(c);
  const pn = leadingNumber(p);
  if (cn && pn && /^[^A-Za-z]*$/.test(c.replace(/e[-+]?\d+/i, '')) && /^[^A-Za-z]*$/.test(p)) {
    if (printsAs(cn.value, pn.value, pn.decimals)) return { kind: 'match' };
    return { kind: 'differs', delta: cn.value - pn.value, decimals: Math.max(pn.decimals, Math.min(cn.decimals, pn.decimals + 1)) };
  }
  return { kind: 'differs' };
}

/**
 * The colour of a computed cell in a claims table: the status the ledger's rule gave it (lib/claims/rule.ts).
 * match and within-simulation-spread agree; close, differs and outside-simulation-spread differ (close
 * with no Δ shown beyond the cell); "not rebuildable" compares nothing.
 * @example
 * statusVerdict('match', '61.35', '61.3'); // => { kind: 'match' }
 * statusVerdict('outside-simulation-spread', '63.17', '61.3').kind; // => 'differs'
 */
export function statusVerdict(status: string, computed: string, published: string): Verdict {
  const s = status.trim();
  if (s === 'match' || s === 'within-simulation-spread') return { kind: 'match' };
  if (s === 'close' || s === 'differs' || s === 'outside-simulation-spread') {
    const v = compareCells(computed, published);
    return v.kind === 'differs' ? v : { kind: 'differs' };
  }
  return { kind: 'none' };
}

/** The claims of a page as their claims tables show them: paper text, computed value, status. */
export interface ClaimCell {
  paper: string;
  computed: { value: number; decimals: number } | null;
  status: string;
}

/**
 * Every row of the claims tables (headers `paper`, `computed`, `status`) in a page's HTML outputs, so the
 * page's other comparison tables can take their colour from the ledger's status.
 */
export function claimIndex(htmls: readonly string[]): ClaimCell[] {
  const cells: ClaimCell[] = [];
  for (const html of htmls) {
    for (const [, , inner] of html.matchAll(/<table class="kstbench-table"([^>]*)>([\s\S]*?)<\/table>/g)) {
      const headRow = /<thead><tr>([\s\S]*?)<\/tr><\/thead>/.exec(inner!);
      if (!headRow) continue;
      const headers = [...headRow[1]!.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => unescapeHtml(m[1]!));
      const [p, c, st] = ['paper', 'computed', 'status'].map((h) => headers.indexOf(h)) as [number, number, number];
      if (p < 0 || c < 0 || st < 0) continue;
      for (const [, row] of inner!.matchAll(/<tr>((?:<td[^>]*>[\s\S]*?<\/td>)+)<\/tr>/g)) {
        const tds = [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => unescapeHtml(m[1]!).trim());
        cells.push({ paper: tds[p] ?? '', computed: leadingNumber(tds[c] ?? ''), status: tds[st] ?? '' });
      }
    }
  }
  return cells;
}

/**
 * The ledger status of a main-table cell (computed beside published), found among the page's claims:
 * the claims printed as `published` whose computed value prints as `computed` at the cell's decimals.
 * Undefined when none matches, or when the matches disagree.
 */
export function ledgerStatusOf(index: readonly ClaimCell[], computed: string, published: string): string | undefined {
  const c = leadingNumber(computed);
  if (c === null) return undefined;
  const statuses = new Set(
    index.filter((x) => x.paper === published.trim() && x.computed !== null && printsAs(x.computed.value, c.value, c.decimals)).map((x) => x.status),
  );
  return statuses.size === 1 ? [...statuses][0] : undefined;
}

function unescapeHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** For each column, the index of the column it is compared with (the computed one for a published column). */
export function comparisonPairs(headers: readonly string[]): Map<number, number> {
  const pairs = new Map<number, number>(); // published column → computed column
  headers.forEach((h, j) => {
    const m = /^(.*?)\s*\((?:paper|published)\)$/.exec(h);
    if (m) {
      const k = headers.indexOf(m[1]!);
      if (k >= 0 && k !== j) pairs.set(j, k);
    } else if (h === 'paper' || h === 'published') {
      const k = headers.indexOf('computed');
      if (k >= 0) pairs.set(j, k);
    }
  });
  return pairs;
}

function formatDelta(delta: number, decimals: number): string {
  const text = Math.abs(delta).toFixed(decimals);
  return `${delta < 0 ? '−' : '+'}${text}`;
}

/**
 * Rewrites every `<table class="kstbench-table">` in `html` that has published columns: published cells
 * get class `published`, computed ones `agrees` or `differs` (with a `Δ` note and a tooltip naming the
 * published value). The colour is the ledger's status wherever there is one: a claims table's own
 * status column, or, in a main table, the status of the page's claim (`claims`, from `claimIndex`) with
 * the same printed value whose computed value prints as the cell. Only cells no claim covers are
 * compared by the printed-decimals rule alone. Other HTML is returned unchanged.
 */
export function markComparisons(html: string, claims: readonly ClaimCell[] = []): string {
  return html.replace(/<table class="kstbench-table"([^>]*)>([\s\S]*?)<\/table>/g, (table, attrs: string, inner: string) => {
    const headRow = /<thead><tr>([\s\S]*?)<\/tr><\/thead>/.exec(inner);
    if (!headRow) return table;
    const headers = [...headRow[1]!.matchAll(/<th[^>]*>([\s\S]*?)<\/th>/g)].map((m) => unescapeHtml(m[1]!));
    const pairs = comparisonPairs(headers);
    if (pairs.size === 0) return table;
    const computedOf = new Map([...pairs].map(([pub, comp]) => [comp, pub]));
    // A claims table carries the ledger's own status: the colour is that status, never a second opinion.
    const statusColumn = headers.indexOf('status');
    let agree = 0;
    let differ = 0;
    const body = inner.replace(/<tr>((?:<td[^>]*>[\s\S]*?<\/td>)+)<\/tr>/g, (_row, cellsHtml: string) => {
      const cells = [...cellsHtml.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)].map((m) => ({ attrs: m[1]!, html: m[2]! }));
      const rendered = cells.map((cell, j) => {
        const pub = computedOf.get(j);
        if (pairs.has(j)) return `<td${cell.attrs} class="published">${cell.html}</td>`;
        if (pub === undefined || cells[pub] === undefined) return `<td${cell.attrs}>${cell.html}</td>`;
        const published = unescapeHtml(cells[pub]!.html);
        const shown = unescapeHtml(cell.html);
        const ledger = statusColumn >= 0 && cells[statusColumn] !== undefined ? unescapeHtml(cells[statusColumn]!.html) : ledgerStatusOf(claims, shown, published);
        const verdict = ledger !== undefined ? statusVerdict(ledger, shown, published) : compareCells(shown, published);
        if (verdict.kind === 'none') return `<td${cell.attrs}>${cell.html}</td>`;
        if (verdict.kind === 'match') {
          agree++;
          return `<td${cell.attrs} class="agrees" title="agrees with the published ${escapeHtml(published)}">${cell.html}</td>`;
        }
        differ++;
        const delta = verdict.delta !== undefined ? ` <span class="delta">Δ ${formatDelta(verdict.delta, verdict.decimals ?? 1)}</span>` : '';
        return `<td${cell.attrs} class="differs" title="published: ${escapeHtml(published)}">${cell.html}${delta}</td>`;
      });
      return `<tr>${rendered.join('')}</tr>`;
    });
    const summary = `<p class="comparison-summary">Beside the published values: <span class="agrees">${agree} agree</span> at the paper's precision, <span class="differs">${differ} differ</span> (Δ = computed − published).</p>`;
    return `<table class="kstbench-table comparison"${attrs}>${body}</table>\n${summary}`;
  });
}
