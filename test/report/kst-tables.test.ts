import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contrastComparison, orderAgreementComparison, table3Comparison, table4Comparison } from '../../lib/report';

const published = JSON.parse(readFileSync(join(__dirname, '..', '..', 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));

test('table 3 comparison sets computed percentages beside the paper', () => {
  const [row] = table3Comparison([{ condition: 'P2', n: 600, exact: 0.96333, precision: 0.98, recall: 0.984, f1: 0.981, jaccard: 0.978 }], published);
  assert.equal(row!.exact, 96.3);
  assert.equal(row!['exact (paper)'], 96.3);
  assert.equal(row!['n (paper)'], 600);
});

test('table 4 comparison uses the mirrored paper row', () => {
  const rows = table4Comparison([{ model: 'sim-x', condition: 'P0', n: 100, exact: 0.75, rank: 2 }], published, { 'sim-x': 'Claude Fable 5' });
  assert.deepEqual(rows, [{ model: 'sim-x', 'paper row': 'Claude Fable 5', P0: '75.0% (2)', 'P0 (paper)': '76% (1)' }]);
});

test('contrast and agreement comparisons carry the paper values', () => {
  const [c] = contrastComparison([{ contrast: 'P2-P1', metric: 'exact', states: 50, estimate: 0.3, ci_low: 0.2, ci_high: 0.4, p: 0.00001, p_holm: 0.00003, seed: 's' }], published);
  assert.equal(c!['estimate (paper)'], 33.5);
  assert.equal(c!['95% CI'], '[20.0, 40.0]');
  assert.equal(c!['p_holm (paper)'], '< 0.0001');
  const a = orderAgreementComparison({ pairs: 1200, exact_agreement: 0.8525, mean_jaccard: 0.925 }, published);
  assert.deepEqual(a[1], { measure: 'exact agreement (%)', computed: 85.25, paper: 85.25 });
});
