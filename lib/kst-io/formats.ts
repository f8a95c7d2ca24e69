import { InputError, visible } from '../errors';
import { TAB_HINT } from '../io/csv';

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

/**
 * A parsed file: the matrix, packed (row k occupies cells[k · items .. (k + 1) · items), one 0/1/2
 * byte per item, so a space file of 787,355 states over 28 items takes 22 MB, not one array per row),
 * with the 1-based file line of each row.
 */
export interface ParsedMatrix {
  format: MatrixFormat;
  /** SRBT header's struct, when the file has one. */
  struct?: SrbtStruct;
  /** SRBT header comment (text after the struct / `ASCII`), if any. */
  comment?: string;
  /** `#` comment lines of an SRBT file, without the `#`. */
  comments: string[];
  /** Item names from a CSV header, as written (unquoted); undefined for the matrix formats. */
  ids?: string[];
  items: number;
  rowCount: number;
  cells: Uint8Array;
  /** lines[k] = 1-based line of row k. */
  lines: Int32Array;
  /** True when some cell is 2 (a basis code). */
  hasTwo: boolean;
  /** For surmise-csv: the item each row belongs to. */
  rowItems?: string[];
}

/** Row k of a parsed matrix (a view into its cells). */
export function matrixRow(parsed: ParsedMatrix, k: number): Uint8Array {
  return parsed.cells.subarray(k * parsed.items, (k + 1) * parsed.items);
}

function refuse(file: string, line: number | undefined, reason: string): never {
  throw new InputError(line === undefined ? `${file}: ${reason}` : `${file}:${line}: ${reason}`, { file, line });
}

/**
 * Text as a message shows it: JSON-quoted, with every invisible or control character (a BOM, a
 * zero-width space, a non-breaking space, a tab …) written as \u{…}, so that "found "1 "" cannot
 * hide what is wrong.
 */
export function shown(text: string): string {
  return visible(JSON.stringify(text));
}

/**
 * Splits text into lines as kstIO's readers (R's readLines) see them: a UTF-8 byte-order mark at the
 * start is dropped, `\r\n` counts as `\n`, the newline after the last line may be missing, and blank
 * lines at the end of the file are ignored. A blank line before the last row stays an error (the row
 * it stands for would be read as a state).
 */
export function splitLines(text: string, file: string): string[] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) refuse(file, undefined, 'empty file');
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  while (lines.length > 0 && /^[ \t]*$/.test(lines[lines.length - 1]!)) lines.pop();
  if (lines.length === 0) refuse(file, undefined, 'the file has only blank lines');
  return lines;
}

function count(file: string, lineNo: number, text: string | undefined, what: string): number {
  if (text === undefined) refuse(file, lineNo, `missing the ${what} line`);
  if (!/^\d+$/.test(text.trim())) refuse(file, lineNo, `expected the ${what} as a positive integer, found ${shown(text)}`);
  const value = Number(text.trim());
  if (value <= 0) refuse(file, lineNo, `the ${what} must be positive, found ${value}`);
  return value;
}

/** Spaces and tabs around a row are dropped, as kstIO's trimws does; any other character is a symbol. */
function trimSpaces(text: string): string {
  return text.replace(/^[ \t]+|[ \t]+$/g, '');
}

/** Writes the 0/1(/2) symbols of one row into `cells` at `offset`; returns true when a 2 was read. */
/**
 * Refuses a bad row. A tab inside it is a separator (write.table(sep = "\t"), a spreadsheet's TSV),
 * which no kstIO format has: the line is named as tab-separated rather than by its first symbol (an
 * item name is not a 0), with the formats that read it once the tabs are replaced.
 */
function refuseRow(file: string, lineNo: number, row: string, reason: string): never {
  if (row.includes('\t')) {
    refuse(file, lineNo, `${shown(row)} looks tab-separated; no kstIO format separates by tabs: replace the tabs by commas to read it as CSV (--format csv), or remove them from 0/1 rows (--format matrix)`);
  }
  refuse(file, lineNo, reason);
}

function digitRow(file: string, lineNo: number, text: string, items: number, allowTwo: boolean, cells: Uint8Array, offset: number): boolean {
  const row = trimSpaces(text);
  if (row.length !== items) {
    if (row === '') refuse(file, lineNo, `blank line where a row of ${items} symbol(s) is expected`);
    // A stray symbol (a non-breaking or zero-width space looks like nothing) is the cause to name.
    const stray = (allowTwo ? /[^012]/u : /[^01]/u).exec(row);
    if (stray) refuseRow(file, lineNo, row, `symbol ${shown(stray[0])} in column ${stray.index + 1} (allowed: 0, 1${allowTwo ? ', 2' : ''})`);
    refuseRow(file, lineNo, row, `ragged row: ${row.length} symbol(s) where the file has ${items} item(s)`);
  }
  let two = false;
  for (let j = 0; j < items; j++) {
    const c = row.charCodeAt(j) - 48;
    if (c !== 0 && c !== 1 && !(allowTwo && c === 2)) {
      refuseRow(file, lineNo, row, `symbol ${shown(row[j]!)} in column ${j + 1} (allowed: 0, 1${allowTwo ? ', 2' : ''})`);
    }
    if (c === 2) two = true;
    cells[offset + j] = c;
  }
  return two;
}

/** The refusal of a count that does not match the rows: the count's line and the first line past the rows. */
function wrongCount(file: string, countLine: number, announced: number, found: number, firstRowLine: number, lines: number): never {
  const what = `line ${countLine} announces ${announced} row(s)`;
  if (found < announced) {
    refuse(file, countLine, `wrong count: ${what}, but the file ends after ${found} (its last line is ${lines})`);
  }
  refuse(file, countLine, `wrong count: ${what}, but line ${firstRowLine + announced} is row ${announced + 1} (the file has ${found})`);
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
  let countLine = 0;
  if (format === 'srbt') {
    const m = /^#SRBT v2\.0 (\S+)(?: (.*))?$/.exec(lines[0]!);
    if (!m) refuse(file, 1, `expected an SRBT header "#SRBT v2.0 <struct> ...", found ${shown(lines[0]!)}`);
    if (!(SRBT_STRUCTS as readonly string[]).includes(m[1]!)) {
      refuse(file, 1, `unknown SRBT struct ${shown(m[1]!)} (expected ${SRBT_STRUCTS.join(', ')})`);
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
    items = trimSpaces(lines[0]!).length;
    if (items === 0) refuse(file, 1, 'blank first line');
  } else {
    items = count(file, at + 1, lines[at], 'number of items');
    at++;
    countLine = at + 1;
    if (struct !== 'relation') {
      rowsExpected = count(file, at + 1, lines[at], struct === 'data' ? 'number of response patterns' : 'number of states');
      at++;
    } else {
      rowsExpected = items;
      countLine = at;
    }
    if (format === 'srbt') {
      while (at < lines.length && lines[at]!.startsWith('#')) comments.push(lines[at++]!.slice(1));
    }
  }
  const allowTwo = struct === undefined || struct === 'basis';
  const first = at;
  const rowCount = lines.length - at;
  if (rowsExpected !== undefined && rowCount !== rowsExpected) wrongCount(file, countLine, rowsExpected, rowCount, first + 1, lines.length);
  if (rowCount === 0) refuse(file, undefined, 'no rows');
  const cells = new Uint8Array(rowCount * items);
  const lineNos = new Int32Array(rowCount);
  let hasTwo = false;
  for (let k = 0; at < lines.length; at++, k++) {
    if (digitRow(file, at + 1, lines[at]!, items, allowTwo, cells, k * items)) hasTwo = true;
    lineNos[k] = at + 1;
  }
  const out: ParsedMatrix = { format, comments, items, rowCount, cells, lines: lineNos, hasTwo };
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
      if (i < text.length && text[i] !== ',') {
        // Name what follows, escaped: a tab there is a TSV file, which kstIO's write.csv never writes.
        const hint = text[i] === '\t' ? TAB_HINT : '';
        refuse(file, lineNo, `${shown(text.slice(i, i + 10))} after a closing quote, where a comma or the line's end is expected${hint}`);
      }
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
  const header = csvCells(file, 1, lines[0]!);
  let ids = header;
  if (surmise) {
    if (header[0] !== 'Item' && header[0] !== 'item') refuse(file, 1, `a surmise-function CSV starts with the column "Item", found ${shown(header[0]!)}`);
    ids = header.slice(1);
  }
  if (ids.length === 0) refuse(file, 1, 'the header names no item');
  const seen = new Set<string>();
  ids.forEach((id) => {
    if (id.trim() === '') refuse(file, 1, 'the header has an empty item ID');
    if (seen.has(id)) refuse(file, 1, `the header names item ${shown(id)} twice`);
    seen.add(id);
  });
  const rowCount = lines.length - 1;
  if (rowCount === 0) refuse(file, undefined, 'no rows after the header');
  const items = ids.length;
  const cells = new Uint8Array(rowCount * items);
  const lineNos = new Int32Array(rowCount);
  const rowItems: string[] = [];
  let hasTwo = false;
  for (let k = 1; k < lines.length; k++) {
    const fields = csvCells(file, k + 1, lines[k]!);
    if (fields.length !== header.length) {
      refuse(file, k + 1, lines[k]!.trim() === '' ? 'blank line where a row is expected' : `ragged row: ${fields.length} field(s) where the header has ${header.length}`);
    }
    let values = fields;
    if (surmise) {
      if (!seen.has(fields[0]!)) refuse(file, k + 1, `the clause belongs to ${shown(fields[0]!)}, which is not in the header`);
      rowItems.push(fields[0]!);
      values = fields.slice(1);
    }
    const offset = (k - 1) * items;
    values.forEach((v, j) => {
      const t = v.trim();
      if (t !== '0' && t !== '1' && !(t === '2' && !surmise)) {
        refuse(file, k + 1, `value ${shown(v)} for item ${shown(ids[j]!)} (allowed: 0, 1${surmise ? '' : ', 2'})${t.includes('\t') ? TAB_HINT : ''}`);
      }
      if (t === '2') hasTwo = true;
      cells[offset + j] = Number(t);
    });
    lineNos[k - 1] = k + 1;
  }
  const out: ParsedMatrix = { format: surmise ? 'surmise-csv' : 'csv', comments: [], ids, items, rowCount, cells, lines: lineNos, hasTwo };
  if (surmise) out.rowItems = rowItems;
  return out;
}

/** The file's lines for format detection: BOM, CR and blanks around each line and at the end dropped. */
function trimmedLines(text: string): string[] {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l).replace(/^[ \t]+|[ \t]+$/g, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * For a CSV whose header starts with the cell `Item`, which of its two readings its rows fit, by
 * structure: a surmise-function CSV (each row's first cell one of the header's items, that item's own
 * column coded 1, the rest 0/1) or a CSV of states whose first item is named "Item" (every cell a 0/1/2
 * code, one per header name, the first unquoted: writers quote names, not codes). Items named 0, 1 or 2
 * can fit both; undefined when the header does not start with `Item` (or the text is not a CSV at all).
 */
export function itemCsvReadings(text: string | string[]): { surmise: boolean; plain: boolean } | undefined {
  const lines = typeof text === 'string' ? trimmedLines(text) : text;
  const cellsOf = (k: number): string[] | undefined => {
    try {
      return csvCells('', k + 1, lines[k]!);
    } catch {
      return undefined;
    }
  };
  const header = cellsOf(0);
  if (header === undefined || (header[0] !== 'Item' && header[0] !== 'item')) return undefined;
  const names = header.slice(1);
  let surmise = true;
  let plain = true;
  for (let k = 1; k < lines.length && (surmise || plain); k++) {
    const cells = cellsOf(k);
    if (cells === undefined || cells.length !== header.length) return { surmise: false, plain: false };
    const codes = cells.map((c) => c.trim());
    plain &&= !lines[k]!.startsWith('"') && codes.every((c) => c === '0' || c === '1' || c === '2');
    const own = names.indexOf(cells[0]!);
    surmise &&= own >= 0 && codes[own + 1] === '1' && codes.slice(1).every((c) => c === '0' || c === '1');
  }
  return { surmise, plain };
}

/**
 * Guesses the format: `#SRBT` → srbt; a comma or quote in the first line → csv (surmise-csv when the
 * first field is `Item` and the rows are shaped as clauses, see itemCsvReadings); a file whose every line is a 0/1 row of one length → matrix, unless its two
 * first lines are counts that fit the rest exactly (a one-item KST file); two number lines first →
 * kst (so that a KST file with a wrong count is refused for its count, not misread as a matrix),
 * unless they are 0/1 rows as long as the third line and line 1 does not announce that length (a
 * matrix with one bad row: that row is refused, not a count of 0 items on line 1); otherwise matrix. kstIO's own heuristic compares the first and last line lengths.
 */
export function detectFormat(text: string): MatrixFormat {
  const lines = trimmedLines(text);
  const first = lines[0] ?? '';
  if (first.startsWith('#SRBT')) return 'srbt';
  if (first.includes(',') || first.startsWith('"')) {
    const readings = itemCsvReadings(lines);
    if (readings === undefined) return 'csv';
    if (readings.surmise !== readings.plain) return readings.surmise ? 'surmise-csv' : 'csv';
    // Both (items named 0, 1, 2: importStructure tries both readings) → the clauses. Neither: a
    // malformed file, refused by the reading its line 2 suggests (a clause starts with an item R
    // quotes, a row of states with an unquoted code).
    return readings.surmise || !/^[012](,|$)/.test(lines[1] ?? '') ? 'surmise-csv' : 'csv';
  }
  const numbers = lines.length >= 2 && /^\d+$/.test(first) && /^\d+$/.test(lines[1]!);
  if (numbers && lines.length >= 3) {
    const n = Number(first);
    const m = Number(lines[1]);
    const rest = lines.slice(2);
    if (rest.length === m && rest.every((l) => l.length === n)) return 'kst';
  }
  const isMatrix = lines.every((l) => l.length === first.length && /^[012]+$/.test(l));
  // Matrix rows are numbers too ("00000", "10000"): two first lines shaped like the third, which is not
  // as long as line 1 says, are rows of a matrix with a bad line further on, not KST counts.
  const third = lines[2];
  const rowShaped = (l: string): boolean => third !== undefined && l.length === third.length && /^[012]+$/.test(l);
  const rowsNotCounts = rowShaped(first) && rowShaped(lines[1] ?? '') && third!.length !== Number(first);
  return numbers && !isMatrix && !rowsNotCounts ? 'kst' : 'matrix';
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
