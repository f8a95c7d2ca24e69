import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mean, sum } from '../../lib/stats/mean';

test('sum is compensated: the small term survives cancellation of the large ones', () => {
  // Left-to-right double addition gives 0 here (1e16 + 1 rounds back to 1e16); the exact sum is 1.
  assert.equal([1e16, 1, -1e16].reduce((a, b) => a + b, 0), 0);
  assert.equal(sum([1e16, 1, -1e16]), 1);
  // 0.1 + 0.2 + 0.3: plain addition gives 0.6000000000000001; the double nearest 0.6 is 0.6.
  assert.equal(sum([0.1, 0.2, 0.3]), 0.6);
});

test('mean of worked examples', () => {
  assert.equal(mean([1, 2, 6]), 3);
  assert.equal(mean([4]), 4);
  // 103 of 300 responses exact: 103/300 rounds to 0.3433333333333333 (nearest double).
  const values = [...Array(103).fill(1), ...Array(197).fill(0)];
  assert.equal(mean(values), 103 / 300);
  // Ten copies of 0.1: the exact mean of the stored doubles rounds to 0.1.
  assert.equal(mean(Array(10).fill(0.1)), 0.1);
});

test('empty input: sum is 0, mean is NaN (the one documented rule)', () => {
  assert.equal(sum([]), 0);
  assert.ok(Number.isNaN(mean([])));
});
