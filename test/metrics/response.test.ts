import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { invalidResponseScores, macroAverage, MEASURES, scoreResponse, setAgreement } from '../../lib/metrics';

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-15, `${actual} ≠ ${expected}`);

test('scoreResponse: over-recommendation of two extra steps', () => {
  // P = {a, b, c}, T = {a}: precision 1/3, recall 1, F1 = 2/(3+1), J = 1/3, D = 2.
  const s = scoreResponse(['a', 'b', 'c'], ['a']);
  assert.equal(s.exact, 0);
  close(s.precision, 1 / 3);
  assert.equal(s.recall, 1);
  assert.equal(s.f1, 0.5);
  close(s.jaccard, 1 / 3);
  assert.equal(s.symmetricDifference, 2);
});

test('invalidResponseScores: worst value of every measure, D = domain size', () => {
  assert.deepEqual(invalidResponseScores(7), { exact: 0, precision: 0, recall: 0, f1: 0, jaccard: 0, symmetricDifference: 7 });
  // worse than any valid answer, also for a terminal state (T = ∅) where even a wrong valid answer has recall 1
  const wrongButValid = scoreResponse(['a'], []);
  const invalid = invalidResponseScores(4);
  assert.ok(invalid.recall < wrongButValid.recall);
  assert.ok(invalid.symmetricDifference > wrongButValid.symmetricDifference);
  assert.throws(() => invalidResponseScores(0), RangeError);
  assert.throws(() => invalidResponseScores(2.5), RangeError);
});

test('setAgreement compares two predictions symmetrically', () => {
  assert.deepEqual(setAgreement([], []), { exact: 1, jaccard: 1 });
  assert.deepEqual(setAgreement(['a', 'b'], ['b']), { exact: 0, jaccard: 0.5 });
  assert.deepEqual(setAgreement(['b'], ['a', 'b']), { exact: 0, jaccard: 0.5 });
  assert.deepEqual(setAgreement(['a', 'b', 'b'], ['b', 'a']), { exact: 1, jaccard: 1 });
  assert.deepEqual(setAgreement([], ['a']), { exact: 0, jaccard: 0 });
  assert.deepEqual(setAgreement(['a', 'c'], ['b', 'c', 'd']), { exact: 0, jaccard: 0.25 });
});

test('macroAverage is the mean of response-level scores, not a pooled ratio', () => {
  const scores = [
    scoreResponse(['a'], ['a']), // 1, 1, 1, 1, 1, D 0
    scoreResponse(['a', 'b'], ['a']), // 0, 1/2, 1, 2/3, 1/2, D 1
    scoreResponse([], ['a', 'b']), // 0, 0, 0, 0, 0, D 2
  ];
  const m = macroAverage(scores);
  assert.equal(m.n, 3);
  close(m.exact, 1 / 3);
  close(m.precision, 1 / 2);
  close(m.recall, 2 / 3);
  close(m.f1, 5 / 9); // (1 + 2/3 + 0) / 3
  close(m.jaccard, 1 / 2);
  assert.equal(m.symmetricDifference, 1);
  // pooled ("micro") precision would be 2/3 (2 shared of 3 predicted): macro differs
  assert.notEqual(m.precision, 2 / 3);
  assert.deepEqual([...MEASURES], ['exact', 'precision', 'recall', 'f1', 'jaccard', 'symmetricDifference']);
});

test('macroAverage includes invalid responses as zeros and rejects an empty list', () => {
  const m = macroAverage([scoreResponse(['a'], ['a']), invalidResponseScores(5)]);
  assert.equal(m.exact, 0.5);
  assert.equal(m.recall, 0.5);
  assert.equal(m.symmetricDifference, 2.5);
  assert.throws(() => macroAverage([]), InputError);
});
