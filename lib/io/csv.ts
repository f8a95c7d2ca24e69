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
