import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CsvMetaSchema, csvMetaPath, csvMetaText } from '../../lib/records/csv-meta';

const meta = { csv: 'table3.csv', simulated: true, title: 'Table 3 — SIMULATED data', columns: ['condition', 'n'], rows: 4 };

test('csvMetaPath puts the sidecar beside the CSV', () => {
  assert.equal(csvMetaPath('table3.csv'), 'table3.csv.meta.json');
  assert.equal(csvMetaPath('data/processed/kst/table3.csv'), 'data/processed/kst/table3.csv.meta.json');
});

test('csvMetaText: keys in schema order, two-space JSON, final newline', () => {
  const reordered = { rows: 4, columns: ['condition', 'n'], title: meta.title, simulated: true, csv: 'table3.csv' };
  assert.equal(
    csvMetaText(reordered),
    '{\n  "csv": "table3.csv",\n  "simulated": true,\n  "title": "Table 3 — SIMULATED data",\n  "columns": [\n    "condition",\n    "n"\n  ],\n  "rows": 4\n}\n',
  );
});

test('CsvMetaSchema refuses a sidecar that cannot describe a CSV', () => {
  const bad: Array<[string, unknown]> = [
    ['csv', { ...meta, csv: 'table3.json' }],
    ['simulated', { ...meta, simulated: 'yes' }],
    ['rows', { ...meta, rows: -1 }],
    ['rows', { ...meta, rows: 1.5 }],
    ['extra', { ...meta, source: 'x' }],
  ];
  for (const [what, value] of bad) {
    const r = CsvMetaSchema.safeParse(value);
    assert.equal(r.success, false, what);
  }
  assert.throws(() => csvMetaText({ ...meta, csv: 'x.txt' }));
  assert.equal(CsvMetaSchema.safeParse({ ...meta, title: null }).success, true);
});
