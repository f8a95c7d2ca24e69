// The empty-set conventions of §3.3, row by row, for every measure function and for scoreResponse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exactMatch, f1Score, jaccard, precision, recall, scoreResponse, symmetricDifference } from '../../lib/metrics';

const rows: Array<{ name: string; P: string[]; T: string[]; expected: ReturnType<typeof scoreResponse> }> = [
  {
    name: 'both empty (terminal state answered with no recommendation)',
    P: [],
    T: [],
    expected: { exact: 1, precision: 1, recall: 1, f1: 1, jaccard: 1, symmetricDifference: 0 },
  },
  {
    name: 'empty prediction, non-empty reference',
    P: [],
    T: ['a', 'b'],
    expected: { exact: 0, precision: 0, recall: 0, f1: 0, jaccard: 0, symmetricDifference: 2 },
  },
  {
    name: 'non-empty prediction, empty reference',
    P: ['a', 'b', 'c'],
    T: [],
    expected: { exact: 0, precision: 0, recall: 1, f1: 0, jaccard: 0, symmetricDifference: 3 },
  },
  {
    name: 'duplicates in a prediction against an empty reference still count once',
    P: ['a', 'a'],
    T: [],
    expected: { exact: 0, precision: 0, recall: 1, f1: 0, jaccard: 0, symmetricDifference: 1 },
  },
  {
    name: 'identical non-empty sets',
    P: ['b', 'a'],
    T: ['a', 'b'],
    expected: { exact: 1, precision: 1, recall: 1, f1: 1, jaccard: 1, symmetricDifference: 0 },
  },
];

for (const row of rows) {
  test(`conventions: ${row.name}`, () => {
    assert.deepEqual(scoreResponse(row.P, row.T), row.expected);
    assert.equal(exactMatch(row.P, row.T), row.expected.exact);
    assert.equal(precision(row.P, row.T), row.expected.precision);
    assert.equal(recall(row.P, row.T), row.expected.recall);
    assert.equal(f1Score(row.P, row.T), row.expected.f1);
    assert.equal(jaccard(row.P, row.T), row.expected.jaccard);
    assert.equal(symmetricDifference(row.P, row.T), row.expected.symmetricDifference);
  });
}
