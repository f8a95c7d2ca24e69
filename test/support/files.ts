// Test helpers for files and folders only: nothing here starts a process or touches process state,
// so a test file that needs no more than these can share a test process (scripts/run-tests.js
// ISOLATE; importing test/support/cli.ts, which runs the CLI, gives a file a process of its own).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';

export const ROOT = join(__dirname, '..', '..');

/**
 * A new empty folder in os.tmpdir(). It is not removed here: scripts/run-tests.js gives each test
 * process a TMPDIR of its own and removes it with everything in it when the process is gone
 * (docs/testing.md, Temporary folders), so a test may use its folder until its file ends.
 */
export function tempDir(prefix = 'kstbench-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * RFC 4180 CSV into rows of fields: quoted fields may hold commas, doubled quotes and newlines; a
 * carriage return outside quotes is dropped, and a last row without its newline is kept.
 */
export function parseCsvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else if (ch !== '\r') field += ch;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/**
 * A CSV file the project wrote, as objects keyed by its header row (parseCsvRows, so a quoted field
 * with a comma, a quote or a line break is one value); a field a row lacks is ''.
 */
export function readCsv(file: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsvRows(readFileSync(file, 'utf8'));
  return rows.map((values) => Object.fromEntries(header!.map((c, i) => [c, values[i] ?? ''])));
}

/**
 * Writes `text` to `file` with one 0xFF byte (never valid in UTF-8) just after the first `after`, and
 * returns the start of the one line a strict reader refuses it with (lib/io's decodeInputText):
 * `FILE:LINE: invalid UTF-8 at byte offset N (0xff`. A lenient read sees U+FFFD there instead.
 */
export function writeWithInvalidByte(file: string, text: string, after: string): string {
  const found = text.indexOf(after);
  if (found < 0) throw new Error(`writeWithInvalidByte: ${JSON.stringify(after)} is not in the text`);
  const head = text.slice(0, found + after.length);
  writeFileSync(file, Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from(text.slice(head.length))]));
  return `${file}:${head.split('\n').length}: invalid UTF-8 at byte offset ${Buffer.byteLength(head)} (0xff`;
}

/** Asserts that `read` refuses the file with one line starting with `expected` (from writeWithInvalidByte), as an InputError. */
export function assertRefusedAsInvalidUtf8(read: () => unknown, expected: string): void {
  assert.throws(read, (err: unknown) => err instanceof InputError && err.message.startsWith(expected) && !err.message.includes('\n'));
}
