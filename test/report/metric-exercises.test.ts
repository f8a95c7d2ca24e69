import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkMeasuresAnswer, checkResponseForScores } from '../../lib/report/metric-exercises';

// Notebook 04's exercises: T = {SL3, SL4}, the outer fringe of {SL1, SL2} in Slope.
const fringe = ['SL3', 'SL4'];

test('exercise 1 (predict the measures of P = {SL3, SL5}): right for 0 / 0.5 / 0.5 / 0.5, wrong names the measure with its counts', () => {
  const right = checkMeasuresAnswer(['SL3', 'SL5'], fringe, { exact: 0, precision: 0.5, recall: 0.5, f1: 0.5 });
  assert.equal(right.right, true);
  assert.match(right.why, /precision = \|P∩T\| \/ \|P\| = 1 \/ 2 = 0\.5/);
  const wrong = checkMeasuresAnswer(['SL3', 'SL5'], fringe, { exact: 0, precision: 0.5, recall: 1, f1: 0.5 });
  assert.equal(wrong.right, false);
  assert.equal(wrong.why, 'recall = |P∩T| / |T| = 1 / 2 = 0.5, not 1');
  assert.match(wrong.hint!, /\|P∩T\| = 1/);
  // F1 is not the plain mean of precision and recall: 1 and 1/2 give 2/3, not 3/4.
  assert.equal(checkMeasuresAnswer(['SL3'], fringe, { exact: 0, precision: 1, recall: 0.5, f1: 0.67 }).right, true);
  assert.match(checkMeasuresAnswer(['SL3'], fringe, { exact: 0, precision: 1, recall: 0.5, f1: 0.75 }).why, /^F1 = 2\|P∩T\| \/ \(\|P\| \+ \|T\|\) = 2 \/ 3 = 0\.667, not 0\.75$/);
});

test('exercise 1 with empty sets follows the conventions of lib/metrics', () => {
  assert.equal(checkMeasuresAnswer([], [], { exact: 1, precision: 1, recall: 1, f1: 1 }).right, true);
  assert.match(checkMeasuresAnswer([], fringe, { exact: 0, precision: 1, recall: 0, f1: 0 }).why, /P is empty: 1 only when T is empty too/);
});

test('exercise 1 answers a missing measure, a string value or a list in one sentence', () => {
  assert.match(checkMeasuresAnswer(['SL3'], fringe, { exact: 0, precision: 1 }).why, /^no value for recall, f1 yet$/);
  assert.match(checkMeasuresAnswer(['SL3'], fringe, { exact: 0, precision: '1', recall: 0.5, f1: 0.67 }).why, /^precision is a number/);
  assert.match(checkMeasuresAnswer(['SL3'], fringe, [1, 0.5]).why, /^the answer is an object/);
  assert.equal(checkMeasuresAnswer(['SL3'], fringe, null).why, 'no answer yet');
});

test('exercise 2 (a response with precision 1 but exact 0): right for a proper subset of T, wrong for T itself and for an extra step', () => {
  const want = { precision: 1, exact: 0 };
  assert.equal(checkResponseForScores(fringe, ['SL4'], want).right, true);
  const whole = checkResponseForScores(fringe, ['SL4', 'SL3'], want);
  assert.equal(whole.right, false);
  assert.equal(whole.why, '{SL4,SL3} scores exact = 1 (P = T), not 0');
  const extra = checkResponseForScores(fringe, ['SL3', 'SL5'], want);
  assert.equal(extra.right, false);
  assert.match(extra.why, /precision = \|P∩T\| \/ \|P\| = 1 \/ 2 = 0\.5, not 1/);
  // The empty response has precision 0 against a non-empty fringe (lib/metrics' convention).
  assert.match(checkResponseForScores(fringe, [], want).why, /^∅ scores precision = 0/);
  assert.match(checkResponseForScores(fringe, 'SL3', want).why, /is a list of component IDs/);
});
