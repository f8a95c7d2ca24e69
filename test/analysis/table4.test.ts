import { test } from 'node:test';
import assert from 'node:assert/strict';
import { table4 } from '../../lib/analysis/table4';
import { scoredRecord as rec } from './helpers';

const many = (model: string, condition: 'P0' | 'P1', correct: number, wrong: number) => [
  ...Array.from({ length: correct }, () => rec({ model, condition }, { exact: 1 })),
  ...Array.from({ length: wrong }, () => rec({ model, condition }, { exact: 0 })),
];

test('table4: accuracy per model × condition, competition ranks within a condition, equal fractions tie', () => {
  const rows = table4([
    // P0: a 2/3, b 4/6 (= 2/3: tie at rank 1), c 1/2 → ranks 1, 1, 3 ("1224"-style, no rank 2)
    ...many('c', 'P0', 1, 1), ...many('a', 'P0', 2, 1), ...many('b', 'P0', 4, 2),
    // P1: only b and c; b 1/1 rank 1, c 0/2 rank 2
    ...many('b', 'P1', 1, 0), ...many('c', 'P1', 0, 2),
  ]);
  assert.deepEqual(rows.map((r) => [r.model, r.condition, r.n, r.rank]), [
    ['a', 'P0', 3, 1],
    ['b', 'P0', 6, 1],
    ['b', 'P1', 1, 1],
    ['c', 'P0', 2, 3],
    ['c', 'P1', 2, 2],
  ]);
  assert.deepEqual(rows.map((r) => r.exact), [2 / 3, 4 / 6, 1, 0.5, 0]);
});
