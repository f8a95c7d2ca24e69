import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bloomTrendSlopes } from '../../lib/psi/bloom-trend';
import type { ScoredRecord } from '../../lib/psi/aggregate';
import type { PsiCourse } from '../../lib/psi/schema';

const course = { scenarioById: new Map([['s1', { target_bloom: 1 }], ['s2', { target_bloom: 2 }], ['s3', { target_bloom: 3 }]]) } as unknown as PsiCourse;
const r = (model: string, scenario: string, psi: number, variant = 'standard'): ScoredRecord =>
  ({ run_id: `${model}-${scenario}-${variant}`, round: 1, scenario, variant, model, psi, subscores: {}, scoreSource: 'recorded' }) as unknown as ScoredRecord;

test('the slope of PSI on the target level is the least-squares slope, per model and pooled', () => {
  const scored = [
    r('a', 's1', 0.7), r('a', 's2', 0.6), r('a', 's3', 0.5), // exactly −0.1 per level
    r('b', 's1', 0.5), r('b', 's2', 0.7), r('b', 's3', 0.6), // x̄ = 2, ȳ = 0.6: Σ(x−x̄)(y−ȳ) = 0.1 + 0 + 0 → slope +0.05
    r('a', 's3', 0.0, 'defective'), // defective prompts are left out
  ];
  const slopes = bloomTrendSlopes(scored, course);
  const a = slopes.find((s) => s.model === 'a')!;
  const b = slopes.find((s) => s.model === 'b')!;
  const all = slopes.find((s) => s.model === 'all models')!;
  assert.ok(Math.abs(a.slope + 0.1) < 1e-12);
  assert.equal(a.declines, true);
  assert.ok(Math.abs(b.slope - 0.05) < 1e-12);
  assert.equal(b.declines, false);
  // Pooled: level means 0.6, 0.65, 0.55 with two points each → slope −0.025.
  assert.ok(Math.abs(all.slope + 0.025) < 1e-12);
  assert.deepEqual(a.levels, [1, 2, 3]);
});

test('one level gives no slope and no decline', () => {
  const [s] = bloomTrendSlopes([r('a', 's2', 0.6), r('a', 's2', 0.4)], course);
  assert.ok(Number.isNaN(s!.slope));
  assert.equal(s!.declines, false);
});
