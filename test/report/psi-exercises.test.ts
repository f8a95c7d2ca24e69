import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EQUAL_WEIGHTS } from '../../lib/psi';
import { checkCompositeAnswer, checkKnowledgeDistanceAnswer } from '../../lib/report/psi-exercises';

// Notebook 10's exercises.
const named = ['while_loop', 'variables', 'print', 'for_loop'];
const known = ['while_loop', 'variables', 'print', 'if_statement'];
const weak = { kd: 0.9, tv: 1, sd: 0.4, ef: 0.7, cl: 0.4, ra: 0.6 };

test('exercise 1 (KD of a response naming 4 concepts, 3 known): right for 0.9, wrong for sim itself with the reason', () => {
  const right = checkKnowledgeDistanceAnswer(named, known, 0.65, 0.9);
  assert.equal(right.right, true);
  assert.match(right.why, /sim = 3 known \/ 4 named = 0\.75, so KD = 1 − \|0\.75 − 0\.65\| = 0\.9: a little more familiar/);
  const sim = checkKnowledgeDistanceAnswer(named, known, 0.65, 0.75);
  assert.equal(sim.right, false);
  assert.match(sim.hint!, /that is sim itself/);
  const other = checkKnowledgeDistanceAnswer(named, known, 0.65, 0.1);
  assert.equal(other.right, false);
  assert.match(other.hint!, /first the share/);
  assert.match(checkKnowledgeDistanceAnswer([], known, 0.65, 0.35).why, /no concept named, so sim = 0, so KD = 1 − \|0 − 0\.65\| = 0\.35/);
});

test('exercise 2 (PSI with CL raised to 1): right for the weighted mean, wrong for 1 with the weight-times-change hint', () => {
  assert.equal(checkCompositeAnswer(weak, EQUAL_WEIGHTS, { cl: 1 }, 0.77).right, true);
  const wrong = checkCompositeAnswer(weak, EQUAL_WEIGHTS, { cl: 1 }, 0.8);
  assert.equal(wrong.right, false);
  assert.equal(wrong.why, 'PSI = Σ w·S = 0.667 + 1/6 × (1 − 0.4) = 0.767, not 0.8');
  assert.match(wrong.hint!, /weight × Δ/);
  const unequal = { ...EQUAL_WEIGHTS, kd: 0.5, tv: 0.1, sd: 0.1, ef: 0.1, cl: 0.1, ra: 0.1 };
  assert.match(checkCompositeAnswer(weak, unequal, { kd: 1 }, 0).why, /\+ 0\.5 × \(1 − 0\.9\)/);
});

test('the checks answer a string, null or an unknown sub-score in one sentence', () => {
  assert.match(checkKnowledgeDistanceAnswer(named, known, 0.65, 'high').why, /^KD is a number/);
  assert.equal(checkCompositeAnswer(weak, EQUAL_WEIGHTS, { cl: 1 }, null).why, 'no answer yet');
  assert.match(checkCompositeAnswer(weak, EQUAL_WEIGHTS, { xx: 1 } as never, 0.7).why, /xx, which is not a sub-score/);
});
