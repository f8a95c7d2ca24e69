/** lib/report/overall.ts: the all-responses line (macro averages over every scored response) and the one-decimal percentage. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { loadResponses, scoreKstResponses } from '../../lib/analysis';
import type { ScoredRecord } from '../../lib/analysis/score';
import { overallComparison, pct } from '../../lib/report/overall';

const ROOT = join(__dirname, '..', '..');
const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));
const fixture = join(ROOT, 'test', 'fixtures', 'analyze');
const records = loadResponses(join(fixture, 'responses.jsonl'), loadDomainDir(join(fixture, 'domains')));
const { scored } = scoreKstResponses(records);

test('overall line: macro averages over every scored response (fixture: 71 scored, 64 exact)', () => {
  const rows = overallComparison(scored, published);
  // P0 30/36 exact + P1 34/35 exact = 64/71.
  assert.deepEqual(rows[0], { measure: 'n', computed: 71, paper: 2400 });
  assert.deepEqual(rows[1], { measure: 'exact (%)', computed: Math.round((64 / 71) * 1000) / 10, paper: 79.7 });
  // precision: P0 33/36 + P1 34/35 → (33 + 34)/71.
  assert.equal(rows[2]!.computed, Math.round((67 / 71) * 1000) / 10);
});

test('pct: a proportion as a percentage to one decimal, halves rounded up', () => {
  assert.equal(pct(0.6125), 61.3); // 612.5 → 613 → 61.3
  assert.equal(pct(2 / 3), 66.7); // 666.67 → 667
  assert.equal(pct(1), 100);
  assert.equal(pct(0), 0);
  assert.equal(pct(0.00049), 0); // 0.49 → 0
  assert.equal(pct(0.0005), 0.1); // 0.5 → 1
});

test('overallComparison: macro averages over a hand-made pair, and no averages for no responses', () => {
  const scores = (exact: number, precision: number, recall: number, f1: number, jaccard: number) => ({ scores: { exact, precision, recall, f1, jaccard } }) as unknown as ScoredRecord;
  // Two responses: exact (1 + 0)/2 = 50 %; precision (1 + 0.5)/2 = 75 %; recall (1 + 1/3)/2 = 66.67 → 66.7 %;
  // F1 (1 + 0.4)/2 = 70 %; Jaccard (1 + 0.25)/2 = 62.5 %.
  const rows = overallComparison([scores(1, 1, 1, 1, 1), scores(0, 0.5, 1 / 3, 0.4, 0.25)], published);
  assert.deepEqual(rows.map((r) => [r.measure, r.computed]), [
    ['n', 2],
    ['exact (%)', 50],
    ['precision (%)', 75],
    ['recall (%)', 66.7],
    ['F1 (%)', 70],
    ['Jaccard (%)', 62.5],
  ]);
  // The paper column is the published overall line, whatever the input.
  assert.deepEqual(rows.map((r) => r.paper), [2400, 79.7, published.overall.precision, published.overall.recall, published.overall.f1, published.overall.jaccard]);
  assert.deepEqual(overallComparison([], published).map((r) => r.computed), [0, null, null, null, null, null]);
});
