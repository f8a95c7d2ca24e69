import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { findConcepts } from '../../lib/psi/concepts';
import { buildRegenerationPrompt } from '../../lib/psi/regeneration';
import { loadPsiCourse } from '../../lib/psi/schema';
import { scoreResponse } from '../../lib/psi/score';
import { SIMULATED_MATERIAL } from '../../lib/psi/simulated-material';
import {
  checklistTargets,
  conceptLabel,
  createSimulatedTutor,
  simulateTutorResponse,
  TUTOR_PROFILE_IDS,
  TUTOR_PROFILES,
} from '../../lib/psi/simulated-tutor';

const course = loadPsiCourse(join(__dirname, '..', '..', 'data', 'raw', 'psi'));
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

test('profiles: four neutral names, each documented with the paper model it mirrors', () => {
  assert.deepEqual(TUTOR_PROFILE_IDS, ['sim-tutor-a', 'sim-tutor-b', 'sim-tutor-c', 'sim-tutor-d']);
  assert.deepEqual(
    TUTOR_PROFILE_IDS.map((id) => TUTOR_PROFILES[id].mirrors),
    ['ChatGPT', 'Gemini', 'Gemma 4', 'Qwen 3'],
  );
});

test('material: one entry per scenario, with code and its output', () => {
  assert.deepEqual(Object.keys(SIMULATED_MATERIAL).sort(), course.scenarios.map((s) => s.id));
  for (const [id, m] of Object.entries(SIMULATED_MATERIAL)) {
    assert.ok(m.code.trim() && m.output.trim(), id);
    assert.match(m.analogy, /^Think of /, `${id} analogy is phrased as an analogy`);
  }
});

test('conceptLabel: every concept label is recognised as that concept by the PSI detector', () => {
  for (const id of course.taxonomy.ids) {
    const label = conceptLabel(course.taxonomy, id);
    assert.ok(findConcepts(label, course.taxonomy).some((m) => m.id === id), `${id} -> ${label}`);
  }
  assert.equal(conceptLabel(course.taxonomy, 'for_loop'), 'for loop');
  assert.equal(conceptLabel(course.taxonomy, 'cpu'), 'CPU');
});

test('same seed, same bytes; another seed changes some responses', () => {
  const s = course.scenarioById.get('S10')!;
  for (const model of TUTOR_PROFILE_IDS) {
    const a = simulateTutorResponse(model, { course, scenario: s, variant: 'standard', round: 1, seed: '5' });
    const b = simulateTutorResponse(model, { course, scenario: s, variant: 'standard', round: 1, seed: '5' });
    assert.equal(a, b);
  }
  const differs = course.scenarios.some(
    (s2) =>
      simulateTutorResponse('sim-tutor-a', { course, scenario: s2, variant: 'standard', round: 1, seed: '1' }) !==
      simulateTutorResponse('sim-tutor-a', { course, scenario: s2, variant: 'standard', round: 1, seed: '2' }),
  );
  assert.ok(differs);
});

test('responses: contain the key correction, closed code fences, no real model name', () => {
  for (const model of TUTOR_PROFILE_IDS) {
    for (const s of course.scenarios) {
      for (const variant of ['standard', 'defective'] as const) {
        const text = simulateTutorResponse(model, { course, scenario: s, variant, round: 1, seed: '1' });
        assert.ok(text.includes(SIMULATED_MATERIAL[s.id]!.key), `${model} ${s.id} ${variant}`);
        assert.equal((text.match(/^```/gm) ?? []).length % 2, 0, `${model} ${s.id} fences balanced`);
        assert.doesNotMatch(text, /ChatGPT|Gemini|Gemma|Qwen|GPT-4/);
      }
    }
  }
});

test('behavioural structure (scored with lib/psi): scaffolding a > d > c > b, low extraneous load', () => {
  const sd: Record<string, number[]> = {};
  const cl: number[] = [];
  for (const model of TUTOR_PROFILE_IDS) {
    for (const s of course.scenarios) {
      const text = simulateTutorResponse(model, { course, scenario: s, variant: 'standard', round: 1, seed: '1' });
      const r = scoreResponse(text, s, course);
      (sd[model] ??= []).push(r.subscores.sd);
      cl.push(r.subscores.cl);
    }
  }
  const [a, b, c, d] = TUTOR_PROFILE_IDS.map((m) => mean(sd[m]!));
  assert.ok(a! > d! && d! > c! && c! > b!, `SD means a ${a} b ${b} c ${c} d ${d}`);
  assert.ok(a! > 3 * b!, 'the scaffolding-heavy profile scaffolds several times more than the concise one');
  assert.ok(mean(cl) > 0.98, `mean CL ${mean(cl)}`);
});

test('checklistTargets: reads the regeneration checklist items built by lib/psi', () => {
  assert.deepEqual(
    [...checklistTargets(['Add at least one worked code example with its expected output.'])],
    ['sd'],
  );
  assert.deepEqual([...checklistTargets(['Explain variables before using assignment_statement.'])], ['tv']);
  assert.deepEqual([...checklistTargets(['Remove filler, hedging and side remarks; keep every sentence about the question.'])], ['cl']);
  assert.deepEqual([...checklistTargets([{ subscore: 'ra', text: 'anything' }])], ['ra']);
  assert.ok(checklistTargets(['Briefly recap lists before building on it; the student last practised it a while ago.']).has('ef'));
});

test('round 2: a scaffolding checklist makes a concise answer add a worked example and steps', () => {
  const s = course.scenarioById.get('S07')!;
  const req = { course, scenario: s, variant: 'defective' as const, seed: '3' };
  // Find a seed-independent fact: follow the checklist for every profile and compare scaffolding.
  let raised = 0;
  for (const model of TUTOR_PROFILE_IDS) {
    const r1 = simulateTutorResponse(model, { ...req, round: 1 });
    const scoring = scoreResponse(r1, s, course);
    const prompt = buildRegenerationPrompt(s, 'defective', r1, scoring);
    const checklist = [...prompt.checklist, 'Add at least one worked code example with its expected output.', 'Break the solution into numbered steps.'];
    const r2 = simulateTutorResponse(model, { ...req, round: 2, checklist });
    assert.equal(r2, simulateTutorResponse(model, { ...req, round: 2, checklist }), 'round 2 is deterministic too');
    if (scoreResponse(r2, s, course).subscores.sd > scoring.subscores.sd) raised++;
  }
  assert.ok(raised >= 3, `scaffolding rose for ${raised} of 4 profiles`);
  // Round 2 revises round 1: same material, so the key sentence is still there.
  const text = simulateTutorResponse('sim-tutor-b', { ...req, round: 2, checklist: ['Break the solution into numbered steps.'] });
  assert.ok(text.includes(SIMULATED_MATERIAL.S07!.key));
});

test('createSimulatedTutor: a Provider that reads the PSI context', async () => {
  const tutor = createSimulatedTutor('sim-tutor-d', { course });
  assert.equal(tutor.simulated, true);
  assert.equal(tutor.provider, 'simulated');
  const base = { runId: 'r1', system: 'sys', user: 'question', schemaName: 'tutor_answer', jsonSchema: { type: 'object' }, maxOutputTokens: 100, timeoutMs: 1000 };
  const result = await tutor.complete({ ...base, context: { kind: 'psi', scenario: 'S05', variant: 'standard', round: 1, seed: '9' } });
  const s = course.scenarioById.get('S05')!;
  assert.equal(result.text, simulateTutorResponse('sim-tutor-d', { course, scenario: s, variant: 'standard', round: 1, seed: '9' }));
  assert.equal(result.finishReason, 'stop');
  assert.equal(result.modelVersion, 'sim-tutor-d@1');
  assert.ok(result.usage!.outputTokens > 0);
  await assert.rejects(tutor.complete({ ...base, context: { kind: 'kst' } }), InputError);
  await assert.rejects(tutor.complete({ ...base, context: { kind: 'psi', scenario: 'S99', variant: 'standard', round: 1 } }), /unknown scenario "S99"/);
  await assert.rejects(createSimulatedTutor('sim-tutor-d').complete({ ...base, context: { kind: 'psi', scenario: 'S05', variant: 'standard', round: 1 } }), /no PSI course/);
  assert.throws(() => createSimulatedTutor('gpt-4o'), /unknown simulated tutor "gpt-4o"/);
});
