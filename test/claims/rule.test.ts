import { test } from 'node:test';
import assert from 'node:assert/strict';
import { claimStatus, formatSummary, roundTo, simulationGapSize, simulationStatus } from '../../lib/claims/rule';
import type { ReplicateSummary } from '../../lib/records/claim-replicates';

test('numbers: match at the printed precision, close within the stated tolerance, else differs', () => {
  // 61.3 printed with one decimal covers [61.25, 61.35], both ends (the one "prints as" rule).
  assert.equal(claimStatus({ printed: 61.3, decimals: 1, computed: 61.3333 }), 'match');
  assert.equal(claimStatus({ printed: 61.3, decimals: 1, computed: 61.25 }), 'match');
  assert.equal(claimStatus({ printed: 61.3, decimals: 1, computed: 61.35 }), 'match');
  assert.equal(claimStatus({ printed: 61.3, decimals: 1, computed: 61.36 }), 'differs');
  assert.equal(claimStatus({ printed: 61.3, decimals: 1, tolerance: 0.3, computed: 61.55 }), 'close');
  assert.equal(claimStatus({ printed: 61.3, decimals: 1, tolerance: 0.3, computed: 61.7 }), 'differs');
  assert.equal(claimStatus({ printed: 0.6022, decimals: 4, computed: 0.60224 }), 'match');
  assert.equal(claimStatus({ printed: 0.6022, decimals: 4, computed: 0.603 }), 'differs');
  assert.equal(claimStatus({ printed: 0, decimals: 0, computed: Number.NaN }), 'differs');
});

test('bounds: ≥ after rounding to the printed decimals, > and < strictly', () => {
  assert.equal(claimStatus({ printed: 0.996, decimals: 3, relation: '>=', computed: 0.9955 }), 'match');
  assert.equal(claimStatus({ printed: 0.996, decimals: 3, relation: '>=', computed: 0.9954 }), 'differs');
  assert.equal(claimStatus({ printed: 0.0001, decimals: 4, relation: '<', computed: 0.00003 }), 'match');
  assert.equal(claimStatus({ printed: 0.0001, decimals: 4, relation: '<', computed: 0.0001 }), 'differs');
  assert.equal(claimStatus({ printed: 5, decimals: 0, relation: '>', computed: 5.64 }), 'match');
  assert.equal(claimStatus({ printed: 5, decimals: 0, relation: '>', computed: 4.9 }), 'differs');
});

test('statements and names match only when equal', () => {
  assert.equal(claimStatus({ printed: true, computed: true }), 'match');
  assert.equal(claimStatus({ printed: true, computed: false }), 'differs');
  assert.equal(claimStatus({ printed: 'ChatGPT > Qwen 3', computed: 'ChatGPT > Qwen 3' }), 'match');
  assert.equal(claimStatus({ printed: 'ChatGPT > Qwen 3', computed: 'Qwen 3 > ChatGPT' }), 'differs');
  assert.equal(claimStatus({ printed: 1, decimals: 0, computed: '1' }), 'differs');
});

const spread: ReplicateSummary = { kind: 'number', n: 200, mean: 63, sd: 1, low: 61.1, high: 65 };

test('simulated input: a number is within the spread when the printed value lies in the 95 % interval, widened by half a printed unit', () => {
  assert.equal(simulationStatus({ printed: 63, decimals: 0, summary: spread }), 'within-simulation-spread');
  assert.equal(simulationStatus({ printed: 61.1, decimals: 1, summary: spread }), 'within-simulation-spread');
  assert.equal(simulationStatus({ printed: 61.0, decimals: 1, summary: spread }), 'outside-simulation-spread', '61.0 covers [60.95, 61.05], below 61.1');
  assert.equal(simulationStatus({ printed: 61, decimals: 0, summary: spread }), 'within-simulation-spread', '61 covers [60.5, 61.5]');
  assert.equal(simulationStatus({ printed: 60.5, decimals: 1, summary: spread, tolerance: 0.6 }), 'within-simulation-spread');
  assert.equal(simulationStatus({ printed: 66, decimals: 1, summary: spread }), 'outside-simulation-spread');
});

test('simulated input: bounds hold somewhere in the interval; statements need 2.5 % of the replicates', () => {
  assert.equal(simulationStatus({ printed: 64, decimals: 0, relation: '>', summary: spread }), 'within-simulation-spread');
  assert.equal(simulationStatus({ printed: 65, decimals: 0, relation: '>', summary: spread }), 'outside-simulation-spread');
  assert.equal(simulationStatus({ printed: 61.2, decimals: 1, relation: '<', summary: spread }), 'within-simulation-spread');
  assert.equal(simulationStatus({ printed: 61.1, decimals: 1, relation: '<', summary: spread }), 'outside-simulation-spread');
  const yesNo: ReplicateSummary = { kind: 'category', n: 200, counts: { no: 195, yes: 5 } };
  assert.equal(simulationStatus({ printed: true, summary: yesNo }), 'within-simulation-spread', '5 of 200 = 2.5 %');
  assert.equal(simulationStatus({ printed: true, summary: { kind: 'category', n: 200, counts: { no: 196, yes: 4 } } }), 'outside-simulation-spread');
  assert.equal(simulationStatus({ printed: 'A > B', summary: { kind: 'category', n: 10, counts: { 'B > A': 10 } } }), 'outside-simulation-spread');
  assert.equal(simulationStatus({ printed: 'A > B', summary: spread }), 'outside-simulation-spread', 'a name against numbers');
});

test('the gap and the interval as shown', () => {
  assert.equal(formatSummary(spread, 1), '[61.10, 65.00]');
  assert.equal(formatSummary({ kind: 'category', n: 200, counts: { no: 150, yes: 50 } }), 'no 75 %; yes 25 %');
  assert.match(simulationGapSize(66, spread, 0), /^the paper's 66 lies 1\.0 above the 95 % simulation interval \[61\.1, 65\.0\]/);
  assert.match(simulationGapSize(60, spread, 0), /lies 1\.1 below/);
  assert.equal(simulationGapSize(true, { kind: 'category', n: 200, counts: { no: 200 } }), '0 of 200 replicates give the paper\'s "yes"');
});

test('roundTo rounds halves away from zero despite binary representation', () => {
  assert.equal(roundTo(0.0505, 3), 0.051);
  assert.equal(roundTo(-2.65, 1), -2.7);
  assert.equal(roundTo(36.8333, 1), 36.8);
});
