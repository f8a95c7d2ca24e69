import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getScenario, scoreResponse } from '../../lib/psi';
import { fixtureCourse, T1 } from './helpers';

const close = (actual: number, expected: number, eps = 1e-6) =>
  assert.ok(Math.abs(actual - expected) <= eps, `expected ${expected}, got ${actual}`);

test('scoreResponse: every sub-score and the composite worked out by hand for T1 / S01', () => {
  const course = fixtureCourse();
  const r = scoreResponse(T1, getScenario(course, 'S01'), course);
  // Concepts by first mention: for_loop ("for loop", line 1), lists ("list", line 2 and 9),
  // print_function ("print(" in the code). Known: lists, print_function.
  assert.deepEqual(r.evidence.kd.conceptsFound, ['for_loop', 'lists', 'print_function']);
  // KD: known-share 2/3 → 1 − |0.666667 − 0.65| = 0.983333
  close(r.subscores.kd, 0.983333);
  // TV: closure pairs with both ends found: lists ≺ for_loop only; for_loop comes first → 1 − 1/1 = 0
  assert.equal(r.evidence.tv.checks, 1);
  assert.deepEqual(r.evidence.tv.violations, [['lists', 'for_loop']]);
  assert.equal(r.subscores.tv, 0);
  // SD: propositions = "Great question!", "Think of … belt.", "Step 1: …", code block, "Output: …",
  // the question = 6. Indicators: code block, "Output:", "Step 1", "Can you …?", "Think of a for loop as" = 5.
  // α: known concepts named (1) + objective concept for_loop named (1) + 0 phrases = 2 refs
  // → 0.5 + 0.5 · 2/4 = 0.75. SD = 5/6 · 0.75 = 0.625
  assert.equal(r.evidence.sd.propositions, 6);
  assert.equal(r.evidence.sd.scaffolds, 5);
  assert.equal(r.evidence.sd.alpha, 0.75);
  close(r.subscores.sd, 0.625);
  // EF (scenario): 0.5·e^(−2/4) + 0.5·e^(−10/5) = 0.303265 + 0.067668 = 0.370933
  close(r.subscores.ef, 0.370933);
  // CL: "Great question!" is the one extraneous proposition of 6 → 1 − 1/6 = 0.833333
  close(r.subscores.cl, 0.833333);
  // RA: prose cues: Apply "change" 1, + 2 for the python block = 3, nothing else → Apply = target → 1
  assert.deepEqual(r.evidence.ra.levelScores, [0, 0, 3, 0, 0, 0]);
  assert.equal(r.subscores.ra, 1);
  // PSI = (0.983333 + 0 + 0.625 + 0.370933 + 0.833333 + 1) / 6 = 3.812599 / 6 = 0.635433
  close(r.psi, 0.635433);
  // pure: the same input gives the same output
  assert.deepEqual(scoreResponse(T1, getScenario(course, 'S01'), course), r);
});

test('scoreResponse: parameters change exactly the sub-scores they govern', () => {
  const course = fixtureCourse();
  const s01 = getScenario(course, 'S01');
  const base = scoreResponse(T1, s01, course);
  // Jaccard: 2 / (4 known + 1 new) = 0.4 → KD 0.75
  close(scoreResponse(T1, s01, course, { overlap: 'jaccard' }).subscores.kd, 0.75);
  // δ_opt 0.5 → 1 − |0.666667 − 0.5| = 0.833333
  close(scoreResponse(T1, s01, course, { deltaOpt: 0.5 }).subscores.kd, 0.833333);
  // EF response mode: only lists (of the memory) is mentioned → e^−2 = 0.135335
  close(scoreResponse(T1, s01, course, { efMode: 'response' }).subscores.ef, 0.135335);
  // code counted per line (3 lines): 8 propositions → SD 5/8 · 0.75 = 0.46875, CL 1 − 1/8 = 0.875
  const lines = scoreResponse(T1, s01, course, { codeBlockPropositions: 'lines' });
  close(lines.subscores.sd, 0.46875);
  close(lines.subscores.cl, 0.875);
  // all weight on RA → PSI = RA = 1
  const ra = scoreResponse(T1, s01, course, { weights: { kd: 0, tv: 0, sd: 0, ef: 0, cl: 0, ra: 1 } });
  assert.equal(ra.psi, 1);
  assert.deepEqual(ra.subscores, base.subscores);
});
