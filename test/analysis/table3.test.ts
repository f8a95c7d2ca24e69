import { test } from 'node:test';
import assert from 'node:assert/strict';
import { table3 } from '../../lib/analysis/table3';
import { scoredRecord as rec } from './helpers';

test('table3: per condition n and the mean of each measure, canonical order, empty conditions left out', () => {
  const rows = table3([
    rec({ condition: 'P2' }, { exact: 1 }),
    rec({ condition: 'P0' }, { exact: 1 }),
    rec({ condition: 'P0' }, { exact: 0, precision: 1, recall: 0.5, f1: 2 / 3, jaccard: 0.5 }),
    rec({ condition: 'P0' }, { exact: 0, precision: 0, recall: 0, f1: 0, jaccard: 0 }),
  ]);
  // P0: exact (1 + 0 + 0)/3 = 1/3; precision (1 + 1 + 0)/3 = 2/3; recall 1.5/3 = 0.5;
  //     F1 (1 + 2/3 + 0)/3 = 5/9; Jaccard 1.5/3 = 0.5.  P2: one perfect response.
  assert.deepEqual(rows.map((r) => [r.condition, r.n]), [['P0', 3], ['P2', 1]]);
  const p0 = rows[0]!;
  assert.ok(Math.abs(p0.exact - 1 / 3) < 1e-15);
  assert.ok(Math.abs(p0.precision - 2 / 3) < 1e-15);
  assert.equal(p0.recall, 0.5);
  assert.ok(Math.abs(p0.f1 - 5 / 9) < 1e-15);
  assert.equal(p0.jaccard, 0.5);
  assert.deepEqual(rows[1], { condition: 'P2', n: 1, exact: 1, precision: 1, recall: 1, f1: 1, jaccard: 1 });
  assert.deepEqual(table3([]), []);
});
