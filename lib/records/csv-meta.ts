import { z } from 'zod';

/**
 * The sidecar `<name>.csv.meta.json` written beside every CSV under `data/processed/` (by `saveTable`
 * and by `kstbench analyze`), read by anyone — or any test — that needs to know what a CSV is made
 * from. It is the tables' counterpart of a figure's `figures/<name>.json`. The label lives in a
 * sidecar, not in the CSV, so the CSV stays plain RFC 4180 with one header row: a leading comment line
 * breaks danfojs, Excel and R's read.csv, and an extra constant column would change the documented
 * columns of `kstbench analyze`.
 *
 * - csv: the file name of the CSV it describes (same folder);
 * - simulated: true when any value in the CSV comes from simulated records (a table mixing published
 *   and simulated values included);
 * - title: the HTML caption as shown — for a simulated table marked by markSimulated ("… — SIMULATED
 *   data"), like a figure manifest's title — or null for a CSV without one (`kstbench analyze`);
 * - columns, rows: the CSV's header and number of data rows, to check the sidecar belongs to the CSV.
 */
export const CsvMetaSchema = z.strictObject({
  csv: z.string().regex(/\.csv$/),
  simulated: z.boolean(),
  title: z.string().nullable(),
  columns: z.array(z.string()),
  rows: z.number().int().min(0),
});
export type CsvMeta = z.infer<typeof CsvMetaSchema>;

/** The sidecar's file name for a CSV file name or path: `table3.csv` → `table3.csv.meta.json`. */
export function csvMetaPath(csvPath: string): string {
  return `${csvPath}.meta.json`;
}

/**
 * The sidecar's text (checked against the schema, keys in schema order, final newline).
 *
 * @example
 * JSON.parse(csvMetaText({ csv: "t.csv", simulated: false, title: null, columns: ["a"], rows: 2 })).simulated; // => false
 */
export function csvMetaText(meta: CsvMeta): string {
  return `${JSON.stringify(CsvMetaSchema.parse(meta), null, 2)}\n`;
}
