/** lib/io/jsonl.ts: reading a JSON Lines file from disk, with file:line errors and the torn-tail option. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { z } from 'zod';
import { readJsonl } from '../../lib/io/jsonl';

const temp = () => mkdtempSync(join(tmpdir(), 'kstbench-jsonl-'));
const isInput = (message: string, where: { file?: string; line?: number }) => (e: unknown) =>
  e instanceof InputError && e.message === message && e.where.file === where.file && e.where.line === where.line;

test('readJsonl: values with their 1-based line numbers; blank lines skipped but counted', () => {
  const file = join(temp(), 'a.jsonl');
  writeFileSync(file, '{"a":1}\n\n  \n[2,3]\n"s"\n');
  assert.deepEqual(readJsonl(file), { lines: [{ line: 1, value: { a: 1 } }, { line: 4, value: [2, 3] }, { line: 5, value: 's' }] });
  writeFileSync(file, '');
  assert.deepEqual(readJsonl(file), { lines: [] });
});

test('readJsonl: a line that is not JSON is an InputError naming the file and its line', () => {
  const file = join(temp(), 'bad.jsonl');
  writeFileSync(file, '{"a":1}\n{"a":\n{"a":3}\n');
  assert.throws(() => readJsonl(file), isInput(`${file}:2: not valid JSON: {"a":`, { file, line: 2 }));
  // A long line is shown shortened to 80 characters (77 and "...").
  const long = `{"x":"${'y'.repeat(100)}"`;
  writeFileSync(file, `${long}\n`);
  assert.throws(() => readJsonl(file), isInput(`${file}:1: not valid JSON: ${long.slice(0, 77)}...`, { file, line: 1 }));
});

test('readJsonl: a torn last line (no final newline) is returned with allowTornTail, an error without', () => {
  const file = join(temp(), 'torn.jsonl');
  writeFileSync(file, '{"a":1}\n{"a":2}\n{"a":');
  assert.deepEqual(readJsonl(file, { allowTornTail: true }), { lines: [{ line: 1, value: { a: 1 } }, { line: 2, value: { a: 2 } }], torn: { line: 3, text: '{"a":' } });
  assert.throws(() => readJsonl(file), isInput(`${file}:3: not valid JSON: {"a":`, { file, line: 3 }));
  // The same broken line *with* its newline was written completely: always an error.
  writeFileSync(file, '{"a":1}\n{"a":\n');
  assert.throws(() => readJsonl(file, { allowTornTail: true }), isInput(`${file}:2: not valid JSON: {"a":`, { file, line: 2 }));
  // A broken line that is not the last is never a torn tail.
  writeFileSync(file, '{"a":\n{"a":2}');
  assert.throws(() => readJsonl(file, { allowTornTail: true }), isInput(`${file}:1: not valid JSON: {"a":`, { file, line: 1 }));
});

test('readJsonl: a missing file or a folder is one InputError naming the file and the OS code', () => {
  const dir = temp();
  const missing = join(dir, 'nope.jsonl');
  assert.throws(() => readJsonl(missing), isInput(`${missing}: cannot read file (ENOENT)`, { file: missing }));
  const folder = join(dir, 'folder.jsonl');
  mkdirSync(folder);
  assert.throws(() => readJsonl(folder), isInput(`${folder}: cannot read file (EISDIR)`, { file: folder }));
});

test('readJsonl with a schema: each line checked and typed by it; a line off the schema names file, line and item', () => {
  const file = join(temp(), 's.jsonl');
  const schema = z.object({ run_id: z.string(), n: z.number().int() });
  writeFileSync(file, '{"run_id":"a","n":1}\n{"run_id":"b","n":2}\n');
  assert.deepEqual(readJsonl(file, { schema }).lines.map((l) => l.value.run_id), ['a', 'b']);
  writeFileSync(file, '{"run_id":"a","n":1}\n{"run_id":"b","n":2.5}\n');
  assert.throws(
    () => readJsonl(file, { schema }),
    (e: unknown) => e instanceof InputError && e.message.startsWith(`${file}:2: n: `) && e.where.line === 2 && e.where.item === 'n',
  );
});
