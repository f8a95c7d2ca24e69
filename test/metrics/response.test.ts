import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invalidResponseScores, scoreResponse } from '../../lib/metrics';

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
