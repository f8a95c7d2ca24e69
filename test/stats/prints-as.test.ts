/** lib/stats/prints-as.ts: the one "prints as" rule, both ends of the rounding interval included. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percent, printsAs, roundTo } from '../../lib/stats/prints-as';

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

// Worked by hand: 100 · (−1/80) = −1.25 points, a half, away from zero → −1.3 (Math.round gave −1.2);
// 100 · 57/2000 = 2.85 exactly, but the double 0.0285 · 1000 is 28.4999…, which Math.round took to 2.8.
test('percent rounds halves away from zero, whatever the sign and the binary representation', () => {
  assert.equal(percent(-1 / 80), -1.3);
  assert.equal(percent(1 / 80), 1.3);
  assert.equal(percent(57 / 2000), 2.9);
  assert.equal(percent(-15 / 16), -93.8);
  assert.equal(percent(0.8525, 2), 85.25);
  assert.equal(percent(0), 0);
});

// The independent check: for every k/n with |k| ≤ n ≤ 400, the tenth of a percent by integer arithmetic,
// round-half-away of 1000·|k|/n = ⌊(2000·|k| + n) / (2n)⌋, equals percent(k/n).
test('percent(k/n) is the exactly rounded tenth of a percent for every k/n with n up to 400', () => {
  const wrong: string[] = [];
  for (let n = 1; n <= 400; n += 1) {
    for (let k = -n; k <= n; k += 1) {
      const tenths = Math.floor((2000 * Math.abs(k) + n) / (2 * n));
      const expected = k < 0 ? -tenths / 10 : tenths / 10;
      if (percent(k / n) !== expected && !(expected === 0 && percent(k / n) === 0)) wrong.push(`${k}/${n}: ${percent(k / n)}, not ${expected}`);
    }
  }
  assert.deepEqual(wrong.slice(0, 5), []);
});
