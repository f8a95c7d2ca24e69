import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exactMatch, f1Score, jaccard, overlapCounts, precision, recall, symmetricDifference } from '../../lib/metrics';

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-15, `${actual} ≠ ${expected}`);

test('overlapCounts collapses duplicates before counting', () => {
  assert.deepEqual(overlapCounts(['a', 'b', 'b'], ['b', 'c']), { predicted: 2, reference: 2, shared: 1 });
});

test('partial overlap: P = {a, b, c}, T = {b, c, d, e}', () => {
  // |P| = 3, |T| = 4, |P ∩ T| = 2 ({b, c}), |P ∪ T| = 5, P △ T = {a, d, e}.
  const P = ['a', 'b', 'c'];
  const T = ['b', 'c', 'd', 'e'];
  assert.equal(symmetricDifference(P, T), 3);
  assert.equal(exactMatch(P, T), 0);
  close(precision(P, T), 2 / 3);
  close(recall(P, T), 1 / 2);
  // harmonic mean of 2/3 and 1/2 = 2·(1/3)/(7/6) = 4/7 = 2·2/(3+4)
  close(f1Score(P, T), 4 / 7);
  close(jaccard(P, T), 2 / 5);
});

test('order does not matter and duplicates are collapsed', () => {
  // P = {a, b}, T = {b}
  const P = ['b', 'a', 'a'];
  const T = ['b', 'b'];
  assert.equal(symmetricDifference(P, T), 1);
  assert.equal(exactMatch(['c', 'a', 'b', 'a'], ['a', 'b', 'c']), 1);
  close(precision(P, T), 1 / 2);
  close(recall(P, T), 1);
  close(f1Score(P, T), 2 / 3);
  close(jaccard(P, T), 1 / 2);
});

test('disjoint non-empty sets score 0 and count every element in D', () => {
  assert.equal(symmetricDifference(['a'], ['b', 'c']), 3);
  assert.equal(exactMatch(['a'], ['b', 'c']), 0);
  assert.equal(precision(['a'], ['b', 'c']), 0);
  assert.equal(recall(['a'], ['b', 'c']), 0);
  assert.equal(f1Score(['a'], ['b', 'c']), 0);
  assert.equal(jaccard(['a'], ['b', 'c']), 0);
});

test('missing one of three reference steps: recall 2/3, precision 1', () => {
  const T = ['x', 'y', 'z'];
  const P = ['x', 'z'];
  assert.equal(symmetricDifference(P, T), 1);
  assert.equal(precision(P, T), 1);
  close(recall(P, T), 2 / 3);
  close(f1Score(P, T), 4 / 5);
  close(jaccard(P, T), 2 / 3);
});

test('exactMatch: a superset or a subset of the reference is not a match, the same set in any order is', () => {
  assert.equal(exactMatch(['a', 'b', 'x'], ['a', 'b']), 0, 'one recommendation too many');
  assert.equal(exactMatch(['a'], ['a', 'b']), 0, 'one admissible step missing');
  assert.equal(exactMatch(['a'], []), 0, 'a recommendation where the state is terminal');
  assert.equal(exactMatch(['b', 'a'], ['a', 'b']), 1);
  assert.equal(exactMatch([], []), 1);
});
