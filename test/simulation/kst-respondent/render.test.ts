import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Presentation } from '../../../lib/kst';
import type { SimulatedDecision } from '../../../lib/simulation/kst-respondent/behaviour';
import { SIMULATED_REFUSAL, answerObject, positionList, renderAnswer, renderInvalid } from '../../../lib/simulation/kst-respondent/render';

// Tasks A, B, C shown as 1. C, 2. A, 3. B.
const shown = ['C', 'A', 'B'];
const presentation = { domain: 'abc', order: 1, seed: 'x', positions: shown, toPosition: (id: string) => shown.indexOf(id) + 1 } as unknown as Presentation;
const decision = (over: Partial<SimulatedDecision>): SimulatedDecision => ({
  basis: 'states', recommendations: [], slip: null, invalid: null, terminal: false, ...over,
});
// State {A} under P3: recommend B and C (canonical order); by position C (1) comes before B (3).
const twoSteps = decision({ recommendations: [{ id: 'B', because: [], slip: false }, { id: 'C', because: [], slip: false }] });

test('positionList: "position k", "positions a and b", "positions a, b and c", ascending', () => {
  assert.equal(positionList([3]), 'position 3');
  assert.equal(positionList([5, 2]), 'positions 2 and 5');
  assert.equal(positionList([5, 1, 2]), 'positions 1, 2 and 5');
});

test('answerObject: recommendations by position, a reason only when empty, P1 pairs in positions', () => {
  const a = answerObject(twoSteps, presentation) as { recommendations: Array<{ position: number; justification: string }>; no_recommendation_reason: unknown };
  assert.deepEqual(a.recommendations.map((r) => r.position), [1, 3]);
  assert.ok(a.recommendations.every((r) => r.justification.length > 0));
  assert.equal(a.no_recommendation_reason, null);
  assert.equal('prerequisites' in a, false);
  assert.equal(answerObject(decision({ terminal: true }), presentation).no_recommendation_reason, 'Every component is already mastered, so there is no next step.');
  assert.equal(answerObject(decision({}), presentation).no_recommendation_reason, 'None of the remaining components has all of its prerequisites mastered.');
  // believed pairs A → B and C → B: positions (2, 3) and (1, 3), sorted → [[1, 3], [2, 3]]
  const p1 = decision({ basis: 'belief', prerequisites: [['A', 'B'], ['C', 'B']] });
  assert.deepEqual(answerObject(p1, presentation).prerequisites, [[1, 3], [2, 3]]);
});

test('renderAnswer and renderInvalid: the valid JSON and each invalid form', () => {
  const valid = renderAnswer(twoSteps, presentation);
  assert.equal(valid.finishReason, 'stop');
  assert.equal(valid.refusal, null);
  assert.deepEqual(JSON.parse(valid.text), answerObject(twoSteps, presentation));
  const answer = answerObject(twoSteps, presentation);
  const n = 3;
  const form = (kind: Parameters<typeof renderInvalid>[0]) => renderInvalid(kind, answer, valid.text, n);
  assert.throws(() => JSON.parse(form('malformed_json').text));
  assert.match(form('malformed_json').text, /^\{recommendations:\[\{position:1,/);
  assert.equal(form('extra_prose').text, `Here are the next steps for this learner:\n${valid.text}`);
  const dup = JSON.parse(form('duplicate_position').text).recommendations;
  assert.deepEqual(dup.map((r: { position: number }) => r.position), [1, 3, 1]);
  const out = JSON.parse(form('out_of_range').text).recommendations;
  assert.deepEqual(out.map((r: { position: number }) => r.position), [1, 3, 4]);
  assert.equal(JSON.parse(form('missing_justification').text).recommendations[0].justification, '');
  assert.deepEqual(form('refusal'), { text: SIMULATED_REFUSAL, finishReason: 'stop', refusal: SIMULATED_REFUSAL });
  const cut = form('truncated');
  assert.equal(cut.finishReason, 'length');
  assert.equal(cut.text, valid.text.slice(0, Math.floor(valid.text.length * 0.6)));
  // renderAnswer routes a decision's invalid kind to the same form
  assert.deepEqual(renderAnswer({ ...twoSteps, invalid: 'extra_prose' }, presentation), form('extra_prose'));
});
