import { readFileSync } from 'node:fs';
import { decodeInputText } from './read';
import type { z } from 'zod';
import { describeZodIssues, InputError } from '../errors';
import { isOsError, osErrorMeaning } from './os-error';

/**
 * The one way a JSON (or JSON Lines) file's text becomes a typed value: `JSON.parse`, then the file's
 * zod schema. Both failures raise an InputError naming the file, and the line when it is known, so every
 * reader reports a bad file the same way instead of repeating "JSON.parse → not valid JSON → safeParse →
 * describeZodIssues" with its own wording.
 */

/** The 1-based line of a character offset in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/**
 * The line a `JSON.parse` error points at, when the engine says: V8 writes either "at position N" or
 * "(line N column M)" depending on the error and the Node version; some messages give neither.
 */
function syntaxErrorLine(text: string, message: string): number | undefined {
  const lineCol = /line (\d+) column \d+/.exec(message);
  if (lineCol) return Number(lineCol[1]);
  const position = /position (\d+)/.exec(message);
  return position ? lineAt(text, Number(position[1])) : undefined;
}

/**
 * The 1-based line where the value at `path` (object keys and array indices, as in a zod issue path)
 * starts in the JSON `text`; the line of the deepest existing ancestor when the path goes further than
 * the text (a missing field: the line of the object that lacks it); undefined when `text` is not JSON.
 * A small scanner over the text, so a schema error can name its line as a syntax error does.
 *
 * @example
 * jsonPathLine('{\n "a": [\n  1,\n  2\n ]\n}', ['a', 1]); // => 4
 */
export function jsonPathLine(text: string, path: ReadonlyArray<PropertyKey>): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const skipString = () => {
    for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    i++;
  };
  const readKey = (): string => {
    const start = i;
    skipString();
    return JSON.parse(text.slice(start, i)) as string;
  };
  // Skips one value starting at i (after whitespace); containers by depth, strings escaped.
  const skipValue = () => {
    ws();
    if (text[i] === '"') return skipString();
    if (text[i] !== '{' && text[i] !== '[') {
      while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
      return;
    }
    let depth = 0;
    do {
      const ch = text[i];
      if (ch === '"') {
        skipString();
        continue;
      }
      if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') depth--;
      i++;
    } while (depth > 0 && i < text.length);
  };
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  ws();
  let found = i;
  for (const key of path) {
    ws();
    const open = text[i];
    let hit = false;
    if (open === '{' && typeof key === 'string') {
      i++;
      for (ws(); text[i] !== '}'; ws()) {
        const k = readKey();
        ws();
        i++; // the colon
        ws();
        if (k === key) {
          hit = true;
          break;
        }
        skipValue();
        ws();
        if (text[i] === ',') i++;
      }
    } else if (open === '[' && typeof key === 'number') {
      i++;
      for (let n = 0; (ws(), text[i] !== ']'); n++) {
        if (n === key) {
          hit = true;
          break;
        }
        skipValue();
        ws();
        if (text[i] === ',') i++;
      }
    }
    if (!hit) break;
    found = i;
  }
  return lineAt(text, found);
}

/** `items[3].name` for a zod issue path; `undefined` for the top level. */
export function zodPathItem(path: ReadonlyArray<PropertyKey>): string | undefined {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  return out === '' ? undefined : out;
}

/**
 * Checks an already parsed value against `schema`. InputError `file[:line]: path: problem; …` naming the
 * first offending item.
 *
 * @example
 * import { z } from 'zod';
 * checkJson({ n: 1 }, 'x.json', z.object({ n: z.number() })); // => { n: 1 }
 */
export function checkJson<S extends z.ZodType>(value: unknown, file: string, schema: S, line?: number): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const where = line === undefined ? file : `${file}:${line}`;
  const item = zodPathItem(parsed.error.issues[0]?.path ?? []);
  throw new InputError(`${where}: ${describeZodIssues(parsed.error.issues)}`, {
    file,
    ...(line === undefined ? {} : { line }),
    ...(item === undefined ? {} : { item }),
  });
}

/**
 * Parses the text of a whole JSON file and checks it against `schema`. InputError
 * `file[:line]: not valid JSON (…)` for bad syntax (with the line when the parser says where), and
 * `file: path: problem` for a schema violation (`file:line: path: problem` with `lines: true`: the line
 * where the offending value starts, by jsonPathLine).
 *
 * @example
 * import { z } from 'zod';
 * parseJsonFile('{"n": 2}', 'x.json', z.object({ n: z.number() })); // => { n: 2 }
 */
export function parseJsonFile<S extends z.ZodType>(text: string, file: string, schema: S, options: { lines?: boolean } = {}): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const line = syntaxErrorLine(text, message);
    const where = line === undefined ? file : `${file}:${line}`;
    throw new InputError(`${where}: not valid JSON (${message})`, { file, ...(line === undefined ? {} : { line }) });
  }
  if (!options.lines) return checkJson(json, file, schema);
  // The line of the first offending value, found only on failure (the scan costs a pass over the text).
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : checkJson(json, file, schema, jsonPathLine(text, parsed.error.issues[0]?.path ?? []));
}

/**
 * Reads a whole JSON file and checks it against `schema` ({@link parseJsonFile}); a file that cannot be
 * read is an InputError naming it (`cannot read x.json: ENOENT (no such file or directory)`).
 *
 * @example
 * import { z } from 'zod';
 * readJsonFile('package.json', z.object({ name: z.string() })).name; // => 'kstbench'
 */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S): z.output<S> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    // Not osInputError: it calls every failed open() a write.
    if (isOsError(err)) throw new InputError(`cannot read ${file}: ${err.code} (${osErrorMeaning(err.code!)})`, { file });
    throw err;
  }
  return parseJsonFile(decodeInputText(bytes, file), file, schema);
}

/** One parsed line of a JSON Lines file, with its 1-based line number for error messages. */
export interface JsonlLine<T = unknown> {
  line: number;
  value: T;
}

/** What {@link parseJsonl} returns: the parsed lines and, with `allowTornTail`, the torn last line. */
export interface ParsedJsonl<T> {
  lines: Array<JsonlLine<T>>;
  torn?: { line: number; text: string };
}

/**
 * Parses JSON Lines text; blank lines are skipped. A line that is not JSON raises an InputError
 * `file:line: not valid JSON: <the line, shortened>`; with a `schema`, a line that violates it raises
 * `file:line: path: problem`. With `allowTornTail`, an unparsable *last* line that lacks its final
 * newline (the trace of a writer killed mid-append) is returned in `torn` instead of raising.
 *
 * @example
 * parseJsonl('{"a":1}\n\n{"a":2}\n', 'x.jsonl').lines; // => [{ line: 1, value: { a: 1 } }, { line: 3, value: { a: 2 } }]
 */
export function parseJsonl(text: string, file: string, options?: { allowTornTail?: boolean }): ParsedJsonl<unknown>;
export function parseJsonl<S extends z.ZodType>(
  text: string,
  file: string,
  options: { allowTornTail?: boolean; schema: S },
): ParsedJsonl<z.output<S>>;
export function parseJsonl(
  text: string,
  file: string,
  options: { allowTornTail?: boolean; schema?: z.ZodType } = {},
): ParsedJsonl<unknown> {
  const rows = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  const lines: JsonlLine[] = [];
  for (const [i, raw] of rows.entries()) {
    if (raw.trim() === '') continue;
    const isLast = i === rows.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      if (options.allowTornTail && isLast && !endsWithNewline) {
        return { lines, torn: { line: i + 1, text: raw } };
      }
      const shown = raw.length > 80 ? `${raw.slice(0, 77)}...` : raw;
      throw new InputError(`${file}:${i + 1}: not valid JSON: ${shown}`, { file, line: i + 1 });
    }
    lines.push({ line: i + 1, value: options.schema ? checkJson(value, file, options.schema, i + 1) : value });
  }
  return { lines };
}
