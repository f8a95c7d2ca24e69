import { readInputText } from './read';
import { parseJsonl } from './json';
import type { JsonlLine, ParsedJsonl } from './json';

export type { JsonlLine } from './json';

/**
 * Reads a JSON Lines file and parses it with {@link parseJsonl}: blank lines are skipped, a line that is
 * not JSON raises an InputError naming the file and line, and with `allowTornTail` an unparsable *last*
 * line that lacks its final newline (the trace of a writer killed mid-append) is reported in `torn`.
 */
export function readJsonl(file: string, options: { allowTornTail?: boolean } = {}): ParsedJsonl<unknown> & { lines: JsonlLine[] } {
  return parseJsonl(readInputText(file), file, options);
}
