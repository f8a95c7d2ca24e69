/**
 * Provider factory. Each back-end module (and its SDK) is required only when a model of that kind
 * is used, so loading this module stays cheap for the CLI.
 */
import { InputError } from '../../errors';
import { checkBaseUrl, requireEnvKey } from './attempt';
import { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_OPENAI_BASE_URL, PLACEHOLDER_API_KEY } from './defaults';
import { parseModelSpec, type Provider } from './types';
import type { PsiCourse } from '../../psi/schema';
import { createSimulatedProvider } from '../../simulation/kst-respondent/provider';
import { createSimulatedTutor } from '../../simulation/psi-tutor/provider';

export * from './types';
export { isQuotaExhaustion, parseRetryAfterMs, redactSecrets } from './classify';
export { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_OPENAI_BASE_URL, PLACEHOLDER_API_KEY } from './defaults';
export { createBatchClient, type BatchClient, type BatchState, type BatchStatus, type CreateBatchClientOptions } from './batch';

export interface CreateProviderOptions {
  /**
   * Redirects the SDK to another server: required for `openai-compatible` (e.g.
   * `http://localhost:11434/v1` for Ollama), optional gateway for `openai` (include `/v1`) and
   * `anthropic` (no `/v1`).
   */
  baseUrl?: string;
  /** Where API keys are read from; defaults to process.env. Keys are never read from anywhere else. */
  env?: NodeJS.ProcessEnv;
  /** The PSI course a simulated tutor (`simulated:sim-tutor-*`) answers from; without it only KST respondents are simulated. */
  psiCourse?: PsiCourse;
}


/**
 * The key for an OpenAI-compatible server: OPENAI_COMPATIBLE_API_KEY if set (so a local server need
 * not receive your real OpenAI key), else OPENAI_API_KEY, else a placeholder.
 */
function compatibleKey(env: NodeJS.ProcessEnv): string {
  for (const variable of ['OPENAI_COMPATIBLE_API_KEY', 'OPENAI_API_KEY']) {
    const value = env[variable]?.trim();
    if (value) return value;
  }
  return PLACEHOLDER_API_KEY;
}

/**
 * Builds the provider for a `provider:model` spec. Example: `createProvider('openai:gpt-4o-mini')`
 * reads OPENAI_API_KEY; `createProvider('openai-compatible:llama3.1:8b', { baseUrl:
 * 'http://localhost:11434/v1' })` talks to Ollama. Throws InputError for a bad spec, a missing key
 * (naming the variable) or a missing/invalid base URL.
 */
export function createProvider(spec: string, options: CreateProviderOptions = {}): Provider {
  const { provider, model } = parseModelSpec(spec);
  const env = options.env ?? process.env;
  const baseUrl = options.baseUrl !== undefined ? checkBaseUrl(options.baseUrl, spec) : undefined;
  switch (provider) {
    case 'openai': {
      const apiKey = requireEnvKey(env, 'OPENAI_API_KEY', spec);
      const mod: typeof import('./openai-provider') = require('./openai-provider');
      return mod.createOpenAIProvider({
        provider,
        model,
        apiKey,
        baseURL: baseUrl ?? DEFAULT_OPENAI_BASE_URL,
        organization: env['OPENAI_ORG_ID'] ?? null,
        project: env['OPENAI_PROJECT_ID'] ?? null,
      });
    }
    case 'openai-compatible': {
      if (baseUrl === undefined) {
        throw new InputError(`${spec}: an OpenAI-compatible server needs --base-url (e.g. http://localhost:11434/v1)`, { item: spec });
      }
      const mod: typeof import('./openai-provider') = require('./openai-provider');
      return mod.createOpenAIProvider({ provider, model, apiKey: compatibleKey(env), baseURL: baseUrl });
    }
    case 'anthropic': {
      const apiKey = requireEnvKey(env, 'ANTHROPIC_API_KEY', spec);
      const mod: typeof import('./anthropic-provider') = require('./anthropic-provider');
      return mod.createAnthropicProvider({ model, apiKey, baseURL: baseUrl ?? DEFAULT_ANTHROPIC_BASE_URL });
    }
    case 'simulated':
      // The simulators live in lib/simulation; the collector sees them only as Providers made here.
      if (options.psiCourse !== undefined && model.startsWith('sim-tutor-')) return createSimulatedTutor(model, { course: options.psiCourse });
      return createSimulatedProvider(model);
  }
}
