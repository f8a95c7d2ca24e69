import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { InputError } from '../../lib/errors';
import { checkJson, jsonPathLine, parseJsonFile, parseJsonl, readJsonFile, zodPathItem } from '../../lib/io/json';

const Point = z.object({ x: z.number(), tags: z.array(z.string()) });

function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof InputError, `expected an InputError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a throw');
}

test('parseJsonFile returns the typed value of a valid file', () => {
  assert.deepEqual(parseJsonFile('{"x": 1.5, "tags": ["a"]}', 'p.json', Point), { x: 1.5, tags: ['a'] });
});

test('parseJsonFile: bad syntax names the file, and the line when the parser gives a position', () => {
  // "Unexpected token" with "at position 14" (Node 20) or "(line 3 column 1)" (Node 22): line 3 either way.
  const text = '{\n  "x": 1,\n}';
  const e = inputError(() => parseJsonFile(text, 'p.json', Point));
  assert.match(e.message, /^p\.json(:3)?: not valid JSON \(/);
  assert.equal(e.where.file, 'p.json');
  if (e.where.line !== undefined) assert.equal(e.where.line, 3);
  const truncated = inputError(() => parseJsonFile('{', 'q.json', Point));
  assert.match(truncated.message, /^q\.json(:\d+)?: not valid JSON \(/);
});

test('parseJsonFile: a schema violation names the file, the path and the first offending item', () => {
  const e = inputError(() => parseJsonFile('{"x": "one", "tags": ["a", 2]}', 'p.json', Point));
  assert.equal(e.message, 'p.json: x: Invalid input: expected number, received string; tags[1]: Invalid input: expected string, received number');
  assert.deepEqual(e.where, { file: 'p.json', item: 'x' });
});

test('checkJson names the line when given one', () => {
  const e = inputError(() => checkJson({ x: 1 }, 'r.jsonl', Point, 7));
  assert.equal(e.message, 'r.jsonl:7: tags: Invalid input: expected array, received undefined');
  assert.deepEqual(e.where, { file: 'r.jsonl', line: 7, item: 'tags' });
});

test('zodPathItem writes array indices in brackets and keys with dots', () => {
  assert.equal(zodPathItem(['ratings', 3, 'rater']), 'ratings[3].rater');
  assert.equal(zodPathItem([0, 'a']), '[0].a');
  assert.equal(zodPathItem([]), undefined);
});

test('parseJsonl skips blank lines and keeps 1-based line numbers', () => {
  const { lines, torn } = parseJsonl('{"a":1}\n\n  \n{"a":2}\n', 'x.jsonl');
  assert.deepEqual(lines, [
    { line: 1, value: { a: 1 } },
    { line: 4, value: { a: 2 } },
  ]);
  assert.equal(torn, undefined);
});

test('parseJsonl: a line that is not JSON is named by file and line, shortened past 80 characters', () => {
  const e = inputError(() => parseJsonl('{"a":1}\n{"a": \n', 'x.jsonl'));
  assert.equal(e.message, 'x.jsonl:2: not valid JSON: {"a": ');
  assert.deepEqual(e.where, { file: 'x.jsonl', line: 2 });
  const long = `{"k": "${'z'.repeat(100)}`;
  const shortened = inputError(() => parseJsonl(`${long}\n`, 'y.jsonl'));
  assert.equal(shortened.message, `y.jsonl:1: not valid JSON: ${long.slice(0, 77)}...`);
});

test('parseJsonl: a torn last line (no final newline) is returned only when allowed', () => {
  const text = '{"a":1}\n{"a":';
  assert.deepEqual(parseJsonl(text, 'x.jsonl', { allowTornTail: true }), {
    lines: [{ line: 1, value: { a: 1 } }],
    torn: { line: 2, text: '{"a":' },
  });
  assert.throws(() => parseJsonl(text, 'x.jsonl'), /^InputError: x\.jsonl:2: not valid JSON/);
  // A bad line that is followed by a newline is corruption, not a torn append.
  assert.throws(() => parseJsonl('{"a":\n', 'x.jsonl', { allowTornTail: true }), /x\.jsonl:1: not valid JSON/);
});

test('parseJsonl with a schema checks every line and names the failing one', () => {
  const Row = z.object({ a: z.number() });
  assert.deepEqual(parseJsonl('{"a":1}\n', 'x.jsonl', { schema: Row }).lines, [{ line: 1, value: { a: 1 } }]);
  const e = inputError(() => parseJsonl('{"a":1}\n{"a":"2"}\n', 'x.jsonl', { schema: Row }));
  assert.equal(e.message, 'x.jsonl:2: a: Invalid input: expected number, received string');
});

test('readJsonFile: reads, parses and checks a file; an unreadable file is one line naming it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-json-'));
  const file = join(dir, 'x.json');
  writeFileSync(file, '{"n": 2}');
  assert.deepEqual(readJsonFile(file, z.object({ n: z.number() })), { n: 2 });
  assert.throws(() => readJsonFile(file, z.object({ n: z.string() })), (e: unknown) => e instanceof InputError && e.message.startsWith(`${file}: n:`));
  const missing = join(dir, 'none.json');
  assert.throws(
    () => readJsonFile(missing, z.unknown()),
    (e: unknown) => e instanceof InputError && e.message === `cannot read ${missing}: ENOENT (no such file or directory)`,
  );
});

test('jsonPathLine: the line where the value at a path starts; a missing field gives its object\'s line; not JSON gives undefined', () => {
  const text = '{\n  "a": "x}\\"[",\n  "list": [\n    1,\n    {"k": [2,\n      3]},\n    "z"\n  ],\n  "b": {\n    "c": true\n  }\n}\n';
  assert.equal(jsonPathLine(text, []), 1);
  assert.equal(jsonPathLine(text, ['a']), 2);
  assert.equal(jsonPathLine(text, ['list']), 3);
  assert.equal(jsonPathLine(text, ['list', 0]), 4);
  assert.equal(jsonPathLine(text, ['list', 1, 'k', 1]), 6);
  assert.equal(jsonPathLine(text, ['list', 2]), 7);
  assert.equal(jsonPathLine(text, ['b', 'c']), 10);
  assert.equal(jsonPathLine(text, ['b', 'missing']), 9);
  assert.equal(jsonPathLine(text, ['list', 9]), 3);
  assert.equal(jsonPathLine('{oops', ['a']), undefined);
});

test('parseJsonFile with lines: a schema violation names the line of the offending value', () => {
  const err = inputError(() => parseJsonFile('{\n "x": 1,\n "tags": [\n  "a",\n  2\n ]\n}', 'p.json', Point, { lines: true }));
  assert.match(err.message, /^p\.json:5: tags\[1\]: /);
  assert.equal(err.where.line, 5);
  // Without the option the message is as before (no line).
  assert.match(inputError(() => parseJsonFile('{\n "x": 1,\n "tags": [2]\n}', 'p.json', Point)).message, /^p\.json: tags\[0\]/);
});
