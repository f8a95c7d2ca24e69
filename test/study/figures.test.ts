import { test } from 'node:test';
import assert from 'node:assert/strict';
import { studyFigureSpecs } from '../../lib/study/figures';

test('the figure specs carry no paper marker, and Figure 3 / P1 verdicts appear only with their data', () => {
  const results = {
    simulated: true,
    table1: [{ domain: 'd', components: 2, states: 3, terminal_states: 1 }],
    table3: [{ condition: 'P0', n: 2, exact: 0.5, precision: 0.5, recall: 0.5, f1: 0.5, jaccard: 0.5 }],
    domain_condition: [{ domain: 'd', condition: 'P0', n: 2, exact: 0.5 }],
    figure3: null,
    graphs: null,
  } as never;
  const specs = studyFigureSpecs(results);
  assert.deepEqual(specs.map((f) => f.name), ['figure-1-exact-f1', 'figure-2-domain-condition']);
  assert.doesNotMatch(JSON.stringify(specs), /Paper|paper/);
  const withF3 = studyFigureSpecs({ ...(results as object), figure3: { domain: 'd', condition: 'P0', rule: 'r', models: [{ model: 'm', correct: 1, n: 2 }] } } as never);
  assert.equal(withF3[2]!.name, 'figure-3-model-comparison');
  assert.match(withF3[2]!.title, /Models on d, P0/);
});
