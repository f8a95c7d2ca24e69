import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareCells, comparisonPairs, leadingNumber, markComparisons } from '../../lib/site/compare';

test('cells agree when the computed value rounds to the published one at its printed precision', () => {
  assert.deepEqual(compareCells('61.27', '61.3'), { kind: 'match' });
  assert.deepEqual(compareCells('61.35', '61.3'), { kind: 'differs', delta: 61.35 - 61.3, decimals: 2 });
  assert.deepEqual(compareCells('58', '61.3'), { kind: 'differs', delta: 58 - 61.3, decimals: 1 });
  assert.deepEqual(compareCells('< .0001', '< .0001'), { kind: 'match' });
  assert.deepEqual(compareCells('yes', 'no'), { kind: 'differs' });
  assert.deepEqual(compareCells('3', ''), { kind: 'none' });
  assert.deepEqual(leadingNumber('−2.5 [−4.1, −0.9]'), { value: -2.5, decimals: 1 });
});

test('published columns are found by "X (paper)" beside "X", and "paper" beside "computed"', () => {
  assert.deepEqual([...comparisonPairs(['condition', 'exact', 'exact (paper)', 'n'])], [[2, 1]]);
  assert.deepEqual([...comparisonPairs(['quantity', 'computed', 'paper'])], [[2, 1]]);
  assert.deepEqual([...comparisonPairs(['a', 'b (paper)'])], [], 'no computed column, nothing to compare');
});

test('a comparison table marks published cells and highlights each difference with Δ', () => {
  const html = [
    '<table class="kstbench-table">',
    '<caption>T</caption>',
    '<thead><tr><th>condition</th><th style="text-align:right">exact</th><th style="text-align:right">exact (paper)</th></tr></thead>',
    '<tbody>',
    '<tr><td>P0</td><td style="text-align:right">61.27</td><td style="text-align:right">61.3</td></tr>',
    '<tr><td>P1</td><td style="text-align:right">58.0</td><td style="text-align:right">62.8</td></tr>',
    '</tbody>',
    '</table>',
  ].join('\n');
  const out = markComparisons(html);
  assert.match(out, /<td style="text-align:right" class="agrees" title="agrees with the published 61.3">61.27<\/td><td style="text-align:right" class="published">61.3<\/td>/);
  assert.match(out, /<td style="text-align:right" class="differs" title="published: 62.8">58.0 <span class="delta">Δ −4.8<\/span><\/td>/);
  assert.match(out, /1 agree<\/span> at the paper's precision, <span class="differs">1 differ<\/span>/);
  assert.equal(markComparisons('<table class="kstbench-table"><thead><tr><th>a</th></tr></thead></table>'), '<table class="kstbench-table"><thead><tr><th>a</th></tr></thead></table>');
});
