import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScoredRecord } from '../../lib/analysis/score';
import { modelComparison } from '../../lib/analysis/model-comparison';

test('modelComparison counts correct responses per model for one domain × condition, best share first', () => {
  const rec = (model: string, exact: number, domain = 'g', condition: 'P0' | 'P1' = 'P1') =>
    ({ model, domain, condition, scores: { exact } }) as unknown as ScoredRecord;
  const comparison = modelComparison([rec('m1', 1), rec('m1', 0), rec('m2', 1), rec('m2', 1), rec('m2', 1, 'other'), rec('m1', 1, 'g', 'P0')], 'g', 'P1');
  assert.deepEqual(comparison, [
    { model: 'm2', correct: 2, n: 2 },
    { model: 'm1', correct: 1, n: 2 },
  ]);
  // equal shares: by model name; a share is compared exactly (1/3 < 2/5 without rounding)
  assert.deepEqual(
    modelComparison([rec('b', 1), rec('a', 1), rec('c', 1), rec('c', 0), rec('c', 0), rec('d', 1), rec('d', 1), rec('d', 0), rec('d', 0), rec('d', 0)], 'g', 'P1').map((r) => r.model),
    ['a', 'b', 'd', 'c'],
  );
});
