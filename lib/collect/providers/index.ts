/**
 * Provider factory. Each back-end module (and its SDK) is required only when a model of that kind
 * is used, so loading this module stays cheap for the CLI.
 */
import { planProvider, type CreateProviderOptions } from './plan';
import { parseModelSpec, type Provider } from './types';
import type { PsiCourse } from '../../psi/schema';
import { createSimulatedProvider } from '../../simulation/kst-respondent/provider';
import { createSimulatedTutor } from '../../simulation/psi-tutor/provider';

export * from './types';
export { isQuotaExhaustion, parseRateLimitResetMs, parseRetryAfterMs, parseShouldRetry, redactSecrets } from './classify';
export { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_OPENAI_BASE_URL, PLACEHOLDER_API_KEY } from './defaults';
export { createBatchClient, type BatchClient, type BatchState, type BatchStatus, type CreateBatchClientOptions } from './batch';
export { catalogueWarnings, loadCatalogue, lookupModel, type Catalogue } from './catalogue';
export { loadModelsFile, redactUrl, resolveModelTargets, splitSpecUrl, type ModelOptions, type ModelsFile, type ResolvedTargets } from './endpoints';
export type { ModelSettings } from './model-settings';
export { planProvider, type CreateProviderOptions } from './plan';

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
    return createSimulatedProvider(model);
  }
  const env = options.env ?? process.env;
  const plan = planProvider(spec, options);
  switch (provider) {
    case 'openai': {
      const mod: typeof import('./openai-provider') = require('./openai-provider');
      return mod.createOpenAIProvider({
        provider,
        model,
        apiKey: plan.apiKey,
        baseURL: plan.baseURL,
        organization: env['OPENAI_ORG_ID'] ?? null,
        project: env['OPENAI_PROJECT_ID'] ?? null,
        settings: plan.settings,
        notes: plan.notes,
      });
    }
    case 'openai-compatible': {
      const mod: typeof import('./openai-provider') = require('./openai-provider');
      return mod.createOpenAIProvider({ provider, model, apiKey: plan.apiKey, baseURL: plan.baseURL, settings: plan.settings, notes: plan.notes });
    }
    case 'anthropic': {
      const mod: typeof import('./anthropic-provider') = require('./anthropic-provider');
      return mod.createAnthropicProvider({ model, apiKey: plan.apiKey, baseURL: plan.baseURL, settings: plan.settings, notes: plan.notes });
    }
  }
}
