import { readFileSync } from 'node:fs';
import { InputError } from '../errors';

/** One parsed line of a JSON Lines file, with its 1-based line number for error messages. */
export interface JsonlLine {
  line: number;
  value: unknown;
}

/**
 * Reads a JSON Lines file. Blank lines are skipped. A line that is not JSON raises an InputError naming
 * the file and line. With `allowTornTail`, an unparsable *last* line that lacks its final newline (the
 * trace of a writer killed mid-append) is reported in `torn` instead of raising.
 */
export function readJsonl(
  file: string,
  options: { allowTornTail?: boolean } = {},
): { lines: JsonlLine[]; torn?: { line: number; text: string } } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read file (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { file });
  }
  const rows = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  const lines: JsonlLine[] = [];
  for (let i = 0; i < rows.length; i++) {
    const raw = rows[i]!;
    if (raw.trim() === '') continue;
    const isLast = i === rows.length - 1;
    try {
      lines.push({ line: i + 1, value: JSON.parse(raw) });
    } catch {
      if (options.allowTornTail && isLast && !endsWithNewline) {
        return { lines, torn: { line: i + 1, text: raw } };
      }
      const shown = raw.length > 80 ? `${raw.slice(0, 77)}...` : raw;
      throw new InputError(`${file}:${i + 1}: not valid JSON: ${shown}`, { file, line: i + 1 });
    }
  }
  return { lines };
}
