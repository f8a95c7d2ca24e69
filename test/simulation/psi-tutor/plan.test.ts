import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { chance, checklistTargets, drawPlan, intBetween, pick } from '../../../lib/simulation/psi-tutor/plan';
import { TUTOR_PROFILES } from '../../../lib/simulation/psi-tutor/profiles';
import { course } from './helpers';

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

/** A scripted "generator" returning the given numbers in turn. */
const scripted = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

test('chance, intBetween and pick map one uniform draw as documented', () => {
  assert.equal(chance(scripted(0.3), 0.5), true);
  assert.equal(chance(scripted(0.3), 0.3), false); // strict: u < p
  // [2, 5] has 4 values: 2 + floor(u · 4)
  assert.equal(intBetween(scripted(0), [2, 5]), 2);
  assert.equal(intBetween(scripted(0.5), [2, 5]), 4);
  assert.equal(intBetween(scripted(0.999), [2, 5]), 5);
  assert.equal(intBetween(scripted(0.7), [3, 3]), 3);
  // floor(0.66 · 3) = 1, floor(0.67 · 3) = 2
  assert.equal(pick(scripted(0.66), ['a', 'b', 'c']), 'b');
  assert.equal(pick(scripted(0.67), ['a', 'b', 'c']), 'c');
});

test('drawPlan: same seed → identical plan; another seed → a different plan for some cell', () => {
  const cells = course.scenarios.flatMap((scenario) =>
    (['standard', 'defective'] as const).map((variant) => ({ course, scenario, variant, round: 1 as const, seed: '1' })),
  );
  const profile = TUTOR_PROFILES['sim-tutor-a'];
  const plans = (seed: string) => cells.map((req) => drawPlan(profile, req, seedrandom(`${seed}|${req.scenario.id}|${req.variant}`)));
  const one = plans('s1');
  assert.deepEqual(plans('s1'), one);
  const other = plans('s2');
  assert.ok(other.some((p, i) => JSON.stringify(p) !== JSON.stringify(one[i])), 'another seed changes at least one plan');
  // every plan only orders the scenario's own objective concepts
  one.forEach((p, i) => assert.deepEqual([...p.objectiveOrder].sort(), [...cells[i]!.scenario.objective_concepts].sort()));
});
