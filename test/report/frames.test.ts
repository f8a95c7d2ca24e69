import { test } from 'node:test';
import assert from 'node:assert/strict';
import { largestDifference, responseRows } from '../../lib/report/frames';
import type { ScoredRecord } from '../../lib/analysis';

test('responseRows flattens a scored record', () => {
  const r = {
    runId: 'r1', model: 'm', domain: 'd', condition: 'P1', order: 2, state: ['A', 'C'], status: 'valid',
    scores: { exact: 0, precision: 0.5, recall: 1, f1: 2 / 3, jaccard: 0.5 },
  } as unknown as ScoredRecord;
  assert.deepEqual(responseRows([r]), [
    { run_id: 'r1', model: 'm', domain: 'd', condition: 'P1', order: 2, state: 'A,C', status: 'valid', exact: 0, precision: 0.5, recall: 1, f1: 2 / 3, jaccard: 0.5 },
  ]);
});

test('largestDifference compares grouped means with reference rows cell by cell', () => {
  const grouped = [
    { model: 'a', condition: 'P0', exact_mean: 0.5, f1_mean: 0.625 },
    { model: 'b', condition: 'P0', exact_mean: 1, f1_mean: 0.5 },
  ];
  const reference = [
    { model: 'b', condition: 'P0', exact: 1, f1: 0.5 },
    { model: 'a', condition: 'P0', exact: 0.5, f1: 0.75 },
  ];
  assert.deepEqual(largestDifference(grouped, reference, ['model', 'condition'], ['exact', 'f1']), { largest: 0.125, cells: 4 });
  assert.throws(() => largestDifference(grouped, reference.slice(1), ['model', 'condition'], ['exact']), /2 groups but 1 reference rows/);
  assert.throws(() => largestDifference([{ model: 'z', condition: 'P0', exact_mean: 1 }], reference.slice(0, 1), ['model', 'condition'], ['exact']), /no reference row for z\|P0/);
});
