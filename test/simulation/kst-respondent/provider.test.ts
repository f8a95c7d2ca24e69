import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CONDITIONS, type Condition } from '../../../lib/conditions';
import { InputError } from '../../../lib/errors';
import {
  buildDomain,
  enumerateStates,
  loadDomainDir,
  outerFringe,
  presentationOrders,
  type Domain,
  type Presentation,
} from '../../../lib/kst';
import { buildPrompt, positionsToIds, validateResponse } from '../../../lib/prompting';
import { createProvider, ProviderError, type CompletionRequest, type CompletionResult } from '../../../lib/collect/providers';
import {
  SIMULATED_INVALID_KINDS,
  SIMULATED_PROFILES,
  createSimulatedProvider,
  decide,
  drawBelief,
  type SimulatedProfile,
} from '../../../lib/simulation/kst-respondent/provider';
import { DOMAINS, byId, isAcyclic, testProfile } from './helpers';

function request(domain: Domain, state: string[], condition: Condition, presentation: Presentation, runId = 'test-run'): CompletionRequest {
  const prompt = buildPrompt(domain, state, condition, presentation);
  return {
    runId,
    system: prompt.system,
    user: prompt.user,
    schemaName: prompt.schemaName,
    jsonSchema: prompt.jsonSchema,
    maxOutputTokens: 16000,
    timeoutMs: 1000,
    context: { domain, state, condition, presentation },
  };
}

function validate(result: CompletionResult, condition: Condition, presentation: Presentation) {
  return validateResponse(result.text, {
    condition,
    componentCount: presentation.positions.length,
    finishReason: result.finishReason,
    refusal: result.refusal,
  });
}

test('createProvider("simulated:sim-a") gives a simulated provider; unknown profile is an InputError', () => {
  const provider = createProvider('simulated:sim-a');
  assert.equal(provider.provider, 'simulated');
  assert.equal(provider.simulated, true);
  assert.equal(provider.model, 'sim-a');
  assert.throws(() => createProvider('simulated:gpt-4o'), (err: unknown) => err instanceof InputError && /sim-a/.test(err.message));
});

test('determinism: same cell → same bytes, and result fields as documented', async () => {
  const domain = byId('linear-modelling');
  const [o1] = presentationOrders(domain);
  const state = ['LM1', 'LM3'];
  for (const condition of CONDITIONS) {
    const a = await createSimulatedProvider('sim-b').complete(request(domain, state, condition, o1!));
    const b = await createSimulatedProvider('sim-b').complete(request(domain, state, condition, o1!));
    assert.deepEqual(a, b);
    assert.equal(a.modelVersion, 'sim-b@2');
    assert.equal(a.finishReason, 'stop');
    const req = request(domain, state, condition, o1!);
    assert.deepEqual(a.usage, {
      inputTokens: Math.ceil((req.system.length + req.user.length) / 4),
      outputTokens: Math.ceil(a.text.length / 4),
    });
  }
});

test('a missing or foreign request context is a client_error, not a made-up answer', async () => {
  const provider = createSimulatedProvider('sim-a');
  const domain = byId('slope');
  const req = { ...request(domain, [], 'P0', presentationOrders(domain)[0]!), context: undefined };
  await assert.rejects(provider.complete(req), (err: unknown) => err instanceof ProviderError && err.errorClass === 'client_error');
  const other = byId('slope');
  const wrong = { ...req, context: { domain: other, state: ['XX'], condition: 'P0', presentation: presentationOrders(other)[0] } };
  await assert.rejects(provider.complete(wrong), /state/);
});

test('every invalid kind can be forced and validateResponse gives it the same reason', async () => {
  const domain = byId('graph-to-equation');
  const [o1] = presentationOrders(domain);
  const cases: Array<{ state: string[]; condition: Condition }> = [
    { state: ['GE1'], condition: 'P0' }, // non-empty recommendations
    { state: ['GE1', 'GE2'], condition: 'P1' }, // P1 with a graph
    { state: domain.ids, condition: 'P2' }, // terminal: empty recommendations
    { state: [], condition: 'P3' },
  ];
  for (const kind of SIMULATED_INVALID_KINDS) {
    for (const { state, condition } of cases) {
      const terminal = state.length === domain.ids.length;
      if (kind === 'duplicate_position' && terminal) continue; // nothing to repeat
      const result = await createSimulatedProvider('sim-c', { forceInvalid: kind }).complete(request(domain, state, condition, o1!));
      const verdict = validate(result, condition, o1!);
      assert.equal(verdict.status, 'invalid', `${kind} ${condition} [${state}]`);
      if (verdict.status === 'invalid') assert.equal(verdict.reason, kind, `${kind} ${condition} [${state}]: ${verdict.detail}`);
      if (kind === 'truncated') assert.equal(result.finishReason, 'length');
    }
  }
});

test('P1 returns exactly its belief (in positions) and the belief is acyclic; P0/P1 recommend the belief fringe', async () => {
  for (const profile of SIMULATED_PROFILES) {
    const quiet = { ...profile, invalidRate: 0, slip: { P0: 0, P1: 0, P2: 0, P3: 0 } };
    for (const domain of DOMAINS) {
      for (const presentation of presentationOrders(domain)) {
        for (const condition of ['P0', 'P1'] as const) {
          const belief = drawBelief(quiet, domain, presentation.order, condition);
          assert.ok(isAcyclic(domain.ids, belief.edges), `${profile.name} ${domain.id} o${presentation.order}`);
          for (const state of enumerateStates(domain)) {
            const result = await createSimulatedProvider(profile.name, { profile: quiet }).complete(request(domain, state, condition, presentation));
            const verdict = validate(result, condition, presentation);
            assert.equal(verdict.status, 'valid');
            if (verdict.status !== 'valid') continue;
            // Belief fringe computed here from the edge list: unmastered, all believed direct prerequisites mastered.
            const expected = domain.ids.filter(
              (q) => !state.includes(q) && belief.edges.every(([p, r]) => r !== q || state.includes(p)),
            );
            assert.deepEqual(positionsToIds(presentation, verdict.positions, domain), expected);
            if (condition === 'P1') {
              const graph = verdict.prerequisites!.map(([p, q]) => [presentation.toId(p), presentation.toId(q)]);
              assert.deepEqual(new Set(graph.map((e) => e.join('>'))), new Set(belief.edges.map((e) => e.join('>'))));
            } else {
              assert.equal(verdict.parsed.prerequisites, undefined);
            }
          }
        }
      }
    }
  }
});

test('P2/P3 with zero slip recommend exactly the reference outer fringe in every state', async () => {
  const faithful = testProfile({});
  for (const domain of DOMAINS) {
    for (const presentation of presentationOrders(domain)) {
      for (const state of enumerateStates(domain)) {
        for (const condition of ['P2', 'P3'] as const) {
          const result = await createSimulatedProvider('sim-test', { profile: faithful }).complete(request(domain, state, condition, presentation));
          const verdict = validate(result, condition, presentation);
          assert.equal(verdict.status, 'valid');
          if (verdict.status === 'valid') assert.deepEqual(positionsToIds(presentation, verdict.positions, domain), outerFringe(domain, state));
        }
      }
    }
  }
});

test('justifications name the mastered direct prerequisites by position', async () => {
  // Tiny domain: A → C, B → C. State {A, B}: C is next, justified by positions of A and B.
  const domain = buildDomain({
    id: 'tiny',
    title: 'Tiny',
    source: 'test',
    components: [
      { id: 'A', description: 'First task.' },
      { id: 'B', description: 'Second task.' },
      { id: 'C', description: 'Third task.' },
    ],
    prerequisites: [['A', 'C'], ['B', 'C']],
  });
  const [presentation] = presentationOrders(domain, 1);
  const result = await createSimulatedProvider('sim-test', { profile: testProfile({}) }).complete(request(domain, ['A', 'B'], 'P2', presentation!));
  const answer = JSON.parse(result.text) as { recommendations: Array<{ position: number; justification: string }> };
  const [pa, pb] = [presentation!.toPosition('A'), presentation!.toPosition('B')].sort((x, y) => x - y);
  assert.deepEqual(answer.recommendations.map((r) => r.position), [presentation!.toPosition('C')]);
  assert.match(answer.recommendations[0]!.justification, new RegExp(`positions ${pa} and ${pb}\\b`));
  const terminal = await createSimulatedProvider('sim-test', { profile: testProfile({}) }).complete(request(domain, ['A', 'B', 'C'], 'P0', presentation!));
  assert.deepEqual(JSON.parse(terminal.text), { recommendations: [], no_recommendation_reason: 'Every component is already mastered, so there is no next step.' });
});

test('calibration sanity: every profile is more accurate with admissible states (P3) than with descriptions only (P0)', async () => {
  for (const profile of SIMULATED_PROFILES) {
    const accuracy = { P0: 0, P3: 0 };
    for (const domain of [byId('slope'), byId('linear-modelling')]) {
      for (const presentation of presentationOrders(domain)) {
        for (const state of enumerateStates(domain)) {
          for (const condition of ['P0', 'P3'] as const) {
            const result = await createSimulatedProvider(profile.name).complete(request(domain, state, condition, presentation));
            const verdict = validate(result, condition, presentation);
            const ok =
              verdict.status === 'valid' &&
              JSON.stringify(positionsToIds(presentation, verdict.positions, domain)) === JSON.stringify(outerFringe(domain, state));
            if (ok) accuracy[condition]++;
          }
        }
      }
    }
    assert.ok(accuracy.P3 > accuracy.P0, `${profile.name}: P3 ${accuracy.P3} > P0 ${accuracy.P0}`);
    assert.ok(accuracy.P3 >= 0.9 * 68, `${profile.name}: P3 ${accuracy.P3} of 68 near the ceiling`);
  }
});
