import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { InputError } from '../errors';
import { fileType } from './target';

/**
 * Default cap on one input file (256 MiB): a domain, responses or structure file larger than this is
 * refused with its size rather than read into a string that may not fit (V8 strings stop at ~512 MiB).
 */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;

/**
 * Reads a text input file with a size limit. The path must name a regular file (through links):
 * a device (`/dev/zero` never ends), a FIFO (opening it waits for a writer), a socket or a directory
 * is refused by its type before it is opened. Errors are InputErrors naming the file and, for OS
 * errors, the code: `FILE: cannot read <what> (ENOENT)`.
 */
export function readInputText(file: string, what = 'file', maxBytes = DEFAULT_MAX_INPUT_BYTES): string {
  const fail = (why: string): never => {
    throw new InputError(`${file}: cannot read ${what} (${why})`, { file });
  };
  let stats;
  try {
    stats = statSync(file);
  } catch (err) {
    return fail((err as NodeJS.ErrnoException).code ?? String(err));
  }
  if (stats.isDirectory()) fail('EISDIR');
  if (!stats.isFile()) fail(`it is a ${fileType(stats)}, not a regular file`);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    return fail((err as NodeJS.ErrnoException).code ?? String(err));
  }
  try {
    const size = fstatSync(fd).size;
    if (size > maxBytes) fail(`${size} bytes, more than the ${maxBytes}-byte limit for one input file`);
    // Read at most maxBytes + 1, so a file that grows while it is read is still caught by the limit.
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(size, 0) + 65536));
    let length = 0;
    for (;;) {
      if (length === buffer.length) break;
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) fail(`more than the ${maxBytes}-byte limit for one input file`);
    if (length === buffer.length) fail('it grew while it was read; read it again when it is complete');
    return buffer.toString('utf8', 0, length);
  } catch (err) {
    if (err instanceof InputError) throw err;
    return fail((err as NodeJS.ErrnoException).code ?? String(err));
  } finally {
    closeSync(fd);
  }
}
