/** lib/report/kst-presentation-agreement.ts: order agreement in percent and the terminal-state responses beside the paper. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { loadResponses, scoreKstResponses } from '../../lib/analysis';
import { agreementTable, terminalComparison, terminalSummary } from '../../lib/report/kst-presentation-agreement';

const ROOT = join(__dirname, '..', '..');
const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));
const fixture = join(ROOT, 'test', 'fixtures', 'analyze');
const records = loadResponses(join(fixture, 'responses.jsonl'), loadDomainDir(join(fixture, 'domains')));
const { scored } = scoreKstResponses(records);

test('terminal states: the fixture\'s six terminal groups (tiny ABC, pair XY) hand-counted', () => {
  // tiny ABC and pair XY × 2 models × 2 conditions × 2 orders = 16 responses; d3 (m2 P0 tiny ABC o1)
  // recommends {C} → 15 correct; none invalid.
  const s = terminalSummary(scored);
  assert.deepEqual(s, { responses: 16, correct: 15, invalid: 0 });
  assert.deepEqual(terminalComparison(s, published)[1], { measure: 'correct (empty recommendation)', computed: 15, paper: 192 });
});

test('agreement table in percent with two decimals', () => {
  assert.deepEqual(agreementTable([{ group: 'P0', pairs: 17, exact_agreement: 13 / 17, mean_jaccard: 14.5 / 17 }], 'condition'), [
    { condition: 'P0', pairs: 17, 'exact agreement (%)': 76.47, 'mean pairwise Jaccard (%)': 85.29 },
  ]);
});

test('agreement table: a group is shown under its label when one is given', () => {
  assert.equal(agreementTable([{ group: 'simulated:sim-a', pairs: 1, exact_agreement: 1, mean_jaccard: 1 }], 'model', { 'simulated:sim-a': 'sim-a ≈ Claude Fable 5' })[0]!['model'], 'sim-a ≈ Claude Fable 5');
});
