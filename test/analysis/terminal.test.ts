import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildDomain, loadDomainDir } from '../../lib/kst';
import { loadResponses, scoreKstResponses, table1, validateResponses } from '../../lib/analysis';
import { terminalSummary } from '../../lib/analysis/terminal';

const fixture = join(__dirname, '..', 'fixtures', 'analyze');

test('terminal states: the fixture\'s six terminal groups (tiny ABC, pair XY) hand-counted', () => {
  // tiny ABC and pair XY × 2 models × 2 conditions × 2 orders = 16 responses; d3 (m2 P0 tiny ABC o1)
  // recommends {C} → 15 correct; none invalid.
  const { scored } = scoreKstResponses(loadResponses(join(fixture, 'responses.jsonl'), loadDomainDir(join(fixture, 'domains'))));
  assert.deepEqual(terminalSummary(scored), { responses: 16, correct: 15, invalid: 0 });
});

// A space that is not well-graded (basis {A,C}, {B,C}: states ∅, {A,C}, {B,C}, Q). By hand: ∅ ∪ {x} is
// no state for any x, so ∅ has an empty outer fringe, like Q; Table 1 counts 2 terminal states, and the
// responses for ∅ and for Q are the terminal-state responses (an empty answer is right for both).
test('terminal states: a dead end below Q counts, as in Table 1', () => {
  const domain = buildDomain({ id: 'dead', title: 'dead end', source: 'test', components: ['A', 'B', 'C'].map((id) => ({ id, description: id })), basis: [['A', 'C'], ['B', 'C']] });
  const line = (run_id: string, state: string[], recommended: string[]) => ({ run_id, model: 'm', domain: 'dead', condition: 'P0', order: 1, state, recommended, status: 'valid' });
  const records = validateResponses(
    [line('r1', [], []), line('r2', ['A', 'B', 'C'], ['A']), line('r3', ['A', 'C'], ['B'])].map((value, i) => ({ line: i + 1, value: { ...value, order: 1, model: `m${i}` } })),
    [domain],
    'r.jsonl',
  );
  const { scored } = scoreKstResponses(records);
  assert.equal(table1([domain])[0]!.terminal_states, 2);
  assert.deepEqual(terminalSummary(scored), { responses: 2, correct: 1, invalid: 0 });
});
