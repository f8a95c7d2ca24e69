import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvCell, saveTable, toCsv, toHtmlTable, toTable } from '../../lib/figures/table';
import { InputError } from '../../lib/errors';

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

test('HTML table escapes text, right-aligns numeric columns and rounds only when asked', () => {
  const html = toHtmlTable({ columns: ['name', 'value'], rows: [['<a&b>', 2 / 3], ['c', 2]] }, { caption: 'T "1"', digits: 3 });
  assert.equal(
    html,
    '<table class="kstbench-table">\n<caption>T &#34;1&#34;</caption>\n' +
      '<thead><tr><th>name</th><th style="text-align:right">value</th></tr></thead>\n<tbody>\n' +
      '<tr><td>&#60;a&#38;b&#62;</td><td style="text-align:right">0.667</td></tr>\n' +
      '<tr><td>c</td><td style="text-align:right">2</td></tr>\n</tbody>\n</table>\n',
  );
});

test('saveTable writes CSV and HTML side by side and rejects unsafe names', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-table-'));
  const saved = saveTable('t1', [{ domain: 'slope', states: 11 }, { domain: 'graph-to-equation', states: 9 }], { dir, title: 'States' });
  assert.equal(readFileSync(join(dir, 't1.csv'), 'utf8'), 'domain,states\nslope,11\ngraph-to-equation,9\n');
  assert.equal(readFileSync(join(dir, 't1.html'), 'utf8'), saved.html);
  assert.match(saved.html, /<caption>States<\/caption>/);
  assert.doesNotThrow(() => saved.show()); // outside a notebook: nothing to show, no error
  assert.throws(() => saveTable('../escape', [], { dir }), /table name "..\/escape"/);
});
