import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateResponses } from '../../lib/analysis/responses';
import { scoreKstResponses } from '../../lib/analysis/score';
import { abcDomain, responseLine } from './helpers';

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} vs ${b}`);

test('scoreKstResponses: valid scored as sets, invalid scores 0, missing set aside (hand-worked)', () => {
  const records = validateResponses(
    [
      // ∅: reference {A, C}; recommended {A}: TP 1, P 1/1, R 1/2, F1 2·1·½/(1 + ½) = 2/3, J 1/2
      { line: 1, value: responseLine({ run_id: 'v', recommended: ['A'] }) },
      { line: 2, value: responseLine({ run_id: 'i', order: 2, status: 'invalid', recommended: null }) },
      { line: 3, value: responseLine({ run_id: 'm', condition: 'P1', status: 'missing', recommended: null }) },
      // {A,B}: reference {C}; recommended {C} → all 1
      { line: 4, value: responseLine({ run_id: 'e', state: ['B', 'A'], recommended: ['C'] }) },
    ],
    [abcDomain()],
  );
  const { scored, missing } = scoreKstResponses(records);
  assert.deepEqual(missing.map((r) => r.runId), ['m']);
  assert.deepEqual(scored.map((r) => r.runId), ['v', 'i', 'e']);
  const [v, i, e] = scored;
  assert.equal(v!.scores.exact, 0);
  assert.equal(v!.scores.precision, 1);
  assert.equal(v!.scores.recall, 0.5);
  close(v!.scores.f1, 2 / 3);
  assert.equal(v!.scores.jaccard, 0.5);
  assert.deepEqual(i!.scores, { exact: 0, precision: 0, recall: 0, f1: 0, jaccard: 0 });
  assert.deepEqual(e!.scores, { exact: 1, precision: 1, recall: 1, f1: 1, jaccard: 1 });
  // the record's fields are carried over (state in canonical order, its key and reference)
  assert.deepEqual([e!.state, e!.stateKey, e!.reference, e!.line], [['A', 'B'], 'abc:{A,B}', ['C'], 4]);
});
