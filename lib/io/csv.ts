import { InputError, visible } from '../errors';

/**
 * The one CSV writer of the project (RFC 4180 with `\n` line ends and a final newline): the analysis
 * tables (`lib/analysis`) and every table a notebook saves (`lib/figures/table.ts`) are written by it,
 * so a value looks the same in every CSV.
 *
 * A field is quoted only when it must be: when it holds a quote, a comma or a line break, or begins or
 * ends with white space (which some readers trim). Numbers are written at full precision (JavaScript's
 * shortest round-trip form); null, undefined and a number that is not finite (NaN, ±Infinity: no CSV
 * reader agrees on their spelling) are an empty field; a Date is its ISO time; any other object is JSON.
 */

/**
 * One value as a CSV field.
 *
 * @example
 * csvField('a,b'); // => '"a,b"'
 * csvField(0.1 + 0.2); // => '0.30000000000000004'
 * csvField(Number.NaN); // => ''
 */
export function csvField(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number') text = Number.isFinite(value) ? String(value) : '';
  else if (typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else if (value instanceof Date) text = value.toISOString();
  else text = JSON.stringify(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A whole CSV file: the header line, then one line per row (each row's values in header order).
 *
 * @example
 * csvText(['x', 'note'], [[1, 'a'], [2.5, null]]); // => 'x,note\n1,a\n2.5,\n'
 */
export function csvText(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  const lines = [header.map(csvField).join(','), ...rows.map((row) => row.map(csvField).join(','))];
  return `${lines.join('\n')}\n`;
}

/**
 * The one CSV reader (RFC 4180, as csvText and R's write.csv write it): splits CSV text into records,
 * each with the line it starts on (a quoted field may span lines, `""` is a quote; empty lines are
 * skipped). A closing quote followed by anything but a comma or the line's end is refused, naming what
 * follows (a tab there is a TSV file). Used by `kstbench import`'s items file and the study's response
 * import.
 */
export function csvRecords(text: string, file: string): Array<{ line: number; cells: string[] }> {
  const out: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let any = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), (i += 1);
      else if (ch === '"') {
        quoted = false;
        refuseAfterClosingQuote(text, i + 1, file, start);
      }
      else {
        if (ch === '\n') line += 1;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell === '') (quoted = true), (any = true);
    else if (ch === ',') cells.push(cell), (cell = ''), (any = true);
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      if (any || cell !== '') out.push({ line: start, cells: [...cells, cell] });
      cells = [];
      cell = '';
      any = false;
      line += 1;
      start = line;
    } else (cell += ch), (any = true);
  }
  if (quoted) throw new InputError(`${file}:${start}: unterminated quoted field`, { file, line: start });
  if (any || cell !== '') out.push({ line: start, cells: [...cells, cell] });
  return out;
}


/** What a CSV reader adds to a message when a tab stands where a comma should. */
export const TAB_HINT = '; the fields are separated by tabs, a CSV file separates them by commas';

/** Refuses text right after a closing quote (at `at`) other than a comma, a line break or the end. */
function refuseAfterClosingQuote(text: string, at: number, file: string, line: number): void {
  const next = text[at];
  if (next === undefined || next === ',' || next === '\n' || next === '\r') return;
  const rest = text.slice(at).split(/\r?\n/, 1)[0]!.slice(0, 10);
  const hint = next === '\t' ? TAB_HINT : '';
  throw new InputError(`${file}:${line}: ${visible(JSON.stringify(rest))} after a closing quote, where a comma or the line's end is expected${hint}`, { file, line });
}
