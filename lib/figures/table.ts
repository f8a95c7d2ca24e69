import { join, relative } from 'node:path';
import { inspect } from 'node:util';
import { outputBase } from './output-root';
import { InputError } from '../errors';
import { writeFilesAtomic } from '../io/atomic';
import { csvField, csvText } from '../io/csv';
import { escapeHtml } from '../io/html';
import { csvMetaPath, csvMetaText } from '../records/csv-meta';
import { projectRoot } from '../notebook/project';
import { showHtml } from './display';
import { markSimulated } from './simulated';
import { checkOutputName } from './spec';

/**
 * Tables for notebooks: a danfojs DataFrame (anything with `columns` and `values`, so danfojs itself is
 * never imported here) or an array of row objects, rendered as an HTML table for the cell and written
 * as CSV (the processed data) plus that HTML.
 */

/** The shape of a danfojs DataFrame that tables need. */
export interface DataFrameLike {
  columns: string[];
  values: unknown[][] | unknown[];
}

export type TableInput = DataFrameLike | ReadonlyArray<Record<string, unknown>>;

export interface Table {
  columns: string[];
  rows: unknown[][];
}

/**
 * Normalises the input to columns + rows. Row objects: columns in first-seen key order over all rows,
 * missing cells are null.
 * @example
 * toTable([{ a: 1 }, { a: 2, b: 'x' }]); // => { columns: ['a', 'b'], rows: [[1, null], [2, 'x']] }
 */
export function toTable(input: TableInput): Table {
  if (Array.isArray(input)) {
    const rowsIn = input as ReadonlyArray<Record<string, unknown>>;
    const columns: string[] = [];
    for (const row of rowsIn) {
      if (row === null || typeof row !== 'object') throw new InputError('table rows must be objects');
      for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
    }
    return { columns, rows: rowsIn.map((r) => columns.map((c) => (c in r ? r[c] : null))) };
  }
  const df = input as DataFrameLike;
  if (!Array.isArray(df.columns) || !Array.isArray(df.values)) {
    throw new InputError('table: expected a DataFrame (columns, values) or an array of row objects');
  }
  const columns = df.columns.map(String);
  // A one-column danfojs frame may give a flat values array.
  const rows = (df.values as unknown[]).map((v) => (Array.isArray(v) ? [...v] : [v]));
  return { columns, rows };
}

/** A cell as CSV text: the project's one CSV writer (lib/io/csv.ts). */
export const csvCell = csvField;

/** RFC 4180 CSV with a header row and `\n` line ends (final newline included), by lib/io/csv.ts. */
export function toCsv(table: Table): string {
  return csvText(table.columns, table.rows);
}

/** How a value is shown in the HTML table: numbers with `digits` decimals when given. */
export function htmlCell(value: unknown, digits?: number): string {
  if (typeof value === 'number' && digits !== undefined && Number.isFinite(value)) return value.toFixed(digits);
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Percentages are printed with one decimal, as both papers print them (61.3, 88.0). */
export const PERCENT_DIGITS = 1;

/** A string that stands for a number ("< .0001", "-0.25", "12 %"): right-aligned like one. */
const NUMBER_LIKE = /^[<>=≤≥~± ]*[-+−]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*%?$/i;

/**
 * How each column is shown. Numeric columns (numbers, number-like strings and placeholders such as
 * "not printed", at least one real number) are right-aligned, the others left-aligned — explicitly,
 * since Jupyter's stylesheets right-align every cell. Decimals per column: a column whose header has
 * "%" gets PERCENT_DIGITS for every number in it (88 → 88.0, beside a paper's 88.0); another column
 * with any non-integer gets `digits` for every number (when given); all-integer columns (counts) stay
 * integers; a column "X (paper)" shares the decimals of column "X". So a computed value and the paper's
 * value beside it are printed alike.
 */
export function columnFormats(table: Table, digits?: number): Array<{ numeric: boolean; digits: number | undefined }> {
  const formats = table.columns.map((column, j) => {
    const cells = table.rows.map((r) => r[j]).filter((v) => v !== null && v !== undefined);
    const numbers = cells.filter((v): v is number => typeof v === 'number');
    const numberLike = cells.filter((v) => typeof v === 'string' && NUMBER_LIKE.test(v.trim())).length;
    const placeholders = cells.filter((v) => typeof v === 'string' && !/\d/.test(v)).length;
    const numeric = numbers.length + numberLike > 0 && numbers.length + numberLike + placeholders === cells.length;
    const decimal = numbers.some((v) => Number.isFinite(v) && !Number.isInteger(v));
    const columnDigits = column.includes('%') && numbers.length > 0 ? PERCENT_DIGITS : decimal ? digits : undefined;
    return { numeric, digits: columnDigits };
  });
  // A computed column and its "… (paper)" twin share their decimals (a paper's 81.0 stored as 81 is
  // shown as 81.0 beside a computed 83.9).
  table.columns.forEach((column, j) => {
    const m = /^(.*) \(paper\)$/.exec(column);
    const k = m ? table.columns.indexOf(m[1]!) : -1;
    if (k < 0) return;
    const shared = formats[k]!.digits ?? formats[j]!.digits;
    formats[j]!.digits = shared;
    formats[k]!.digits = shared;
  });
  return formats;
}

/** Tables wider than this many columns scroll sideways and wrap their headers, so they stay readable. */
const WIDE_TABLE = 8;

/**
 * An HTML table (numbers right-aligned, text left-aligned), with an optional caption. With `fieldsDown`
 * (a column name) the table is shown on its side: one row per column, one column per row, headed by
 * that column's values — for a few examples of a wide record (17 fields read down the page).
 */
export function toHtmlTable(table: Table, options: { caption?: string; digits?: number; fieldsDown?: string } = {}): string {
  const formats = columnFormats(table, options.digits);
  if (options.fieldsDown !== undefined) return fieldsDownHtml(table, formats, options.fieldsDown, options.caption);
  const wide = table.columns.length > WIDE_TABLE;
  const align = (j: number) => `text-align:${formats[j]!.numeric ? 'right' : 'left'}`;
  // Wide tables: numeric headers wrap within 8em (the numbers under them are short); text columns keep
  // the width of their contents.
  const headStyle = (j: number) =>
    !wide ? align(j) : formats[j]!.numeric ? `${align(j)};vertical-align:bottom;white-space:normal;max-width:8em;overflow-wrap:anywhere` : `${align(j)};vertical-align:bottom`;
  const head = table.columns.map((c, j) => `<th style="${headStyle(j)}">${escapeHtml(c)}</th>`).join('');
  const body = table.rows
    .map((r) => `<tr>${r.map((v, j) => `<td style="${align(j)}">${escapeHtml(htmlCell(v, formats[j]!.digits))}</td>`).join('')}</tr>`)
    .join('\n');
  const caption = options.caption ? `<caption>${escapeHtml(options.caption)}</caption>\n` : '';
  const html = `<table class="kstbench-table"${wide ? ' style="font-size:12px"' : ''}>\n${caption}<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>\n`;
  return wide ? `<div class="kstbench-table-wide" style="overflow-x:auto;max-width:100%">\n${html}</div>\n` : html;
}

/** toHtmlTable's `fieldsDown` layout; each value keeps its column's format. */
function fieldsDownHtml(table: Table, formats: ReturnType<typeof columnFormats>, by: string, caption?: string): string {
  const key = table.columns.indexOf(by);
  if (key < 0) throw new InputError(`table: fieldsDown names ${JSON.stringify(by)}, which is not a column (${table.columns.join(', ')})`);
  const headers = table.rows.map((r) => htmlCell(r[key]));
  if (new Set(headers).size !== headers.length) throw new InputError(`table: fieldsDown column ${JSON.stringify(by)} repeats a value (${headers.join(', ')})`);
  const head = `<th style="text-align:left">field</th>${headers.map((h) => `<th style="text-align:left">${escapeHtml(h)}</th>`).join('')}`;
  const body = table.columns
    .map((c, j) => {
      const align = `text-align:${formats[j]!.numeric ? 'right' : 'left'}`;
      return `<tr><th style="text-align:left">${escapeHtml(c)}</th>${table.rows.map((r) => `<td style="${align}">${escapeHtml(htmlCell(r[j], formats[j]!.digits))}</td>`).join('')}</tr>`;
    })
    .join('\n');
  const captionHtml = caption ? `<caption>${escapeHtml(caption)}</caption>\n` : '';
  return `<table class="kstbench-table">\n${captionHtml}<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>\n`;
}

export interface SavedTable {
  name: string;
  files: { csv: string; html: string; meta: string };
  table: Table;
  csv: string;
  html: string;
  /** Displays the HTML table in the current notebook cell. */
  show(): void;
}

/** Options of `saveTable`; `simulated` is required, so no table can leave out where its numbers come from. */
export interface SaveTableOptions {
  /** The HTML caption (marked by markSimulated when `simulated`). */
  title?: string;
  /**
   * True when any value in the table comes from simulated records — also a table that sets published
   * numbers beside simulated ones. False for tables of published numbers, domain files or hand-written
   * examples only.
   */
  simulated: boolean;
  /** What is simulated, as the caption's mark names it (default "data"; e.g. "responses", "ratings"). */
  simulatedWhat?: string;
  digits?: number;
  dir?: string;
  fieldsDown?: string;
}

/**
 * Writes `<dir>/<name>.csv`, `<dir>/<name>.html` and the sidecar `<dir>/<name>.csv.meta.json` (default
 * dir `<project>/data/processed/tables`) together, atomically. `title` becomes the HTML caption;
 * `simulated: true` marks it with the project's title mark (markSimulated: "… — SIMULATED data") and
 * the sidecar (lib/records/csv-meta.ts) says `simulated: true`, so the CSV itself stays plain RFC 4180.
 * `digits` sets the decimals of non-integer columns in the HTML only (percent columns get
 * PERCENT_DIGITS; see columnFormats); the CSV keeps full precision; `fieldsDown` shows the HTML on its
 * side (see toHtmlTable), the CSV keeps one row per record.
 *
 * @example
 * // saveTable("04-overall", rows, { title: "All responses", simulated: true }).show();
 * // caption "All responses — SIMULATED data"; 04-overall.csv.meta.json has "simulated": true
 */
export function saveTable(name: string, input: TableInput, options: SaveTableOptions): SavedTable {
  checkOutputName(name, 'table');
  if (typeof options?.simulated !== 'boolean') {
    throw new InputError(`table ${name}: options need simulated (boolean): true when any value comes from simulated records`, { item: name });
  }
  if (options.title !== undefined && typeof options.title !== 'string') throw new InputError(`table ${name}: title must be a string`, { item: name });
  const root = projectRoot();
  const dir = options.dir ?? join(outputBase(root), 'data', 'processed', 'tables');
  const table = toTable(input);
  const csv = toCsv(table);
  const what = options.simulatedWhat ?? 'data';
  // Without a title, a simulated table is still captioned: its name, marked.
  const caption = options.title !== undefined || options.simulated ? markSimulated(options.title ?? name, options.simulated, what) : undefined;
  const htmlOptions: { caption?: string; digits?: number; fieldsDown?: string } = {};
  if (caption !== undefined) htmlOptions.caption = caption;
  if (options.digits !== undefined) htmlOptions.digits = options.digits;
  if (options.fieldsDown !== undefined) htmlOptions.fieldsDown = options.fieldsDown;
  const html = toHtmlTable(table, htmlOptions);
  const files = { csv: join(dir, `${name}.csv`), html: join(dir, `${name}.html`), meta: csvMetaPath(join(dir, `${name}.csv`)) };
  const meta = csvMetaText({
    csv: `${name}.csv`,
    simulated: options.simulated,
    title: caption ?? null,
    columns: table.columns,
    rows: table.rows.length,
  });
  writeFilesAtomic([
    { path: files.csv, data: csv },
    { path: files.html, data: html },
    { path: files.meta, data: meta },
  ]);
  return {
    name,
    files,
    table,
    csv,
    html,
    show() {
      showHtml(html);
    },
    [inspect.custom]() {
      return `SavedTable ${relative(root, join(dir, name))}.{csv,html} (${table.rows.length} rows)`;
    },
  } as SavedTable;
}
