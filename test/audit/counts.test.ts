import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowedCounts, differenceInterval, roundsTo } from '../../lib/audit';

test('allowedCounts finds the integers a printed percentage allows', () => {
  assert.deepEqual(allowedCounts(36.4, 132), [48]); // 48/132 = 36.36 %
  assert.deepEqual(allowedCounts(61.3, 600), [368]); // 368/600 = 61.33 %
  assert.deepEqual(allowedCounts(94.4, 18), [17]); // 17/18 = 94.44 %
  assert.deepEqual(allowedCounts(50, 3, 0), []); // 1/3 = 33 %, 2/3 = 67 %: no k prints as 50 %
  // Both ends of the rounding interval are accepted (the paper does not say how it rounds halves): 0.05 % ≤ k/100 % ≤ 0.15 %.
  assert.deepEqual(allowedCounts(0.1, 10000), [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
});

test('roundsTo and differenceInterval follow the rounding interval', () => {
  assert.equal(roundsTo(61.333, 61.3), true);
  assert.equal(roundsTo(61.36, 61.3), false);
  const [lo, hi] = differenceInterval(85.5, 88.0);
  assert.ok(Math.abs(lo - -2.6) < 1e-9 && Math.abs(hi - -2.4) < 1e-9);
});
