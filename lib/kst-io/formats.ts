import { InputError } from '../errors';

/**
 * The kstIO file formats (C. Hockemeyer's R package kstIO, shared by kst, kstMatrix, pks, DAKS, CDSS):
 * one parser and one writer per format, all working on a 0/1/2 matrix. See lib/kst-io/README.md.
 *
 *   matrix  one line per state / response pattern, one `0`/`1` per item, no separator, every line
 *           (the last one included) ended by a newline;
 *   kst     (KST Tools) the matrix after two lines: number of items, number of rows;
 *   srbt    (SRBT v2.0) `#SRBT v2.0 <struct> ASCII <comment>` (basis and relation files have no
 *           `ASCII`), then the counts (a relation file has one: the items), then any `#` comment
 *           lines, then the matrix;
 *   csv     a header row of item IDs (R's write.csv quotes them), then the rows, comma-separated;
 *   surmise-csv  a surmise function as kstMatrix's kmsurmisefunction writes it: header `Item` plus
 *           the item IDs, then one row per clause: the item it belongs to, then the clause's atom
 *           (the item itself included) as 0/1.
 * Basis matrices use 1 where the state is minimal for the item, 2 where it contains the item without
 * being minimal, 0 otherwise. Relation matrices are n × n with row i, column j = 1 when i is surmised
 * from j (i is a prerequisite of j), so column j is the minimal state of item j.
 */

export const MATRIX_FORMATS = ['matrix', 'kst', 'srbt', 'csv', 'surmise-csv'] as const;
export type MatrixFormat = (typeof MATRIX_FORMATS)[number];

export const SRBT_STRUCTS = ['basis', 'space', 'structure', 'relation', 'data'] as const;
export type SrbtStruct = (typeof SRBT_STRUCTS)[number];

/** A parsed file: the rows of the matrix with the 1-based file line of each row. */
export interface ParsedMatrix {
  format: MatrixFormat;
  /** SRBT header's struct, when the file has one. */
  struct?: SrbtStruct;
  /** SRBT header comment (text after the struct / `ASCII`), if any. */
  comment?: string;
  /** `#` comment lines of an SRBT file, without the `#`. */
  comments: string[];
  /** Item IDs from a CSV header; undefined for the matrix formats. */
  ids?: string[];
  items: number;
  rows: Uint8Array[];
  /** lines[i] = 1-based line of rows[i]. */
  lines: number[];
  /** For surmise-csv: the item each row belongs to. */
  rowItems?: string[];
}

function refuse(file: string, line: number | undefined, reason: string): never {
  throw new InputError(line === undefined ? `${file}: ${reason}` : `${file}:${line}: ${reason}`, { file, line });
}

/** Splits text into lines, requiring the newline after the last line (kstIO's convention). */
function splitLines(text: string, file: string): string[] {
  if (text.length === 0) refuse(file, undefined, 'empty file');
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines[lines.length - 1] !== '') refuse(file, lines.length, 'the last line has no newline at its end (kstIO files end every line, the last one included, with a newline)');
  lines.pop();
  return lines;
}

function count(file: string, lineNo: number, text: string | undefined, what: string): number {
  if (text === undefined) refuse(file, lineNo, `missing the ${what} line`);
  if (!/^\d+$/.test(text.trim())) refuse(file, lineNo, `expected the ${what} as a positive integer, found ${JSON.stringify(text)}`);
  const value = Number(text.trim());
  if (value <= 0) refuse(file, lineNo, `the ${what} must be positive, found ${value}`);
  return value;
}

function digitRow(file: string, lineNo: number, text: string, items: number, allowTwo: boolean): Uint8Array {
  if (text.length !== items) {
    refuse(file, lineNo, `ragged row: ${text.length} symbol(s) where the file has ${items} item(s)`);
  }
  const row = new Uint8Array(items);
  for (let j = 0; j < items; j++) {
    const c = text.charCodeAt(j) - 48;
    if (c !== 0 && c !== 1 && !(allowTwo && c === 2)) {
      refuse(file, lineNo, `symbol ${JSON.stringify(text[j])} in column ${j + 1} (allowed: 0, 1${allowTwo ? ', 2' : ''})`);
    }
    row[j] = c;
  }
  return row;
}

/** Parses a kstIO matrix-family file (matrix, kst, srbt); `allowTwo` admits basis codes. */
function parseMatrixFamily(text: string, file: string, format: 'matrix' | 'kst' | 'srbt'): ParsedMatrix {
  const lines = splitLines(text, file);
  let at = 0;
  let struct: SrbtStruct | undefined;
  let comment: string | undefined;
  const comments: string[] = [];
  let items: number;
  let rowsExpected: number | undefined;
  if (format === 'srbt') {
    const m = /^#SRBT v2\.0 (\S+)(?: (.*))?$/.exec(lines[0] ?? '');
    if (!m) refuse(file, 1, `expected an SRBT header "#SRBT v2.0 <struct> ..." , found ${JSON.stringify(lines[0] ?? '')}`);
    if (!(SRBT_STRUCTS as readonly string[]).includes(m[1]!)) {
      refuse(file, 1, `unknown SRBT struct ${JSON.stringify(m[1])} (expected ${SRBT_STRUCTS.join(', ')})`);
    }
    struct = m[1] as SrbtStruct;
    let rest = m[2] ?? '';
    if (struct === 'basis' || struct === 'relation') {
      if (rest.startsWith('ASCII')) rest = rest.slice(5).trimStart();
    } else {
      if (!rest.startsWith('ASCII')) refuse(file, 1, `an SRBT ${struct} header must name the encoding: "#SRBT v2.0 ${struct} ASCII"`);
      rest = rest.slice(5).trimStart();
    }
    if (rest !== '') comment = rest;
    at = 1;
  }
  if (format === 'matrix') {
    if (lines.length === 0) refuse(file, undefined, 'no rows');
    items = lines[0]!.length;
  } else {
    items = count(file, at + 1, lines[at], 'number of items');
    at++;
    if (struct !== 'relation') {
      rowsExpected = count(file, at + 1, lines[at], struct === 'data' ? 'number of response patterns' : 'number of states');
      at++;
    } else rowsExpected = items;
    if (format === 'srbt') {
      while (at < lines.length && lines[at]!.startsWith('#')) comments.push(lines[at++]!.slice(1));
    }
  }
  const allowTwo = struct === undefined || struct === 'basis';
  const rows: Uint8Array[] = [];
  const lineNos: number[] = [];
  for (; at < lines.length; at++) {
    rows.push(digitRow(file, at + 1, lines[at]!, items, allowTwo));
    lineNos.push(at + 1);
  }
  if (rowsExpected !== undefined && rows.length !== rowsExpected) {
    refuse(file, undefined, `wrong count: the header announces ${rowsExpected} row(s), the file has ${rows.length}`);
  }
  if (rows.length === 0) refuse(file, undefined, 'no rows');
  const out: ParsedMatrix = { format, comments, items, rows, lines: lineNos };
  if (struct) out.struct = struct;
  if (comment !== undefined) out.comment = comment;
  return out;
}

/** One CSV line split on commas, with R-style double quotes removed ("a","b" or a,b). */
export function csvCells(file: string, lineNo: number, text: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) refuse(file, lineNo, 'unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += text[i++];
      }
      if (i < text.length && text[i] !== ',') refuse(file, lineNo, 'text after a closing quote');
    } else {
      const end = text.indexOf(',', i);
      cell = text.slice(i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    }
    cells.push(cell);
    if (i >= text.length) break;
    i++; // comma
  }
  return cells;
}

function parseCsv(text: string, file: string, surmise: boolean): ParsedMatrix {
  const lines = splitLines(text, file);
  if (lines.length === 0) refuse(file, undefined, 'no header row');
  const header = csvCells(file, 1, lines[0]!);
  let ids = header;
  if (surmise) {
    if (header[0] !== 'Item' && header[0] !== 'item') refuse(file, 1, `a surmise-function CSV starts with the column "Item", found ${JSON.stringify(header[0])}`);
    ids = header.slice(1);
  }
  if (ids.length === 0) refuse(file, 1, 'the header names no item');
  const seen = new Set<string>();
  ids.forEach((id) => {
    if (id.trim() === '') refuse(file, 1, 'the header has an empty item ID');
    if (seen.has(id)) refuse(file, 1, `the header names item ${JSON.stringify(id)} twice`);
    seen.add(id);
  });
  const rows: Uint8Array[] = [];
  const lineNos: number[] = [];
  const rowItems: string[] = [];
  for (let k = 1; k < lines.length; k++) {
    const cells = csvCells(file, k + 1, lines[k]!);
    if (cells.length !== header.length) refuse(file, k + 1, `ragged row: ${cells.length} field(s) where the header has ${header.length}`);
    let values = cells;
    if (surmise) {
      if (!seen.has(cells[0]!)) refuse(file, k + 1, `the clause belongs to ${JSON.stringify(cells[0])}, which is not in the header`);
      rowItems.push(cells[0]!);
      values = cells.slice(1);
    }
    const row = new Uint8Array(ids.length);
    values.forEach((v, j) => {
      const t = v.trim();
      if (t !== '0' && t !== '1' && !(t === '2' && !surmise)) {
        refuse(file, k + 1, `value ${JSON.stringify(v)} for item ${JSON.stringify(ids[j])} (allowed: 0, 1${surmise ? '' : ', 2'})`);
      }
      row[j] = Number(t);
    });
    rows.push(row);
    lineNos.push(k + 1);
  }
  if (rows.length === 0) refuse(file, undefined, 'no rows after the header');
  const out: ParsedMatrix = { format: surmise ? 'surmise-csv' : 'csv', comments: [], ids, items: ids.length, rows, lines: lineNos };
  if (surmise) out.rowItems = rowItems;
  return out;
}

/**
 * Guesses the format: `#SRBT` → srbt; a comma or quote in the first line → csv (surmise-csv when the
 * first field is `Item`); two count lines that fit the rest exactly → kst; otherwise matrix. kstIO's own
 * heuristic compares the first and last line lengths; this one checks the counts, so a KST file with
 * one item is not mistaken for a matrix.
 */
export function detectFormat(text: string): MatrixFormat {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines[lines.length - 1] === '') lines.pop();
  const first = lines[0] ?? '';
  if (first.startsWith('#SRBT')) return 'srbt';
  if (first.includes(',') || first.startsWith('"')) return /^"?[Ii]tem"?(,|$)/.test(first) ? 'surmise-csv' : 'csv';
  if (lines.length >= 3 && /^\d+$/.test(first) && /^\d+$/.test(lines[1]!)) {
    const n = Number(first);
    const m = Number(lines[1]);
    const rest = lines.slice(2);
    if (rest.length === m && rest.every((l) => l.length === n)) return 'kst';
  }
  return 'matrix';
}

/** Parses `text` (from `file`, for messages) in the given format, or the detected one. */
export function parseMatrixFile(text: string, file: string, format?: MatrixFormat): ParsedMatrix {
  const f = format ?? detectFormat(text);
  if (f === 'csv' || f === 'surmise-csv') return parseCsv(text, file, f === 'surmise-csv');
  return parseMatrixFamily(text, file, f);
}

/** Renders rows of 0/1/2 in one of the formats. `struct` is required for srbt; `ids` for the CSVs. */
export function formatMatrix(
  rows: Iterable<Uint8Array>,
  options: { format: MatrixFormat; items: number; rowCount?: number; struct?: SrbtStruct; comment?: string; ids?: readonly string[]; rowItems?: readonly string[] },
): string {
  let out = '';
  for (const chunk of formatMatrixChunks(rows, options)) out += chunk;
  return out;
}

/** The same as formatMatrix, one chunk (header or row line) at a time, for streaming large files. */
export function* formatMatrixChunks(
  rows: Iterable<Uint8Array>,
  options: { format: MatrixFormat; items: number; rowCount?: number; struct?: SrbtStruct; comment?: string; ids?: readonly string[]; rowItems?: readonly string[] },
): Generator<string> {
  const { format, items } = options;
  const quote = (s: string): string => `"${s.replace(/"/g, '""')}"`;
  if (format === 'csv' || format === 'surmise-csv') {
    const ids = options.ids ?? [];
    yield `${[...(format === 'surmise-csv' ? ['Item'] : []), ...ids].map(quote).join(',')}\n`;
    let k = 0;
    for (const row of rows) {
      const cells = Array.from(row, String);
      yield `${format === 'surmise-csv' ? `${quote(options.rowItems![k]!)},` : ''}${cells.join(',')}\n`;
      k++;
    }
    return;
  }
  if (format === 'srbt') {
    const struct = options.struct!;
    const encoding = struct === 'basis' || struct === 'relation' ? '' : ' ASCII';
    yield `#SRBT v2.0 ${struct}${encoding}${options.comment ? ` ${options.comment}` : ''}\n`;
  }
  if (format === 'srbt' || format === 'kst') {
    yield `${items}\n`;
    if (options.struct !== 'relation' || format === 'kst') yield `${options.rowCount}\n`;
  }
  for (const row of rows) yield `${row.join('')}\n`;
}
