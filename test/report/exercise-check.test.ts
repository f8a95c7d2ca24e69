import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeEnough, exerciseFeedback, NO_ANSWER, numberAnswer, shownNumber, stringListAnswer } from '../../lib/report/exercise-check';

test('exerciseFeedback prints a right answer on one line and a wrong one with its hint', () => {
  assert.equal(exerciseFeedback({ right: true, why: 'because' }), '✔ right: because');
  assert.equal(exerciseFeedback({ right: false, why: 'no', hint: 'look here' }), '✘ not yet: no\n  hint: look here');
  assert.equal(exerciseFeedback({ right: false, why: 'no' }), '✘ not yet: no');
});

test('numberAnswer: null is "no answer yet", a string or NaN is named, a number passes', () => {
  assert.equal(numberAnswer(null, 'p'), NO_ANSWER);
  assert.equal(numberAnswer(0.25, 'p'), 0.25);
  for (const bad of ['0.25', Number.NaN, [0.25], { p: 1 }]) {
    const check = numberAnswer(bad, 'p');
    assert.equal(typeof check, 'object');
    assert.equal((check as { right: boolean }).right, false);
    assert.match((check as { why: string }).why, /^p is a number such as 0\.5/);
  }
});

test('closeEnough accepts two decimals of the truth and nothing further off', () => {
  assert.equal(closeEnough(0.67, 2 / 3), true);
  assert.equal(closeEnough(0.33, 1 / 3), true);
  assert.equal(closeEnough(0.66, 2 / 3), false);
  assert.equal(closeEnough(0.5, 0.51), false);
});

test('stringListAnswer: a list of strings passes, anything else is named with the expected kind', () => {
  assert.deepEqual(stringListAnswer(['a'], 'x', 'IDs'), ['a']);
  assert.equal(stringListAnswer(undefined, 'x', 'IDs'), NO_ANSWER);
  assert.equal((stringListAnswer([1], 'the answer', 'IDs such as ["a"]') as { why: string }).why, 'the answer is a list of IDs such as ["a"], not [1]');
});

test('shownNumber keeps at most three decimals and drops trailing zeros', () => {
  assert.equal(shownNumber(2 / 3), '0.667');
  assert.equal(shownNumber(0.5), '0.5');
  assert.equal(shownNumber(1), '1');
});
