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
  return decodeInputText(readRegularFile(file, (why) => `${file}: cannot read ${what} (${why})`, maxBytes), file);
}

/**
 * Reads a whole file as UTF-8 text (decodeInputText: invalid bytes are refused with their line), for
 * readers whose own message names a failed read: `cannotRead(reason)` is the InputError's message,
 * where reason is the OS error's code (ENOENT, EISDIR, …), the file's type when it is not a regular
 * file, or its size over the limit. The guards are readInputText's (readRegularFile), so a FIFO given
 * as a models file is refused instead of waiting for a writer for ever.
 * @example
 * readUtf8File('no/such/file', (reason) => `no/such/file: cannot read notes (${reason})`); // throws /^no\/such\/file: cannot read notes \(ENOENT\)$/
 */
export function readUtf8File(file: string, cannotRead: (reason: string) => string, maxBytes = DEFAULT_MAX_INPUT_BYTES): string {
  return decodeInputText(readRegularFile(file, cannotRead, maxBytes), file);
}

/**
 * The one home of "read a user's file": its bytes, when the path names a regular file (through links)
 * of at most maxBytes. Anything else is an InputError whose message is `cannotRead(reason)`.
 */
function readRegularFile(file: string, cannotRead: (reason: string) => string, maxBytes: number): Buffer {
  const fail = (why: string): never => {
    throw new InputError(cannotRead(why), { file });
  };
  const osReason = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message ?? String(err);
  let stats;
  try {
    stats = statSync(file);
  } catch (err) {
    return fail(osReason(err));
  }
  if (stats.isDirectory()) fail('EISDIR');
  if (!stats.isFile()) fail(`it is a ${fileType(stats)}, not a regular file`);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    return fail(osReason(err));
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
    return buffer.subarray(0, length);
  } catch (err) {
    if (err instanceof InputError) throw err;
    return fail(osReason(err));
  } finally {
    closeSync(fd);
  }
}

// fatal: refuse invalid UTF-8 rather than score U+FFFD in its place. ignoreBOM: keep a leading BOM in
// the text, as Buffer#toString did, so the parsers that strip it (lib/kst-io) see what they always saw.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a user's file as UTF-8, refusing invalid bytes with one line naming the file, the line and
 * the byte offset of the first invalid sequence: `FILE:3: invalid UTF-8 at byte offset 17 (0xff)...`.
 * The sequence is located only after the decoder has refused the file, so a valid file pays nothing.
 *
 * @example
 * decodeInputText(Buffer.from('a\nb'), 'x.txt'); // => 'a\nb'
 */
export function decodeInputText(bytes: Uint8Array, file: string): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    let line = 1;
    for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
    const shown = Array.from(bytes.subarray(offset, offset + 4), (b) => `0x${b.toString(16).padStart(2, '0')}`).join(' ');
    throw new InputError(
      `${file}:${line}: invalid UTF-8 at byte offset ${offset} (${shown}); save the file as UTF-8`,
      { file, line },
    );
  }
}

/**
 * The byte offset where the first ill-formed UTF-8 sequence starts (Unicode's table of well-formed
 * byte sequences, Table 3-7: no overlongs, surrogates or code points above U+10FFFF; a sequence cut
 * short by the end of the file is ill-formed too), or `bytes.length` when there is none.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const tail = (b: number | undefined, lo = 0x80, hi = 0xbf): boolean => b !== undefined && b >= lo && b <= hi;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let length: number;
    if (b < 0x80) length = 1;
    else if (b >= 0xc2 && b <= 0xdf) length = tail(bytes[i + 1]) ? 2 : 0;
    else if (b >= 0xe0 && b <= 0xef) {
      const [lo, hi] = b === 0xe0 ? [0xa0, 0xbf] : b === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
      length = tail(bytes[i + 1], lo, hi) && tail(bytes[i + 2]) ? 3 : 0;
    } else if (b >= 0xf0 && b <= 0xf4) {
      const [lo, hi] = b === 0xf0 ? [0x90, 0xbf] : b === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
      length = tail(bytes[i + 1], lo, hi) && tail(bytes[i + 2]) && tail(bytes[i + 3]) ? 4 : 0;
    } else length = 0;
    if (length === 0) return i;
    i += length;
  }
  return bytes.length;
}
