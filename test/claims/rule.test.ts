import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimStatus, roundTo } from '../../lib/claims/rule';

const base = { simulated: false, gapExplained: false };

test('numbers: match at the printed precision, close within the stated tolerance, else differs', () => {
  // 61.3 printed with one decimal covers [61.25, 61.35].
  assert.equal(claimStatus({ ...base, printed: 61.3, decimals: 1, computed: 61.3333 }), 'match');
  assert.equal(claimStatus({ ...base, printed: 61.3, decimals: 1, computed: 61.25 }), 'match');
  assert.equal(claimStatus({ ...base, printed: 61.3, decimals: 1, computed: 61.36 }), 'differs');
  assert.equal(claimStatus({ ...base, printed: 61.3, decimals: 1, tolerance: 0.3, computed: 61.55 }), 'close');
  assert.equal(claimStatus({ ...base, printed: 61.3, decimals: 1, tolerance: 0.3, computed: 61.7 }), 'differs');
  // 0.6022 with four decimals: 0.60224 matches, 0.6030 is off by 0.0008.
  assert.equal(claimStatus({ ...base, printed: 0.6022, decimals: 4, computed: 0.60224 }), 'match');
  assert.equal(claimStatus({ ...base, printed: 0.6022, decimals: 4, computed: 0.603 }), 'differs');
  assert.equal(claimStatus({ ...base, printed: 0, decimals: 0, computed: Number.NaN }), 'differs');
});

test('a difference is differs-simulated only when the input is simulated and the gap is documented', () => {
  const miss = { printed: 62, decimals: 0, computed: 60 };
  assert.equal(claimStatus({ ...miss, simulated: true, gapExplained: true }), 'differs-simulated');
  assert.equal(claimStatus({ ...miss, simulated: true, gapExplained: false }), 'differs');
  assert.equal(claimStatus({ ...miss, simulated: false, gapExplained: true }), 'differs');
  // A match stays a match whatever the provenance.
  assert.equal(claimStatus({ printed: 62, decimals: 0, computed: 62.4, simulated: true, gapExplained: true }), 'match');
});

test('bounds: ≥ after rounding to the printed decimals, > and < strictly', () => {
  assert.equal(claimStatus({ ...base, printed: 0.996, decimals: 3, relation: '>=', computed: 0.9955 }), 'match'); // prints as 0.996
  assert.equal(claimStatus({ ...base, printed: 0.996, decimals: 3, relation: '>=', computed: 0.9954 }), 'differs');
  assert.equal(claimStatus({ ...base, printed: 0.0001, decimals: 4, relation: '<', computed: 0.00003 }), 'match');
  assert.equal(claimStatus({ ...base, printed: 0.0001, decimals: 4, relation: '<', computed: 0.0001 }), 'differs');
  assert.equal(claimStatus({ ...base, printed: 5, decimals: 0, relation: '>', computed: 5.64 }), 'match');
  assert.equal(claimStatus({ ...base, printed: 5, decimals: 0, relation: '>', computed: 4.9 }), 'differs');
});

test('statements and names match only when equal', () => {
  assert.equal(claimStatus({ ...base, printed: true, computed: true }), 'match');
  assert.equal(claimStatus({ ...base, printed: true, computed: false }), 'differs');
  assert.equal(claimStatus({ ...base, printed: 'ChatGPT > Qwen 3', computed: 'ChatGPT > Qwen 3' }), 'match');
  assert.equal(claimStatus({ ...base, printed: 'ChatGPT > Qwen 3', computed: 'Qwen 3 > ChatGPT', simulated: true, gapExplained: true }), 'differs-simulated');
  assert.equal(claimStatus({ ...base, printed: 1, decimals: 0, computed: '1' }), 'differs');
});

test('roundTo rounds halves away from zero despite binary representation', () => {
  assert.equal(roundTo(0.0505, 3), 0.051);
  assert.equal(roundTo(-2.65, 1), -2.7);
  assert.equal(roundTo(36.8333, 1), 36.8);
});
