/**
 * Provider factory. The back-end modules are imported statically; each loads its SDK only when a
 * model of that kind is used (`openAISdk`, `anthropicSdk`), so loading this module stays cheap for the CLI.
 */
import { InputError } from '../../errors';
import { createAnthropicBatchClient } from './anthropic-batch';
import { createAnthropicProvider } from './anthropic-provider';
import { checkBatchModels, type BatchClient, type CreateBatchClientOptions } from './batch';
import { createOpenAIBatchClient } from './openai-batch';
import { createOpenAIProvider } from './openai-provider';
import { planProvider, type CreateProviderOptions } from './plan';
import { movedPathNote } from './capped-fetch';
import { parseModelSpec, type Provider } from '../../provider/contract';
import type { PsiCourse } from '../../psi/schema';
import { createSimulatedProvider } from '../../simulation/kst-respondent/provider';
import { createSimulatedTutor } from '../../simulation/psi-tutor/provider';
import { findSimulatedProfile, SIMULATED_PROFILES } from '../../simulation/kst-respondent/provider';
import { TUTOR_PROFILE_IDS } from '../../simulation/psi-tutor/provider';

export * from '../../provider/contract';
export { isQuotaExhaustion, parseRateLimitResetMs, parseRetryAfterMs, parseShouldRetry, redactSecrets } from './classify';
export { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_OPENAI_BASE_URL, PLACEHOLDER_API_KEY } from './defaults';
export { batchModelRefusal, checkBatchModels, type BatchClient, type BatchState, type BatchStatus, type CreateBatchClientOptions } from './batch';
export { catalogueWarnings, loadCatalogue, lookupModel, type Catalogue } from './catalogue';
export { loadModelsFile, redactUrl, resolveModelTargets, splitSpecUrl, type ModelOptions, type ModelsFile, type ResolvedTargets } from './endpoints';
export type { ModelSettings } from './model-settings';
export { planProvider, type CreateProviderOptions } from './plan';

/**
 * Refuses, before anything runs (dry runs included), a model that cannot be built: an unknown
 * simulated profile (the known ones are listed), or an OpenAI-compatible model with no URL.
 */
export function checkModelTarget(spec: string, baseUrl: string | undefined): void {
  const { provider, model } = parseModelSpec(spec);
  if (provider === 'simulated') {
    const known = model.startsWith('sim-tutor-') ? (TUTOR_PROFILE_IDS as readonly string[]).includes(model) : findSimulatedProfile(model) !== undefined;
    if (!known) {
      const names = [...SIMULATED_PROFILES.map((p) => p.name), ...TUTOR_PROFILE_IDS].map((n) => `simulated:${n}`).join(', ');
      throw new InputError(`${spec}: no such simulated profile (known: ${names})`, { item: spec });
    }
  }
  if (provider === 'openai-compatible' && baseUrl === undefined) {
    throw new InputError(`${spec}: an OpenAI-compatible server needs a URL (${spec}@http://…/v1, base_url in --models-file, or --base-url)`, { item: spec });
  }
}

/**
 * Builds the provider for a `provider:model` spec. `createProvider('openai:gpt-5-mini')`
 * reads OPENAI_API_KEY; `createProvider('openai-compatible:llama3.1:8b', { baseUrl:
 * 'http://localhost:11434/v1' })` talks to Ollama with OPENAI_COMPATIBLE_API_KEY or a placeholder
 * (never OPENAI_API_KEY unless `model.api_key_env` names it). Throws InputError as `planProvider`.
 */
export function createProvider(spec: string, options: CreateProviderOptions = {}): Provider {
  const { provider, model } = parseModelSpec(spec);
  if (provider === 'simulated') {
    // The simulators live in lib/simulation; the collector sees them only as Providers made here.
    if (options.psiCourse !== undefined && model.startsWith('sim-tutor-')) return createSimulatedTutor(model, { course: options.psiCourse });
    const profile = options.simulatedSeedSuffix ? findSimulatedProfile(model) : undefined;
    if (profile) return createSimulatedProvider(model, { profile: { ...profile, name: `${profile.name}${options.simulatedSeedSuffix}` } });
    return createSimulatedProvider(model);
  }
  const env = options.env ?? process.env;
  const plan = planProvider(spec, options);
  const { onNote } = options;
  const moved = onNote ? { onPathMoved: (from: string, to: string) => onNote(movedPathNote(from, to)) } : {};
  switch (provider) {
    case 'openai': {
      return createOpenAIProvider({
        provider,
        model,
        apiKey: plan.apiKey,
        baseURL: plan.baseURL,
        organization: env['OPENAI_ORG_ID'] ?? null,
        project: env['OPENAI_PROJECT_ID'] ?? null,
        settings: plan.settings,
        notes: plan.notes,
        ...moved,
      });
    }
    case 'openai-compatible': {
      return createOpenAIProvider({ provider, model, apiKey: plan.apiKey, baseURL: plan.baseURL, settings: plan.settings, notes: plan.notes, ...moved });
    }
    case 'anthropic': {
      return createAnthropicProvider({ model, apiKey: plan.apiKey, baseURL: plan.baseURL, settings: plan.settings, notes: plan.notes, ...moved });
    }
  }
}

/**
 * Batch client for `openai:<model>` or `anthropic:<model>`: the same key, base URL and settings as
 * live calls (`planProvider`), and for OpenAI the organisation and project (OPENAI_ORG_ID,
 * OPENAI_PROJECT_ID) the live path passes too.
 */
export function createBatchClient(spec: string, options: CreateBatchClientOptions = {}): BatchClient {
  checkBatchModels([spec]);
  const { provider, model } = parseModelSpec(spec);
  const env = options.env ?? process.env;
  const plan = planProvider(spec, options);
  const timeoutMs = options.timeoutMs ?? 120_000;
  const common = { model, apiKey: plan.apiKey, baseURL: plan.baseURL, timeoutMs, settings: plan.settings };
  if (provider === 'openai') {
    return createOpenAIBatchClient({ ...common, organization: env['OPENAI_ORG_ID'] ?? null, project: env['OPENAI_PROJECT_ID'] ?? null });
  }
  return createAnthropicBatchClient(common);
}
