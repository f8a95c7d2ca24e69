import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { columnFormats, csvCell, saveTable, toCsv, toHtmlTable, toTable } from '../../lib/figures/table';
import { InputError } from '../../lib/errors';
import { markSimulated } from '../../lib/figures/simulated';
import { CsvMetaSchema } from '../../lib/records/csv-meta';

test('rows of objects become columns in first-seen order, missing cells null', () => {
  assert.deepEqual(toTable([{ a: 1 }, { b: 'x', a: 2 }]), { columns: ['a', 'b'], rows: [[1, null], [2, 'x']] });
});

test('a DataFrame-shaped value (columns + values) is read as is', () => {
  const df = { columns: ['k', 'v'], values: [['a', 1], ['b', 2]] };
  assert.deepEqual(toTable(df), { columns: ['k', 'v'], rows: [['a', 1], ['b', 2]] });
  assert.throws(() => toTable({ columns: 'x' } as never), InputError);
});

test('CSV quotes only where RFC 4180 needs it and keeps full precision', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell(null), '');
  assert.equal(csvCell(0.1 + 0.2), '0.30000000000000004');
  assert.equal(csvCell({ a: [1] }), '"{""a"":[1]}"');
  assert.equal(toCsv({ columns: ['x', 'y z'], rows: [[1, 'a'], [2.5, null]] }), 'x,y z\n1,a\n2.5,\n');
});

test('HTML table escapes text, aligns text left and numbers right, and rounds only when asked', () => {
  const html = toHtmlTable({ columns: ['name', 'value'], rows: [['<a&b>', 2 / 3], ['c', 2]] }, { caption: 'T "1"', digits: 3 });
  assert.equal(
    html,
    '<table class="kstbench-table">\n<caption>T &quot;1&quot;</caption>\n' +
      '<thead><tr><th style="text-align:left">name</th><th style="text-align:right">value</th></tr></thead>\n<tbody>\n' +
      '<tr><td style="text-align:left">&lt;a&amp;b&gt;</td><td style="text-align:right">0.667</td></tr>\n' +
      // 2 sits in a column of decimals: the same three decimals as its neighbour
      '<tr><td style="text-align:left">c</td><td style="text-align:right">2.000</td></tr>\n</tbody>\n</table>\n',
  );
});

test('percent columns get one decimal (the papers\' precision), counts stay integers, paper columns are not padded', () => {
  // A computed rate beside the paper's, as in Table IV: 49/60 = 81.666…% and the paper's 82.3.
  const table = {
    columns: ['model', 'cases', 'rate %', 'rate % (paper)', 'mean gain', 'p'],
    rows: [
      ['all', 60, (49 / 60) * 100, 82.3, 0.04596, '< .0001'],
      ['a', 6, 100, 'not printed', 0.06447, '.6022'],
      ['b', 18, 88, 88, 0.5, null],
    ],
  };
  const formats = columnFormats(table, 3);
  assert.deepEqual(formats, [
    { numeric: false, digits: undefined },
    { numeric: true, digits: undefined },
    { numeric: true, digits: 1 },
    { numeric: true, digits: 1 },
    { numeric: true, digits: 3 },
    { numeric: true, digits: undefined },
  ]);
  const cells = [...toHtmlTable(table, { digits: 3 }).matchAll(/<td style="text-align:(left|right)">([^<]*)<\/td>/g)].map((m) => `${m[1]![0]}:${m[2]}`);
  assert.deepEqual(cells, [
    'l:all', 'r:60', 'r:81.7', 'r:82.3', 'r:0.046', 'r:&lt; .0001',
    'l:a', 'r:6', 'r:100.0', 'r:not printed', 'r:0.064', 'r:.6022',
    'l:b', 'r:18', 'r:88.0', 'r:88.0', 'r:0.500', 'r:',
  ]);
});

test('a column "X (paper)" gets the decimals of column "X" (the paper\'s 81.0 stored as 81)', () => {
  const formats = columnFormats({ columns: ['f1', 'f1 (paper)', 'n', 'n (paper)'], rows: [[83.94, 81, 600, 600]] }, 1);
  assert.deepEqual(formats.map((f) => f.digits), [1, 1, undefined, undefined]);
});

test('a table with many columns scrolls sideways and wraps its headers', () => {
  const columns = Array.from({ length: 17 }, (_, i) => `column ${i + 1}`);
  // The first column is text (a model name): it keeps its width; the 16 numeric headers wrap.
  const html = toHtmlTable({ columns, rows: [columns.map((_, i) => (i === 0 ? 'sim-a ≈ Claude Fable 5' : i))] });
  assert.match(html, /^<div class="kstbench-table-wide" style="overflow-x:auto;max-width:100%">\n<table /);
  assert.equal([...html.matchAll(/white-space:normal;max-width:8em/g)].length, 16);
  assert.match(html, /<th style="text-align:left;vertical-align:bottom">column 1<\/th>/);
  assert.doesNotMatch(toHtmlTable({ columns: ['a', 'b'], rows: [[1, 2]] }), /overflow-x/);
});

test('fieldsDown shows a wide record on its side: one row per field, one column per record', () => {
  const table = { columns: ['run', 'verdict', 'precision'], rows: [['r1', 'correct', 0.5], ['r2', 'inconsistent', 1]] };
  assert.equal(
    toHtmlTable(table, { fieldsDown: 'verdict', digits: 2 }),
    '<table class="kstbench-table">\n<thead><tr><th style="text-align:left">field</th><th style="text-align:left">correct</th><th style="text-align:left">inconsistent</th></tr></thead>\n<tbody>\n' +
      '<tr><th style="text-align:left">run</th><td style="text-align:left">r1</td><td style="text-align:left">r2</td></tr>\n' +
      '<tr><th style="text-align:left">verdict</th><td style="text-align:left">correct</td><td style="text-align:left">inconsistent</td></tr>\n' +
      '<tr><th style="text-align:left">precision</th><td style="text-align:right">0.50</td><td style="text-align:right">1.00</td></tr>\n</tbody>\n</table>\n',
  );
  assert.throws(() => toHtmlTable(table, { fieldsDown: 'nope' }), /fieldsDown names "nope", which is not a column \(run, verdict, precision\)/);
  assert.throws(() => toHtmlTable({ ...table, rows: [table.rows[0]!, table.rows[0]!] }, { fieldsDown: 'verdict' }), /repeats a value \(correct, correct\)/);
});

test('saveTable writes CSV, HTML and the sidecar side by side and rejects unsafe names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-table-'));
  const saved = saveTable('t1', [{ domain: 'slope', states: 11 }, { domain: 'graph-to-equation', states: 9 }], { dir, title: 'States', simulated: false });
  assert.equal(readFileSync(join(dir, 't1.csv'), 'utf8'), 'domain,states\nslope,11\ngraph-to-equation,9\n');
  assert.equal(readFileSync(join(dir, 't1.html'), 'utf8'), saved.html);
  assert.equal(saved.files.meta, join(dir, 't1.csv.meta.json'));
  assert.match(saved.html, /<caption>States<\/caption>/);
  assert.doesNotThrow(() => saved.show()); // outside a notebook: nothing to show, no error
  assert.throws(() => saveTable('../escape', [], { dir, simulated: false }), /table name "..\/escape"/);
});

test('saveTable without simulated is refused, naming the table, and writes nothing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-table-'));
  for (const options of [{ dir, title: 'T' }, { dir, title: 'T', simulated: 'yes' }, undefined]) {
    assert.throws(
      () => saveTable('t-missing', [{ a: 1 }], options as never),
      (err: unknown) => err instanceof InputError && /^table t-missing: options need simulated \(boolean\)/.test(err.message),
    );
  }
  assert.deepEqual(readdirSync(dir), []);
});

test('simulated: true marks the caption with the one title mark and the sidecar says simulated', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-table-'));
  const rows = [{ condition: 'P0', exact: 0.25 }, { condition: 'P1', exact: 0.5 }];
  const saved = saveTable('t-sim', rows, { dir, title: 'Table 3', simulated: true, simulatedWhat: 'responses' });
  assert.match(saved.html, /<caption>Table 3 — SIMULATED responses<\/caption>/);
  assert.equal(markSimulated('Table 3', true, 'responses'), 'Table 3 — SIMULATED responses'); // the same mark
  // The CSV stays plain: header first, no comment line, no extra column (readers need no options).
  assert.equal(readFileSync(saved.files.csv, 'utf8'), 'condition,exact\nP0,0.25\nP1,0.5\n');
  const meta = CsvMetaSchema.parse(JSON.parse(readFileSync(join(dir, 't-sim.csv.meta.json'), 'utf8')));
  assert.deepEqual(meta, { csv: 't-sim.csv', simulated: true, title: 'Table 3 — SIMULATED responses', columns: ['condition', 'exact'], rows: 2 });
  // Without a title a simulated table is still captioned: its name, marked.
  const untitled = saveTable('t-untitled', rows, { dir, simulated: true });
  assert.match(untitled.html, /<caption>t-untitled — SIMULATED data<\/caption>/);
});

test('simulated: false leaves the caption unmarked and the sidecar says not simulated', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-table-'));
  const saved = saveTable('t-pub', [{ check: 'T1 sums', ok: true }], { dir, title: 'Published numbers only', simulated: false });
  assert.match(saved.html, /<caption>Published numbers only<\/caption>/);
  assert.doesNotMatch(saved.html, /SIMULATED/i);
  const meta = CsvMetaSchema.parse(JSON.parse(readFileSync(saved.files.meta, 'utf8')));
  assert.equal(meta.simulated, false);
  assert.equal(meta.title, 'Published numbers only');
  const untitled = saveTable('t-pub-untitled', [{ a: 1 }], { dir, simulated: false });
  assert.doesNotMatch(untitled.html, /<caption>/);
  assert.equal(CsvMetaSchema.parse(JSON.parse(readFileSync(untitled.files.meta, 'utf8'))).title, null);
});
