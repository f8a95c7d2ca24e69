import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkHolmAnswer, checkSignFlipAnswer } from '../../lib/report/inference-exercises';
import { describeContrast } from '../../lib/report/contrast-text';
import { significantAt } from '../../lib/stats';

// Notebook 06's exercises.
const differences = [10, 20, -5, 15];
const contrasts = { 'P1-P0': 0.03, 'P2-P1': 0.004, 'P3-P2': 0.04 };

test('exercise 1 (sign-flip p of four states): right for 4/16 in any rounding, wrong shows the count and why', () => {
  assert.equal(checkSignFlipAnswer(differences, 0.25).right, true);
  assert.equal(checkSignFlipAnswer(differences, 4 / 16).right, true);
  const half = checkSignFlipAnswer(differences, 0.125);
  assert.equal(half.right, false);
  assert.match(half.why, /^4 of the 16 sign patterns .* p = 4 \/ 16 = 0\.25, not 0\.125$/);
  assert.match(half.hint!, /list the patterns/);
  // Below 2/16 is impossible for a non-zero mean: the hint says why.
  assert.match(checkSignFlipAnswer(differences, 1 / 16).hint!, /never below 2 \/ 2\^n/);
  assert.match(checkSignFlipAnswer(differences, '0.25').why, /^p is a number/);
  assert.equal(checkSignFlipAnswer(differences, null).why, 'no answer yet');
});

test('exercise 2 (Holm over three contrasts): right for the one that survives, wrong for the unadjusted reading with the step-down hint', () => {
  const right = checkHolmAnswer(contrasts, 0.05, ['P2-P1']);
  assert.equal(right.right, true);
  assert.match(right.why, /P2-P1: 0\.004 × 3 = 0\.012 < 0\.05; P1-P0: 0\.03 × 2 = 0\.06 → adjusted 0\.06 ≥ 0\.05; P3-P2: 0\.04 × 1 = 0\.04 → adjusted 0\.06 ≥ 0\.05/);
  const naive = checkHolmAnswer(contrasts, 0.05, ['P1-P0', 'P2-P1', 'P3-P2']);
  assert.equal(naive.right, false);
  assert.match(naive.hint!, /unadjusted p values below 0\.05/);
  const none = checkHolmAnswer(contrasts, 0.05, []);
  assert.equal(none.right, false);
  assert.match(none.why, /not none/);
  assert.match(none.hint!, /sort the p values/);
  assert.equal(checkHolmAnswer({ a: 0.5, b: 0.9 }, 0.05, []).right, true);
});

test('exercise 2 answers an unknown contrast or a non-list in one sentence', () => {
  assert.equal(checkHolmAnswer(contrasts, 0.05, ['P2-P0']).why, 'P2-P0 is not one of the contrasts P1-P0, P2-P1, P3-P2');
  assert.match(checkHolmAnswer(contrasts, 0.05, 'P2-P1').why, /^the answer is a list of contrast names/);
});

// A Holm-adjusted p exactly at α: 2 × 0.025 = 0.05 (doubling is exact in binary). By hand: not below .05,
// so not significant, in the exercise as in the sentence notebook 06 prints under the contrast table.
test('exercise 2 and the contrast sentence read a Holm-adjusted p of exactly 0.05 alike: not significant', () => {
  const atLevel = { 'P1-P0': 0.025, 'P2-P1': 0.5 };
  assert.equal(checkHolmAnswer(atLevel, 0.05, []).right, true);
  assert.equal(checkHolmAnswer(atLevel, 0.05, ['P1-P0']).right, false);
  assert.match(checkHolmAnswer(atLevel, 0.05, []).why, /P1-P0: 0\.025 × 2 = 0\.05 → adjusted 0\.05 ≥ 0\.05/);
  const row = { contrast: 'P1-P0', metric: 'exact' as const, states: 50, estimate: 0.02, ci_low: 0.001, ci_high: 0.04, p: 0.025, p_holm: 2 * 0.025, seed: 's' };
  assert.match(describeContrast(row), /p = \.0500 is not below \.05: no clear evidence/);
  assert.equal(significantAt(0.05, 0.05), false);
  assert.equal(significantAt(0.0499, 0.05), true);
});
