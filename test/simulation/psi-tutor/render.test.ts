import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { SIMULATED_MATERIAL } from '../../../lib/simulation/psi-tutor/material';
import { drawPlan } from '../../../lib/simulation/psi-tutor/plan';
import { TUTOR_PROFILES } from '../../../lib/simulation/psi-tutor/profiles';
import { renderPlan } from '../../../lib/simulation/psi-tutor/render';
import { course } from './helpers';

const cells = course.scenarios.map((scenario) => ({ course, scenario, variant: 'standard' as const, round: 1 as const, seed: '1' }));
const plan = (req: (typeof cells)[number]) => drawPlan(TUTOR_PROFILES['sim-tutor-a'], req, seedrandom(`plan|${req.scenario.id}`));

test('renderPlan: same plan and rng seed → same Markdown; another render seed changes some text', () => {
  const render = (seed: string) => cells.map((req) => renderPlan(plan(req), req, SIMULATED_MATERIAL[req.scenario.id]!, seedrandom(`${seed}|${req.scenario.id}`)));
  const one = render('r1');
  assert.deepEqual(render('r1'), one);
  assert.ok(render('r2').some((t, i) => t !== one[i]), 'another render seed changes at least one response');
});

test('renderPlan: a plan with code shows the scenario material’s code in a closed python fence', () => {
  for (const req of cells) {
    const p = plan(req);
    const text = renderPlan(p, req, SIMULATED_MATERIAL[req.scenario.id]!, seedrandom('r'));
    assert.equal((text.match(/^```/gm) ?? []).length % 2, 0, `${req.scenario.id}: fences closed`);
    if (p.code) assert.ok(text.includes(SIMULATED_MATERIAL[req.scenario.id]!.code.trim()), `${req.scenario.id}: code shown`);
  }
});
