import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { loadResponses, scoreKstResponses } from '../../lib/analysis';
import { terminalSummary } from '../../lib/analysis/terminal';

const fixture = join(__dirname, '..', 'fixtures', 'analyze');

test('terminal states: the fixture\'s six terminal groups (tiny ABC, pair XY) hand-counted', () => {
  // tiny ABC and pair XY × 2 models × 2 conditions × 2 orders = 16 responses; d3 (m2 P0 tiny ABC o1)
  // recommends {C} → 15 correct; none invalid.
  const { scored } = scoreKstResponses(loadResponses(join(fixture, 'responses.jsonl'), loadDomainDir(join(fixture, 'domains'))));
  assert.deepEqual(terminalSummary(scored), { responses: 16, correct: 15, invalid: 0 });
});
