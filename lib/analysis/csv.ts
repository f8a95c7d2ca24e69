import { csvText } from '../io/csv';

/**
 * Rows of objects as CSV with a header line: the named columns, in that order, through the project's
 * one CSV writer (`lib/io/csv.ts`: full-precision numbers, empty null and non-finite, RFC 4180 quoting).
 */
export function toCsv<T extends object>(columns: ReadonlyArray<keyof T & string>, rows: readonly T[]): string {
  return csvText(
    columns,
    rows.map((row) => columns.map((c) => (row as Record<string, unknown>)[c])),
  );
}
