import { readFileSync } from 'node:fs';
import { InputError } from '../errors';
import { parseJsonl } from './json';
import type { JsonlLine, ParsedJsonl } from './json';

export type { JsonlLine } from './json';

/**
 * Reads a JSON Lines file and parses it with {@link parseJsonl}: blank lines are skipped, a line that is
 * not JSON raises an InputError naming the file and line, and with `allowTornTail` an unparsable *last*
 * line that lacks its final newline (the trace of a writer killed mid-append) is reported in `torn`.
 */
export function readJsonl(file: string, options: { allowTornTail?: boolean } = {}): ParsedJsonl<unknown> & { lines: JsonlLine[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read file (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { file });
  }
  return parseJsonl(text, file, options);
}
