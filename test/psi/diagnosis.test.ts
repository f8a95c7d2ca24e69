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

test('diagnose / improvementChecklist: KD direction, CL markers and RA level from evidence (hand-made evidence)', () => {
  const scores = { kd: 0.45, tv: 1, sd: 1, ef: 1, cl: 0.6, ra: 0.6 };
  const evidence = {
    // overlap 0.2 < δ 0.65 → too new
    kd: { conceptsFound: ['lists', 'for_loop', 'functions'], overlap: 0.2, deltaOpt: 0.65, unknown: ['for_loop', 'functions'], known: ['lists'] },
    cl: { extraneous: 2, propositions: 5, markers: [{ match: 'Great question!' }, { match: 'I think' }, { match: 'I think' }] },
    ra: { detected: 4, detectedName: 'Analyze', target: 2, targetName: 'Understand' },
  } as never;
  const w = diagnose(scores, evidence);
  // kd 0.45 < 0.5 → medium; cl 0.6 and ra 0.6 < 0.7 → low, in SUBSCORES order
  assert.deepEqual(w.map((x) => [x.subscore, x.severity]), [['kd', 'medium'], ['cl', 'low'], ['ra', 'low']]);
  assert.equal(w[0]!.issue, "only 0.200 of the response's concepts are familiar to the learner (target 0.65); new: for_loop, functions");
  assert.equal(w[1]!.issue, '2 of 5 proposition(s) hold filler, hedging or tangents ("Great question!", "I think")');
  assert.equal(w[2]!.issue, 'the response works at Analyze (level 4) while the target is Understand (level 2)');
  assert.deepEqual(improvementChecklist(w), [
    'Build on concepts the student already knows (lists) and introduce at most one or two new ones; for_loop, functions are new to this student.',
    'Remove filler, hedging and side remarks (e.g. "Great question!", "I think"); keep every sentence about the student\'s question.',
    'Bring the response down to the Understand level: explain in plain words why it works, with a small example; leave harder tasks for later.',
  ]);
  // too familiar, and no concept at all
  const familiar = diagnose({ ...scores, cl: 1, ra: 1 }, { kd: { conceptsFound: ['lists'], overlap: 1, deltaOpt: 0.65, unknown: [], known: ['lists'] } } as never);
  assert.deepEqual(improvementChecklist(familiar), [
    'Go one step beyond what the student already knows: connect the answer to the learning objective instead of restating familiar material.',
  ]);
  const none = diagnose({ ...scores, kd: 0.2, cl: 1, ra: 1 }, { kd: { conceptsFound: [], overlap: 0, deltaOpt: 0.65, unknown: [], known: [] } } as never);
  assert.deepEqual([none[0]!.severity, none[0]!.issue], ['high', 'no course concept could be identified in the response']);
  // at or above 0.7 nothing is a weakness
  assert.deepEqual(diagnose({ kd: 0.7, tv: 0.7, sd: 0.7, ef: 0.7, cl: 0.7, ra: 0.7 }), []);
});
