import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { invalidResponseScores, macroAverage, MEASURES, scoreResponse } from '../../lib/metrics';

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-15, `${actual} ≠ ${expected}`);

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

test('macro-F1 on a two-class toy differs from the F1 of pooled counts', () => {
  // Response 1: P {a, b}, T {a}: TP 1 → precision 1/2, recall 1, F1 2·(1/2·1)/(3/2) = 2/3.
  // Response 2: P {c}, T {c, d, e}: TP 1 → precision 1, recall 1/3, F1 2·(1/3)/(4/3) = 1/2.
  // Macro F1 = (2/3 + 1/2)/2 = 7/12. Pooled: TP 2, |P| 3, |T| 4 → micro F1 2·2/(3 + 4) = 4/7.
  const m = macroAverage([scoreResponse(['a', 'b'], ['a']), scoreResponse(['c'], ['c', 'd', 'e'])]);
  close(m.f1, 7 / 12);
  assert.notEqual(m.f1, 4 / 7);
  close(m.precision, 3 / 4);
  close(m.recall, 2 / 3);
  // Jaccard 1/2 and 1/3 → 5/12; symmetric differences 1 and 2 → 1.5
  close(m.jaccard, 5 / 12);
  assert.equal(m.symmetricDifference, 1.5);
  assert.equal(m.n, 2);
});
