import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { csvField, csvText } from '../../lib/io/csv';
import { readCsv, tempDir } from '../support/files';

test('csvField: quoted only when needed (quote, comma, line break, white space at an end), quotes doubled', () => {
  assert.equal(csvField('plain words'), 'plain words');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
  assert.equal(csvField('cr\r'), '"cr\r"');
  assert.equal(csvField(' leading'), '" leading"');
  assert.equal(csvField('trailing\t'), '"trailing\t"');
});

test('csvField: numbers at full precision, non-finite numbers and null/undefined empty, other values as written or JSON', () => {
  assert.equal(csvField(0.1 + 0.2), '0.30000000000000004');
  assert.equal(csvField(-0), '0');
  assert.equal(csvField(1e21), '1e+21');
  for (const missing of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.equal(csvField(missing), '', String(missing));
  assert.equal(csvField(true), 'true');
  assert.equal(csvField(12n), '12');
  assert.equal(csvField(new Date(Date.UTC(2026, 0, 2))), '2026-01-02T00:00:00.000Z');
  assert.equal(csvField({ a: [1] }), '"{""a"":[1]}"');
  assert.equal(csvField(['x']), '"[""x""]"');
});

test('csvText: header, one line per row, \\n line ends and a final newline', () => {
  assert.equal(csvText(['x', 'y z'], [[1, 'a'], [2.5, null]]), 'x,y z\n1,a\n2.5,\n');
  assert.equal(csvText(['a,b'], []), '"a,b"\n');
});

test('the tests\' one CSV reader (test/support readCsv) reads back what csvText writes: commas, quotes, line breaks', () => {
  const file = join(tempDir(), 't.csv');
  const rows = [['a,b', 'say "hi"', 'two\nlines'], ['plain', '', ' padded ']];
  writeFileSync(file, csvText(['x', 'y', 'z'], rows));
  assert.deepEqual(readCsv(file), rows.map(([x, y, z]) => ({ x, y, z })));
});
