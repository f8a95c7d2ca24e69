import { join, relative } from 'node:path';
import { inspect } from 'node:util';
import { InputError } from '../errors';
import { writeFilesAtomic } from '../io/atomic';
import { projectRoot } from '../notebook/project';
import { showHtml } from './display';
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
 * missing cells are null. Example: `[{a:1},{a:2,b:'x'}]` → columns [a,b], rows [[1,null],[2,'x']].
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

/** A cell as CSV text: numbers in JS shortest round-trip form, null/undefined empty, objects as JSON. */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else if (value instanceof Date) text = value.toISOString();
  else text = JSON.stringify(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 CSV with a header row and `\n` line ends (final newline included). */
export function toCsv(table: Table): string {
  const lines = [table.columns.map(csvCell).join(','), ...table.rows.map((r) => r.map(csvCell).join(','))];
  return `${lines.join('\n')}\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** How a value is shown in the HTML table: non-integers rounded to `digits` decimals when given. */
export function htmlCell(value: unknown, digits?: number): string {
  if (typeof value === 'number' && digits !== undefined && !Number.isInteger(value) && Number.isFinite(value)) {
    return value.toFixed(digits);
  }
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** An HTML table (numbers right-aligned), with an optional caption. */
export function toHtmlTable(table: Table, options: { caption?: string; digits?: number } = {}): string {
  const numeric = table.columns.map((_, j) => table.rows.length > 0 && table.rows.every((r) => r[j] === null || typeof r[j] === 'number'));
  const align = (j: number) => (numeric[j] ? ' style="text-align:right"' : '');
  const head = table.columns.map((c, j) => `<th${align(j)}>${escapeHtml(c)}</th>`).join('');
  const body = table.rows
    .map((r) => `<tr>${r.map((v, j) => `<td${align(j)}>${escapeHtml(htmlCell(v, options.digits))}</td>`).join('')}</tr>`)
    .join('\n');
  const caption = options.caption ? `<caption>${escapeHtml(options.caption)}</caption>\n` : '';
  return `<table class="kstbench-table">\n${caption}<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>\n`;
}

export interface SavedTable {
  name: string;
  files: { csv: string; html: string };
  table: Table;
  csv: string;
  html: string;
  /** Displays the HTML table in the current notebook cell. */
  show(): void;
}

/**
 * Writes `<dir>/<name>.csv` and `<dir>/<name>.html` (default dir `<project>/data/processed/tables`)
 * together, atomically. `title` becomes the HTML caption; `digits` rounds non-integers in the HTML only
 * (the CSV keeps full precision).
 */
export function saveTable(
  name: string,
  input: TableInput,
  options: { title?: string; digits?: number; dir?: string } = {},
): SavedTable {
  checkOutputName(name, 'table');
  const root = projectRoot();
  const dir = options.dir ?? join(root, 'data', 'processed', 'tables');
  const table = toTable(input);
  const csv = toCsv(table);
  const htmlOptions: { caption?: string; digits?: number } = {};
  if (options.title !== undefined) htmlOptions.caption = options.title;
  if (options.digits !== undefined) htmlOptions.digits = options.digits;
  const html = toHtmlTable(table, htmlOptions);
  const files = { csv: join(dir, `${name}.csv`), html: join(dir, `${name}.html`) };
  writeFilesAtomic([
    { path: files.csv, data: csv },
    { path: files.html, data: html },
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
