import { extname, join } from 'node:path';
import { z } from 'zod';
import { validateResponses, type ResponseRecord } from '../analysis';
import { CONDITIONS } from '../conditions';
import { InputError, describeZodIssues } from '../errors';
import { writeFilesAtomic } from '../io/atomic';
import { csvRecords } from '../io/csv';
import { parseJsonl } from '../io/json';
import { readUtf8File } from '../io/read';
import type { Domain } from '../kst';
import { ExtractedLineSchema } from '../records/extracted';
import type { Study } from './manifest';

/**
 * Bring your responses: an external response table (CSV or JSONL) read into a study instead of a
 * collection — the route for the authors' data when it is published, or for responses collected with
 * other tools. One row per response:
 *
 *   model, domain, state, condition, order, recommended   (required)
 *   raw_text, status, run_id, prerequisites               (optional)
 *
 * `state` and `recommended` are component IDs: in CSV separated by spaces or `;` (empty or `∅` for the
 * empty set); in JSONL an array or such a string. `status` is valid (default) | invalid | missing;
 * `recommended` is read only for valid rows. `prerequisites` (P1 only, the model's graph) is `p>q`
 * pairs separated by spaces or `;`. CSV follows RFC 4180 (quoted fields may span lines, `""` is a quote).
 * Every row is checked against the study's domains by the analysis' own reader (validateResponses): a
 * bad row is one InputError `file:line: field: problem`, and nothing is written. Imported responses are
 * never simulated (`simulated: false`).
 */

export const IMPORT_REQUIRED = ['model', 'domain', 'state', 'condition', 'order', 'recommended'] as const;
export const IMPORT_OPTIONAL = ['raw_text', 'status', 'run_id', 'prerequisites'] as const;

const IdList = z.union([z.array(z.string()), z.string()]);
/** One row of an import table, after CSV cells or a JSONL object are read (strings or arrays). */
export const ImportRowSchema = z.strictObject({
  model: z.string().trim().min(1),
  domain: z.string().trim().min(1),
  state: IdList,
  condition: z.enum(CONDITIONS),
  order: z.union([z.int().min(1), z.string().regex(/^\s*[1-9]\d*\s*$/, 'must be a whole number ≥ 1').transform((s) => Number(s))]),
  recommended: IdList.nullable().optional(),
  raw_text: z.string().nullable().optional(),
  status: z.enum(['valid', 'invalid', 'missing']).optional(),
  run_id: z.string().min(1).optional(),
  prerequisites: IdList.nullable().optional(),
});

/** The extracted line an imported row becomes (the `kstbench analyze` form plus what the import adds). */
export const ImportedLineSchema = ExtractedLineSchema.extend({
  raw_text: z.string().nullable(),
  prerequisites: z.array(z.tuple([z.string(), z.string()])).optional(),
  source: z.object({ file: z.string(), line: z.int() }),
});
export type ImportedLine = z.infer<typeof ImportedLineSchema>;

function ids(value: string | string[] | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  const t = value.trim();
  return t === '' || t === '∅' ? [] : t.split(/[\s;]+/).filter((s) => s !== '');
}

function csvRows(text: string, file: string): Array<{ line: number; value: Record<string, string> }> {
  const records = csvRecords(text, file);
  if (records.length === 0) throw new InputError(`${file}: empty file (expected a header: ${IMPORT_REQUIRED.join(',')})`, { file });
  const header = records[0]!.cells.map((c) => c.trim());
  for (const col of IMPORT_REQUIRED) {
    if (!header.includes(col)) throw new InputError(`${file}:1: header: column ${col} is missing (required: ${IMPORT_REQUIRED.join(',')})`, { file, line: 1 });
  }
  const known = new Set<string>([...IMPORT_REQUIRED, ...IMPORT_OPTIONAL]);
  const unknown = header.find((h) => !known.has(h));
  if (unknown !== undefined) throw new InputError(`${file}:1: header: unknown column ${JSON.stringify(unknown)} (known: ${[...known].join(', ')})`, { file, line: 1 });
  return records.slice(1).map(({ line, cells }) => {
    if (cells.length !== header.length) throw new InputError(`${file}:${line}: ${cells.length} field(s) where the header has ${header.length}`, { file, line });
    const value: Record<string, string> = {};
    header.forEach((h, i) => {
      const c = cells[i]!;
      // An empty optional cell is absent; an empty required cell stays (an empty set, or an error).
      if (c !== '' || (IMPORT_REQUIRED as readonly string[]).includes(h)) value[h] = c;
    });
    return { line, value };
  });
}

/** The format of an import file: the manifest's `format`, else its extension (.csv, .jsonl/.json). */
export function importFormat(file: string, given?: 'csv' | 'jsonl'): 'csv' | 'jsonl' {
  if (given) return given;
  const ext = extname(file).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  throw new InputError(`${file}: cannot tell CSV from JSONL by the extension ${JSON.stringify(ext)}; set responses.format in the manifest`, { file });
}

/**
 * Parses and validates a whole import table against the domains (pure: text in, lines out). The first
 * bad row throws `file:line: field: problem`.
 */
export function parseResponseTable(text: string, file: string, format: 'csv' | 'jsonl', domains: readonly Domain[]): { lines: ImportedLine[]; records: ResponseRecord[] } {
  const raw = format === 'csv' ? csvRows(text, file) : parseJsonl(text, file).lines;
  if (raw.length === 0) throw new InputError(`${file}: no response rows`, { file });
  const lines: ImportedLine[] = raw.map(({ line, value }) => {
    const parsed = ImportRowSchema.safeParse(value);
    if (!parsed.success) throw new InputError(`${file}:${line}: ${describeZodIssues(parsed.error.issues)}`, { file, line });
    const r = parsed.data;
    const state = ids(r.state);
    const status = r.status ?? 'valid';
    const pairs = ids(r.prerequisites).map((p) => {
      const m = /^([^>]+)>([^>]+)$/.exec(p);
      if (!m) throw new InputError(`${file}:${line}: prerequisites: ${JSON.stringify(p)} is not a pair p>q`, { file, line });
      return [m[1]!, m[2]!] as [string, string];
    });
    return {
      run_id: r.run_id ?? `import|${r.model}|${r.domain}|${r.condition}|${r.order}|${state.join(',')}`,
      model: r.model,
      domain: r.domain,
      condition: r.condition,
      order: r.order,
      state,
      recommended: status === 'valid' ? ids(r.recommended) : null,
      status,
      simulated: false,
      raw_text: r.raw_text ?? null,
      ...(r.prerequisites !== undefined && r.prerequisites !== null ? { prerequisites: pairs } : {}),
      source: { file, line },
    };
  });
  const records = validateResponses(
    lines.map((l) => ({ line: l.source.line, value: l })),
    domains,
    file,
  );
  return { lines, records };
}

function readImport(study: Study): { file: string; text: string; format: 'csv' | 'jsonl' } {
  const spec = study.manifest.responses!;
  const file = study.resolve(spec.file);
  const text = readUtf8File(file, (reason) => `${study.file}: responses.file: cannot read ${file} (${reason})`);
  return { file, text, format: importFormat(file, spec.format) };
}

/** `study check` for an importing study: every row valid; nothing written. */
export function checkImportFile(study: Study, domains: readonly Domain[]): { file: string; rows: number } {
  const { file, text, format } = readImport(study);
  return { file, rows: parseResponseTable(text, file, format, domains).lines.length };
}

/**
 * Imports the study's response table into its collection folder: `extracted.jsonl` (what the analysis
 * reads; with the raw text, the P1 graph and the source line) and `import.json` (file, format, rows),
 * written together and only after every row passed.
 */
export function importStudyResponses(study: Study, domains: readonly Domain[]): { file: string; rows: number; models: string[] } {
  const { file, text, format } = readImport(study);
  const { lines } = parseResponseTable(text, file, format, domains);
  const dir = study.paths.collection;
  const models = [...new Set(lines.map((l) => l.model))].sort();
  const info = { command: 'kstbench study import', source: { file, format, rows: lines.length }, models, simulated: false };
  writeFilesAtomic([
    { path: join(dir, 'extracted.jsonl'), data: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' },
    { path: join(dir, 'import.json'), data: `${JSON.stringify(info, null, 2)}\n` },
  ]);
  return { file, rows: lines.length, models };
}
