import { readUtf8File } from '../io/read';
import { z } from 'zod';
import { InputError } from '../errors';
import { writeFileAtomic } from '../io/atomic';
import { parseJsonFile } from '../io/json';

/**
 * The Jupyter notebook format (nbformat 4), as much of it as this project reads and writes.
 * Unknown metadata keys are kept as they are (loose objects), so a notebook saved by JupyterLab
 * round-trips without losing anything.
 */

/** Multi-line text as Jupyter stores it on disk: one string, or a list of lines each keeping its `\n`. */
const multiline = z.union([z.string(), z.array(z.string())]);
const mimeBundle = z.record(z.string(), z.unknown());
const metadata = z.looseObject({});

const streamOutput = z.looseObject({
  output_type: z.literal('stream'),
  name: z.enum(['stdout', 'stderr']),
  text: multiline,
});
const displayDataOutput = z.looseObject({
  output_type: z.literal('display_data'),
  data: mimeBundle,
  metadata: metadata.default({}),
});
const executeResultOutput = z.looseObject({
  output_type: z.literal('execute_result'),
  data: mimeBundle,
  metadata: metadata.default({}),
  execution_count: z.number().int().nullable(),
});
const errorOutput = z.looseObject({
  output_type: z.literal('error'),
  ename: z.string(),
  evalue: z.string(),
  traceback: z.array(z.string()),
});
export const outputSchema = z.discriminatedUnion('output_type', [
  streamOutput,
  displayDataOutput,
  executeResultOutput,
  errorOutput,
]);

const cellId = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'cell id must be 1-64 characters of [a-zA-Z0-9_-]');
const codeCell = z.looseObject({
  cell_type: z.literal('code'),
  id: cellId.optional(),
  metadata: metadata.default({}),
  source: multiline,
  outputs: z.array(outputSchema).default([]),
  execution_count: z.number().int().nullable().default(null),
});
const markdownCell = z.looseObject({
  cell_type: z.literal('markdown'),
  id: cellId.optional(),
  metadata: metadata.default({}),
  source: multiline,
});
const rawCell = z.looseObject({
  cell_type: z.literal('raw'),
  id: cellId.optional(),
  metadata: metadata.default({}),
  source: multiline,
});
export const cellSchema = z.discriminatedUnion('cell_type', [codeCell, markdownCell, rawCell]);

export const notebookSchema = z.looseObject({
  nbformat: z.literal(4),
  nbformat_minor: z.number().int().nonnegative(),
  metadata: metadata.default({}),
  cells: z.array(cellSchema),
});

/** One output of a code cell, as written to the notebook file. */
export interface Output {
  output_type: 'stream' | 'display_data' | 'execute_result' | 'error';
  name?: 'stdout' | 'stderr';
  text?: string | string[];
  data?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  execution_count?: number | null;
  ename?: string;
  evalue?: string;
  traceback?: string[];
  [key: string]: unknown;
}

export interface Cell {
  cell_type: 'code' | 'markdown' | 'raw';
  id?: string;
  metadata: Record<string, unknown>;
  source: string | string[];
  outputs?: Output[];
  execution_count?: number | null;
  [key: string]: unknown;
}

export interface Notebook {
  nbformat: 4;
  nbformat_minor: number;
  metadata: Record<string, unknown>;
  cells: Cell[];
  [key: string]: unknown;
}

/** Validates parsed JSON as a notebook; InputError names the file and the first offending cell/field. */
export function parseNotebook(text: string, file: string): Notebook {
  const json = parseJsonFile(text, file, z.unknown());
  const parsed = notebookSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    throw new InputError(`${file}: not a version-4 Jupyter notebook: ${where}: ${issue.message}`, {
      file,
      item: where,
    });
  }
  return parsed.data as Notebook;
}

/** Reads and validates a notebook file. */
export function readNotebook(file: string): Notebook {
  return parseNotebook(readUtf8File(file, (reason) => `${file}: cannot read notebook (${reason})`), file);
}

/** A cell's source as one string (Jupyter may store it as a list of lines). */
export function cellSource(cell: Pick<Cell, 'source'>): string {
  return typeof cell.source === 'string' ? cell.source : cell.source.join('');
}

/** The `tags` list of a cell's metadata (empty when absent). */
export function cellTags(cell: Pick<Cell, 'metadata'>): string[] {
  const tags = cell.metadata['tags'];
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * Python's `str.splitlines(True)`, which nbformat uses to store multi-line text: splits after every
 * line boundary (\n, \r\n, \r, \v, \f, \x1c-\x1e, \x85, \u2028, \u2029) and keeps the boundary.
 * @example
 * splitLinesKeepEnds('a\nb'); // => ['a\n', 'b']
 * splitLinesKeepEnds('a\r\nb\rc\n'); // => ['a\r\n', 'b\r', 'c\n']
 * splitLinesKeepEnds(''); // => []
 */
export function splitLinesKeepEnds(text: string): string[] {
  return text.match(/[^\n\r\v\f\x1c-\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029])|[^\n\r\v\f\x1c-\x1e\x85\u2028\u2029]+$/g) ?? [];
}

/** Mime types nbformat splits into lines besides `text/*` (see nbformat.v4.rwbase). */
const SPLIT_MIMES = new Set(['application/javascript', 'image/svg+xml']);

function splitMimeBundle(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const text = Array.isArray(value) && value.every((v) => typeof v === 'string') ? value.join('') : value;
    out[key] =
      typeof text === 'string' && (key.startsWith('text/') || SPLIT_MIMES.has(key)) ? splitLinesKeepEnds(text) : text;
  }
  return out;
}

function joinIfLines(value: string | string[]): string {
  return typeof value === 'string' ? value : value.join('');
}

/** Puts multi-line text into Jupyter's on-disk shape (lists of lines), as nbformat's `split_lines` does. */
export function splitNotebookLines(nb: Notebook): Notebook {
  return {
    ...nb,
    cells: nb.cells.map((cell) => {
      const next: Cell = { ...cell, source: splitLinesKeepEnds(joinIfLines(cell.source)) };
      if (cell.cell_type === 'code') {
        next.outputs = (cell.outputs ?? []).map((o) => {
          if (o.output_type === 'stream') return { ...o, text: splitLinesKeepEnds(joinIfLines(o.text ?? '')) };
          if (o.output_type === 'display_data' || o.output_type === 'execute_result') {
            return { ...o, data: splitMimeBundle(o.data ?? {}) };
          }
          return o;
        });
      }
      return next;
    }),
  };
}

/** A copy of `value` with object keys sorted at every depth (undefined members dropped), as nbformat writes them. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeysDeep(v);
    }
    return out;
  }
  return value;
}

/**
 * Serialises a notebook exactly as Jupyter does (nbformat's writer): lines split, keys sorted at every
 * level, one-space indent, non-ASCII kept as is, and a trailing newline. So a notebook written here and
 * saved again by JupyterLab shows no diff.
 */
export function serializeNotebook(nb: Notebook): string {
  return `${JSON.stringify(sortKeysDeep(splitNotebookLines(nb)), null, 1)}\n`;
}

/** Writes a notebook atomically in Jupyter's formatting. */
export function writeNotebook(file: string, nb: Notebook): void {
  writeFileAtomic(file, serializeNotebook(nb));
}
