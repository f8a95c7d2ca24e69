import { test } from 'node:test';
import assert from 'node:assert/strict';
import { overlapCounts } from '../../lib/metrics/sets';

test('overlapCounts: distinct predicted, distinct reference and shared items, duplicates collapsed', () => {
  assert.deepEqual(overlapCounts(['a', 'b', 'b'], ['b', 'c']), { predicted: 2, reference: 2, shared: 1 });
  assert.deepEqual(overlapCounts([], []), { predicted: 0, reference: 0, shared: 0 });
  assert.deepEqual(overlapCounts(['x', 'x', 'x'], ['x']), { predicted: 1, reference: 1, shared: 1 });
  assert.deepEqual(overlapCounts(['a', 'b'], ['c', 'd', 'e']), { predicted: 2, reference: 3, shared: 0 });
  // IDs are compared exactly (case-sensitive)
  assert.deepEqual(overlapCounts(['A'], ['a']), { predicted: 1, reference: 1, shared: 0 });
});
