import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnose, getScenario, improvementChecklist, scoreResponse } from '../../lib/psi';
import { fixtureCourse, T1 } from './helpers';

const course = fixtureCourse();
const s01 = getScenario(course, 'S01');
const t1 = scoreResponse(T1, s01, course);

test('diagnose: T1 has a high TV, a medium EF and a low SD weakness, each with concrete checklist items', () => {
  // sub-scores kd 0.983, tv 0, sd 0.625, ef 0.371, cl 0.833, ra 1; cut-offs 0.3 / 0.5 / 0.7
  const w = diagnose(t1.subscores, t1.evidence);
  assert.deepEqual(w.map((x) => [x.subscore, x.severity]), [['tv', 'high'], ['ef', 'medium'], ['sd', 'low']]);
  assert.match(w[0]!.issue, /for_loop before its prerequisite lists/);
  assert.match(w[1]!.issue, /lists/);
  // T1 has a worked example, a step, a check and an analogy but no hint; α = 0.75 < 1
  assert.match(w[2]!.issue, /5 scaffolding element\(s\) over 6 proposition\(s\); missing: hint/);
  assert.deepEqual(improvementChecklist(w), [
    'Explain lists before using for_loop.',
    'Briefly recap lists before building on it; the student last practised it a while ago.',
    'Give a hint that lets the student attempt the next step before seeing the full answer.',
    "Refer explicitly to what the student already learned (e.g. 'as you saw in week 3 with variables').",
  ]);
});

test('diagnose: severities follow the cut-offs; without evidence a low SD gets the generic scaffolding checklist', () => {
  const w = diagnose({ kd: 0.69, tv: 0.45, sd: 0.05, ef: 0.7, cl: 1, ra: 0.29 });
  assert.deepEqual(w.map((x) => [x.subscore, x.severity]), [['sd', 'high'], ['ra', 'high'], ['tv', 'medium'], ['kd', 'low']]);
  const items = improvementChecklist(w.filter((x) => x.subscore === 'sd'));
  assert.deepEqual(items, [
    'Add at least one worked code example with its expected output.',
    'Break the solution into numbered steps.',
    'End with a comprehension-check question the student can answer.',
  ]);
});
