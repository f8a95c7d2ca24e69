/** lib/stats/prints-as.ts: the one "prints as" rule, both ends of the rounding interval included. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printsAs, roundTo } from '../../lib/stats/prints-as';

test('a value prints as p with d decimals within half a unit of the last digit, both ends included', () => {
  assert.equal(printsAs(61.35, 61.3, 1), true);
  assert.equal(printsAs(61.25, 61.3, 1), true);
  assert.equal(printsAs(61.3500001, 61.3, 1), false);
  assert.equal(printsAs(61.2499, 61.3, 1), false);
  assert.equal(printsAs(0.0505, 0.05, 2), true);
  assert.equal(printsAs(368 / 6, 61.3, 1), true);
  assert.equal(printsAs(Number.NaN, 0, 0), false);
  assert.equal(printsAs(2.4, 2, 0), true);
  assert.equal(printsAs(2.6, 2, 0), false);
});

test('roundTo', () => {
  assert.equal(roundTo(0.0505, 3), 0.051);
  assert.equal(roundTo(-1.25, 1), -1.3);
});
