/**
 * From a model spec and its options to what will be sent: endpoint, key (by the rules in
 * endpoints.ts) and settings (model-settings.ts), plus the notes to print. Shared by the live
 * providers and the batch clients, so both send the same thing.
 */
import { InputError } from '../../errors';
import { catalogueWarnings, loadCatalogue, type Catalogue } from './catalogue';
import { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_OPENAI_BASE_URL } from './defaults';
import { checkBaseUrl, hostOf, plainHttpKeyNote, resolveApiKey, type ModelOptions } from './endpoints';
import { resolveModelSettings, type ModelSettings } from './model-settings';
import type { PsiCourse } from '../../psi/schema';
import { parseModelSpec } from '../../provider/contract';

export interface CreateProviderOptions {
  /**
   * This model's server: required for `openai-compatible` (e.g. `http://localhost:11434/v1` for
   * Ollama), optional gateway for `openai` (include `/v1`) and `anthropic` (no `/v1`). Use
   * `resolveModelTargets(...).optionsFor(spec)` to get it per model; a credential in it is refused.
   */
  baseUrl?: string;
  /** Where API keys are read from; defaults to process.env. Keys are never read from anywhere else. */
  env?: NodeJS.ProcessEnv;
  /** Per-model options (--models-file entry): key variable, token field, caps, sampling, thinking, … */
  model?: ModelOptions;
  /** Model catalogue; default the shipped config/models.json. */
  catalogue?: Catalogue;
  /**
   * A simulated KST profile answers under its name plus this suffix, which seeds its draws: a study's
   * repeat k ≥ 2 (lib/study/repeats.ts) gets an equally seeded, different draw of the same parameters.
   */
  simulatedSeedSuffix?: string;
  /** The PSI course a simulated tutor (`simulated:sim-tutor-*`) answers from; without it only KST respondents are simulated. */
  psiCourse?: PsiCourse;
  /** False when the run has several OpenAI-compatible hosts: OPENAI_COMPATIBLE_API_KEY is then sent to none (endpoints.ts). */
  sharedCompatibleKey?: false;
  /** Where a note that arises during the run goes (a followed redirect to another path: capped-fetch.ts `movedPathNote`). */
  onNote?: (note: string) => void;
}

/**
 * What a real model will be sent and why, without building a client: the settings (for the
 * fingerprint) and the notes (catalogue warnings, routing). Throws InputError for a bad spec, a
 * missing key (naming the variable), a missing/invalid base URL or a setting that cannot be sent.
 */
export function planProvider(spec: string, options: CreateProviderOptions = {}): { settings: ModelSettings; notes: string[]; apiKey: string; baseURL: string } {
  const { provider, model } = parseModelSpec(spec);
  if (provider === 'simulated') throw new InputError(`${spec}: the simulated respondent has no provider settings`, { item: spec });
  const env = options.env ?? process.env;
  const modelOptions: ModelOptions = options.model ?? { spec };
  const given = options.baseUrl ?? modelOptions.base_url;
  const baseUrl = given !== undefined ? checkBaseUrl(given, spec) : undefined;
  if (provider === 'openai-compatible' && baseUrl === undefined) {
    throw new InputError(`${spec}: an OpenAI-compatible server needs a URL (${spec}@http://…/v1, base_url in --models-file, or --base-url)`, { item: spec });
  }
  const baseURL = baseUrl ?? (provider === 'anthropic' ? DEFAULT_ANTHROPIC_BASE_URL : DEFAULT_OPENAI_BASE_URL);
  const key = resolveApiKey(provider, { ...modelOptions, spec }, env, options.sharedCompatibleKey !== false);
  const catalogue = options.catalogue ?? loadCatalogue();
  const { settings, notes } = resolveModelSettings(provider, model, modelOptions, { host: hostOf(baseURL), keyVariable: key.variable, catalogue });
  const plainHttp = plainHttpKeyNote(baseURL, key.variable, spec);
  return { settings, notes: [...catalogueWarnings(catalogue, spec), ...(plainHttp ? [plainHttp] : []), ...notes], apiKey: key.value, baseURL };
}

