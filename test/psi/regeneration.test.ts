import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildRegenerationPrompt,
  diagnose,
  getScenario,
  improvementChecklist,
  scoreResponse,
  selectWeakCases,
  type SelectionCandidate,
} from '../../lib/psi';
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

test('buildRegenerationPrompt: the five parts in order (a) context, (b) round 1, (c) scores, (d) diagnosis, (e) checklist', () => {
  const { system, user, checklist } = buildRegenerationPrompt(s01, 'standard', T1, t1);
  assert.match(system, /tutor/);
  const marks = ['## (a)', s01.question, '## (b)', T1, '## (c)', 'Overall PSI: 0.635', '## (d)', '[HIGH]', '## (e)', '- [ ] Explain lists before using for_loop.'];
  let at = -1;
  for (const m of marks) {
    const i = user.indexOf(m, at + 1);
    assert.ok(i > at, `"${m}" must appear after position ${at}`);
    at = i;
  }
  // all six sub-scores with their values
  for (const [k, v] of [['KD', '0.983'], ['TV', '0.000'], ['SD', '0.625'], ['EF', '0.371'], ['CL', '0.833'], ['RA', '1.000']] as const) {
    assert.match(user, new RegExp(`- ${k} \\(.*\\): ${v.replace('.', '\\.')}`));
  }
  assert.equal(checklist.length, 4);
  // the defective variant shows the defective question, not the standard one
  const d = buildRegenerationPrompt(s01, 'defective', T1, t1).user;
  assert.ok(d.includes(s01.defective.question) && !d.includes(s01.question));
});

const cands: SelectionCandidate[] = [
  { run_id: 'r-b', model: 'A', variant: 'defective', psi: 0.6 },
  { run_id: 'r-c', model: 'B', variant: 'defective', psi: 0.5 },
  { run_id: 'r-d', model: 'B', variant: 'standard', psi: 0.58 },
  { run_id: 'r-e', model: 'A', variant: 'defective', psi: 0.4, status: 'missing' },
  { run_id: 'r-f', model: 'B', variant: 'defective', psi: 0.589 },
  { run_id: 'r-a', model: 'A', variant: 'defective', psi: 0.5 },
];

test('selectWeakCases: threshold 0.59 default, ties by run_id, quota, reproducible under reordering', () => {
  // eligible (defective, not missing): a .50, b .60, c .50, f .589 → below 0.59: a, c (tie → run_id), f
  const sel = selectWeakCases(cands);
  assert.deepEqual(sel.selected.map((r) => r.run_id), ['r-a', 'r-c', 'r-f']);
  assert.equal(sel.considered, 4);
  assert.deepEqual(sel.perModel, { A: 1, B: 2 });
  assert.deepEqual(sel.consideredPerModel, { A: 2, B: 2 }); // A: r-a, r-b (r-e missing); B: r-c, r-f
  assert.deepEqual(selectWeakCases([...cands].reverse()).selected, sel.selected);
  assert.deepEqual(selectWeakCases(cands, { quota: 2 }).selected.map((r) => r.run_id), ['r-a', 'r-c']);
  assert.deepEqual(selectWeakCases(cands, { threshold: null, quota: 1 }).selected.map((r) => r.run_id), ['r-a']);
  assert.deepEqual(selectWeakCases(cands, { variant: 'standard' }).selected.map((r) => r.run_id), ['r-d']);
  assert.throws(() => selectWeakCases(cands, { quota: -1 }), /quota/);
});
