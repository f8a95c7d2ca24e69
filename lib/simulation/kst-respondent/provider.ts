import { InputError } from '../../errors';
import { isCondition } from '../../conditions';
import type { Domain, Presentation } from '../../kst';
import { decide, type SimulationInput } from './behaviour';
import { renderAnswer } from './render';
import {
  SIMULATED_PROFILES,
  SIMULATED_VERSION,
  findSimulatedProfile,
  type SimulatedInvalidKind,
  type SimulatedProfile,
} from './profiles';
import { ProviderError, type CompletionRequest, type CompletionResult, type Provider } from '../../provider/contract';

/**
 * The simulated respondent: an offline provider (`simulated:sim-a` … `simulated:sim-f`) whose answers
 * come from a behavioural model of a respondent (belief about the prerequisite relation, slips, rare
 * invalid outputs; see README.md), never from a network. It is used exactly like a real provider:
 * `complete` returns JSON text in the response schema, which the collector validates and records.
 *
 * It needs the cell in `req.context` as `{ domain, state, condition, presentation }` (the collector
 * passes it); the prompt text itself is not parsed. Output is a pure function of (profile, domain,
 * state, condition, presentation order): no clock, no Math.random.
 *
 * Usage is estimated from text lengths with the collector's rule of thumb, tokens ≈ ⌈characters / 4⌉:
 * inputTokens = ⌈(system + user).length / 4⌉, outputTokens = ⌈answer text length / 4⌉.
 */

export * from './profiles';
export { decide, cellSeed, pickInvalidKind } from './behaviour';
export type { SimulationInput, SimulatedDecision, Recommendation, DecideOptions } from './behaviour';
export { drawBelief } from './belief';
export type { Belief } from './belief';
export { renderAnswer, renderInvalid, answerObject, justification, SIMULATED_REFUSAL } from './render';

export interface SimulatedProviderOptions {
  /** Use this profile instead of the table entry (tests, calibration); its name must still start with `sim-`. */
  profile?: SimulatedProfile;
  /** Render every answer as this invalid kind (tests and demonstrations). */
  forceInvalid?: SimulatedInvalidKind;
}

/** Token estimate used for simulated usage: ⌈characters / 4⌉. */
function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Builds the provider for `model` (a profile name such as `sim-a`). InputError for an unknown name,
 * listing the available profiles.
 */
export function createSimulatedProvider(model: string, options: SimulatedProviderOptions = {}): Provider {
  const profile = options.profile ?? findSimulatedProfile(model);
  if (!profile) {
    throw new InputError(
      `simulated:${model}: unknown simulated profile (available: ${SIMULATED_PROFILES.map((p) => p.name).join(', ')})` +
        (model.startsWith('sim-tutor-') ? '; sim-tutor-* are the simulated PSI tutors, used by `kstbench psi collect`' : ''),
      { item: `simulated:${model}` },
    );
  }
  if (!profile.name.startsWith('sim-')) {
    throw new InputError(`simulated profile name "${profile.name}" must start with "sim-"`, { item: profile.name });
  }
  return {
    provider: 'simulated',
    model: profile.name,
    simulated: true,
    async complete(req: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> {
      if (signal?.aborted) {
        const abort = new Error('simulated call aborted');
        abort.name = 'AbortError';
        throw abort;
      }
      const input = simulationInput(req);
      const decision = decide(profile, input, options.forceInvalid ? { forceInvalid: options.forceInvalid } : {});
      const answer = renderAnswer(decision, input.presentation);
      return {
        text: answer.text,
        finishReason: answer.finishReason,
        refusal: answer.refusal,
        modelVersion: `${profile.name}@${SIMULATED_VERSION}`,
        usage: { inputTokens: tokens(req.system + req.user), outputTokens: tokens(answer.text) },
        httpStatus: null,
        requestId: null,
      };
    },
  };
}

/** Checks the shape of `req.context`; a ProviderError (client_error, like an HTTP 400) names what is wrong. */
function simulationInput(req: CompletionRequest): SimulationInput {
  const ctx = req.context as Partial<{ domain: Domain; state: string[]; condition: string; presentation: Presentation }> | undefined;
  const fail = (what: string): never => {
    throw new ProviderError(
      `simulated provider, run ${req.runId}: request context ${what}; expected { domain, state, condition, presentation } as passed by the KST collector`,
      'client_error',
    );
  };
  if (ctx === null || typeof ctx !== 'object') return fail('is missing');
  const { domain, state, condition, presentation } = ctx;
  if (!domain || !Array.isArray(domain.ids) || !(domain.index instanceof Map)) return fail('has no valid domain');
  if (!Array.isArray(state) || state.some((id) => typeof id !== 'string' || !domain.index.has(id))) {
    return fail(`has a state that is not a list of ${domain.id} component IDs`);
  }
  if (!isCondition(condition)) return fail(`has an unknown condition ${JSON.stringify(condition)}`);
  if (!presentation || !Array.isArray(presentation.positions) || typeof presentation.toPosition !== 'function') {
    return fail('has no valid presentation');
  }
  if (presentation.domain !== domain.id) return fail(`presents domain ${presentation.domain}, not ${domain.id}`);
  return { domain, state, condition, presentation };
}
