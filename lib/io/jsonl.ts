import type { z } from 'zod';
import { readInputText } from './read';
import { parseJsonl } from './json';
import type { JsonlLine, ParsedJsonl } from './json';

export type { JsonlLine } from './json';

/**
 * Reads a JSON Lines file and parses it with {@link parseJsonl}: blank lines are skipped, a line that is
 * not JSON raises an InputError naming the file and line, and with `allowTornTail` an unparsable *last*
 * line that lacks its final newline (the trace of a writer killed mid-append) is reported in `torn`.
 * With a `schema`, every line is checked against it (`file:line: path: problem`) and typed by it.
 */
export function readJsonl(file: string, options?: { allowTornTail?: boolean }): ParsedJsonl<unknown> & { lines: JsonlLine[] };
export function readJsonl<S extends z.ZodType>(file: string, options: { allowTornTail?: boolean; schema: S }): ParsedJsonl<z.output<S>>;
export function readJsonl(file: string, options: { allowTornTail?: boolean; schema?: z.ZodType } = {}): ParsedJsonl<unknown> {
  return options.schema === undefined
    ? parseJsonl(readInputText(file), file, { allowTornTail: options.allowTornTail })
    : parseJsonl(readInputText(file), file, { allowTornTail: options.allowTornTail, schema: options.schema });
}
