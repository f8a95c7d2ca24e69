/** lib/report/kst-presentation-agreement.ts: order agreement in percent and the terminal-state responses beside the paper. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agreementTable, terminalComparison } from '../../lib/report/kst-presentation-agreement';

const ROOT = join(__dirname, '..', '..');
const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));

test('terminal states beside the paper: the fixture\'s 15 of 16 correct against the paper\'s 192', () => {
  assert.deepEqual(terminalComparison({ responses: 16, correct: 15, invalid: 0 }, published), [
    { measure: 'terminal-state responses', computed: 16, paper: 192 },
    { measure: 'correct (empty recommendation)', computed: 15, paper: 192 },
    { measure: 'invalid', computed: 0, paper: 0 },
  ]);
});

test('agreement table in percent with two decimals', () => {
  assert.deepEqual(agreementTable([{ group: 'P0', pairs: 17, exact_agreement: 13 / 17, mean_jaccard: 14.5 / 17 }], 'condition'), [
    { condition: 'P0', pairs: 17, 'exact agreement (%)': 76.47, 'mean pairwise Jaccard (%)': 85.29 },
  ]);
});

test('agreement table: a group is shown under its label when one is given', () => {
  assert.equal(agreementTable([{ group: 'simulated:sim-a', pairs: 1, exact_agreement: 1, mean_jaccard: 1 }], 'model', { 'simulated:sim-a': 'sim-a ≈ Claude Fable 5' })[0]!['model'], 'sim-a ≈ Claude Fable 5');
});
