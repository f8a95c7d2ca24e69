import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { InputError } from '../../../lib/errors';
import { findConcepts } from '../../../lib/psi/concepts';
import { buildRegenerationPrompt } from '../../../lib/psi/regeneration';
import { loadPsiCourse } from '../../../lib/psi/schema';
import { scoreResponse } from '../../../lib/psi/score';
import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { SIMULATED_MATERIAL } from '../../../lib/simulation/psi-tutor/material';
import { course, mean } from './helpers';
import type { TutorProfile } from '../../../lib/simulation/psi-tutor/profiles';
import {
  checklistTargets,
  conceptLabel,
  createSimulatedTutor,
  drawPlan,
  laterConcepts,
  renderPlan,
  revisePlan,
  simulateTutorResponse,
  TUTOR_PROFILE_IDS,
  TUTOR_PROFILES,
} from '../../../lib/simulation/psi-tutor/provider';


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

test('round 2: a scaffolding checklist makes a concise answer add a worked example and steps', () => {
  const s = course.scenarioById.get('S07')!;
  const req = { course, scenario: s, variant: 'defective' as const, seed: '3' };
  // Find a seed-independent fact: follow the checklist for every profile and compare scaffolding.
  let raised = 0;
  for (const model of TUTOR_PROFILE_IDS) {
    const r1 = simulateTutorResponse(model, { ...req, round: 1 });
    const scoring = scoreResponse(r1, s, course);
    const prompt = buildRegenerationPrompt(course, s, 'defective', r1, scoring);
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
  assert.equal(result.modelVersion, 'sim-tutor-d@3');
  assert.ok(result.usage!.outputTokens > 0);
  await assert.rejects(tutor.complete({ ...base, context: { kind: 'kst' } }), InputError);
  await assert.rejects(tutor.complete({ ...base, context: { kind: 'psi', scenario: 'S99', variant: 'standard', round: 1 } }), /unknown scenario "S99"/);
  await assert.rejects(createSimulatedTutor('sim-tutor-d').complete({ ...base, context: { kind: 'psi', scenario: 'S05', variant: 'standard', round: 1 } }), /no PSI course/);
  assert.throws(() => createSimulatedTutor('gpt-4o'), /unknown simulated tutor "gpt-4o"/);
});

/** A copy of a profile with some habits overridden (for mechanism tests). */
function variantOf(id: keyof typeof TUTOR_PROFILES, change: (p: TutorProfile) => void): TutorProfile {
  const copy = JSON.parse(JSON.stringify(TUTOR_PROFILES[id])) as TutorProfile;
  change(copy);
  return copy;
}

test('defective prompt: covering another reading names not-yet-known concepts, at the end or guessed up front', () => {
  const s = course.scenarioById.get('S28')!; // defect: missing_context (not ambiguous) → alternatives.other applies
  const req = { course, scenario: s, variant: 'defective' as const, round: 1 as const, seed: '1' };
  for (const restate of [0, 1]) {
    const profile = variantOf('sim-tutor-b', (p) => {
      p.defective.alternatives = { ambiguous: 1, other: 1 };
      p.defective.alternativeConcepts = [2, 2];
      p.defective.restate = restate;
      p.defective.basicsRecap = { contextPoor: 0, other: 0 };
    });
    const plan = drawPlan(profile, req, seedrandom('t'));
    assert.deepEqual(plan.alternatives, ['pillow_library', 'image_filters']);
    const text = renderPlan(plan, req, SIMULATED_MATERIAL.S28!, seedrandom('r'));
    const scoring = scoreResponse(text, s, course);
    assert.ok(['pillow_library', 'image_filters'].every((id) => scoring.evidence.kd.unknown.includes(id)), 'the scorer sees them as new to the learner');
    const guess = text.indexOf('pillow library');
    const key = text.indexOf(SIMULATED_MATERIAL.S28!.key);
    assert.ok(restate === 1 ? guess < key : guess > key, `restate ${restate}: guessed reading ${restate ? 'before' : 'after'} the answer`);
  }
  // The standard prompt never does this.
  const std = drawPlan(variantOf('sim-tutor-b', (p) => (p.defective.alternatives = { ambiguous: 1, other: 1 })), { ...req, variant: 'standard' }, seedrandom('t'));
  assert.deepEqual(std.alternatives, []);
});

test('round 2: a top-down walk-through placed first lowers S_TV (same draws otherwise)', () => {
  const checklist = ['Break the solution into numbered steps.'];
  const tv = (scaffoldFirst: number) => {
    const profile = variantOf('sim-tutor-b', (p) => {
      p.regeneration.compliance = { ...p.regeneration.compliance, sd: 1 };
      p.regeneration.scaffoldFirst = scaffoldFirst;
    });
    return mean(
      course.scenarios.map((s) => {
        const req = { course, scenario: s, variant: 'defective' as const, round: 2 as const, checklist, seed: '1' };
        const plan = revisePlan(drawPlan(profile, req, seedrandom(`p${s.id}`)), profile, req, seedrandom(`r${s.id}`));
        if (scaffoldFirst === 1) assert.deepEqual(plan.stepConcepts.slice(0, plan.objectiveOrder.length), plan.objectiveOrder, 'objective first');
        return scoreResponse(renderPlan(plan, req, SIMULATED_MATERIAL[s.id]!, seedrandom('x')), s, course).subscores.tv;
      }),
    );
  };
  const [first, after] = [tv(1), tv(0)];
  assert.ok(first < after, `mean S_TV walk-through first ${first} < placed after ${after}`);
});

