/** lib/report/overall.ts: the all-responses line (macro averages over every scored response) and the one-decimal percentage. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { loadResponses, scoreKstResponses } from '../../lib/analysis';
import { overallComparison } from '../../lib/report/overall';

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
