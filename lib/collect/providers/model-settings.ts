/**
 * The settings that define a cell for one model, decided once before the run from the user's
 * per-model options (--models-file) and the model catalogue: API, token field, output cap, context
 * window, structured-output mode, schema dialect, sampling, reasoning effort, thinking. Providers
 * send exactly these and report them through `Provider.settings()`, so they go into the run
 * fingerprint and every record.
 */
import { InputError } from '../../errors';
import { lookupModel, type Catalogue } from './catalogue';
import type { ModelOptions, ThinkingSetting } from './endpoints';
import { ProviderError } from '../../provider/contract';

export interface ModelSettings {
  provider: 'openai' | 'anthropic' | 'openai-compatible';
  model: string;
  api: 'chat_completions' | 'messages';
  /** Host the requests go to. */
  host: string;
  /** Catalogue entry used (`openai:gpt-4o` for a dated snapshot), or null for an unknown model. */
  catalogue_key: string | null;
  /** The single field that carries the output allowance. */
  token_field: 'max_tokens' | 'max_completion_tokens';
  /** Largest output allowance sent (model cap from --models-file or the catalogue); null = none known. */
  output_cap: number | null;
  context_window: number | null;
  structured_output: 'json_schema_strict' | 'native_json_schema' | 'strict_tool';
  schema_dialect: 'openai' | 'gemini';
  temperature: number | null;
  top_p: number | null;
  /** OpenAI `reasoning_effort` sent, or null when not sent. */
  reasoning_effort: string | null;
  /** Anthropic `thinking` sent, or null when not sent. */
  thinking: ThinkingSetting | null;
  /** Anthropic `output_config.effort` sent, or null when not sent. */
  effort: string | null;
  /** Where the key came from (variable name), or null for the placeholder. Never the value. */
  key_variable: string | null;
}

/** The default reasoning effort sent to an OpenAI reasoning model: `medium` (the API's documented default) when accepted. */
function defaultReasoningEffort(accepted: readonly string[] | null): string | null {
  if (!accepted || accepted.length === 0) return null;
  return accepted.includes('medium') ? 'medium' : accepted[0]!;
}

/** Anthropic thinking when the user set none: disabled where allowed, else adaptive (models that only think adaptively). */
function defaultThinking(accepted: readonly string[] | null | undefined): ThinkingSetting | null {
  if (accepted === null) return null; // the model takes no thinking parameter
  if (accepted === undefined || accepted.includes('disabled')) return 'disabled';
  return accepted.includes('adaptive') ? 'adaptive' : null;
}

/** Gemini's OpenAI-compatible endpoint is recognised by host; other servers use the OpenAI dialect. */
function defaultDialect(host: string): 'openai' | 'gemini' {
  return /(^|\.)generativelanguage\.googleapis\.com(:\d+)?$/.test(host) ? 'gemini' : 'openai';
}

/**
 * Decides the settings for one model. Notes explain choices the user may want to know about
 * (catalogue misses, parameters the catalogue says the model does not take, capped allowances).
 */
export function resolveModelSettings(
  provider: 'openai' | 'anthropic' | 'openai-compatible',
  model: string,
  options: ModelOptions,
  context: { host: string; keyVariable: string | null; catalogue: Catalogue | null },
): { settings: ModelSettings; notes: string[] } {
  const notes: string[] = [];
  const spec = `${provider}:${model}`;
  const match = context.catalogue ? lookupModel(context.catalogue, spec) : null;
  const entry = match?.entry;
  if (match?.via === 'snapshot') notes.push(`${spec}: catalogue entry ${match.key} (dated snapshot of that family)`);
  const params = entry?.params.value;
  const outputCap = options.max_output_tokens ?? entry?.max_output_tokens.value ?? null;
  const contextWindow = options.context_window ?? entry?.context_window.value ?? null;

  const check = (name: 'temperature' | 'top_p', value: number | undefined) => {
    if (value !== undefined && params && params[name] === false) notes.push(`${spec}: the catalogue says this model does not accept ${name} (to check); it is sent as you asked`);
  };
  check('temperature', options.temperature);
  check('top_p', options.top_p);

  const common = {
    provider,
    model,
    host: context.host,
    catalogue_key: match?.key ?? null,
    output_cap: outputCap,
    context_window: contextWindow,
    temperature: options.temperature ?? null,
    top_p: options.top_p ?? null,
    key_variable: context.keyVariable,
  };

  if (provider === 'anthropic') {
    const thinking = options.thinking ?? defaultThinking(params ? params.thinking : undefined);
    const acceptedEffort = params?.effort ?? null;
    const effort = options.effort ?? (acceptedEffort && acceptedEffort.includes('high') ? 'high' : null);
    if (options.effort !== undefined && params && params.effort === null) notes.push(`${spec}: the catalogue says this model does not accept effort (to check); it is sent as you asked`);
    if (options.temperature !== undefined || options.top_p !== undefined) {
      throw new InputError(
        `${spec}: temperature/top_p cannot be sent — the installed Anthropic SDK's Messages parameters (@anthropic-ai/sdk 1.14) have no such fields; remove them for this model`,
        { item: spec },
      );
    }
    if (options.reasoning_effort !== undefined) notes.push(`${spec}: reasoning_effort is an OpenAI parameter and is ignored for Anthropic (use effort)`);
    return {
      settings: {
        ...common,
        api: 'messages',
        token_field: 'max_tokens',
        structured_output: options.structured_output === 'strict_tool' ? 'strict_tool' : 'native_json_schema',
        schema_dialect: 'openai',
        reasoning_effort: null,
        thinking,
        effort,
      },
      notes,
    };
  }

  const tokenField = options.token_field ?? (provider === 'openai' ? 'max_completion_tokens' : 'max_tokens');
  const reasoning = options.reasoning_effort ?? (provider === 'openai' ? defaultReasoningEffort(params?.reasoning_effort ?? null) : null);
  if (options.reasoning_effort !== undefined && params && params.reasoning_effort === null) {
    notes.push(`${spec}: the catalogue says this model takes no reasoning_effort (to check); it is sent as you asked`);
  }
  if (options.thinking !== undefined || options.effort !== undefined) notes.push(`${spec}: thinking/effort are Anthropic parameters and are ignored here (use reasoning_effort)`);
  return {
    settings: {
      ...common,
      api: 'chat_completions',
      token_field: tokenField,
      structured_output: 'json_schema_strict',
      schema_dialect: options.schema_dialect ?? defaultDialect(context.host),
      reasoning_effort: reasoning,
      thinking: null,
      effort: null,
    },
    notes,
  };
}

/**
 * The output allowance actually sent: the requested allowance, capped at the model's output cap and
 * — when the context window is known — at what the window leaves after the prompt (counted
 * conservatively at 3 characters per token). Throws a deterministic client_error ProviderError when
 * the prompt alone fills the window.
 * @example
 * const model = { provider: 'openai', model: 'm' } as const;
 * outputAllowance({ ...model, output_cap: 8192, context_window: null }, 16000, 100); // => 8192
 * outputAllowance({ ...model, output_cap: null, context_window: 8192 }, 16000, 6000); // => 6192
 * outputAllowance({ ...model, output_cap: null, context_window: 8192 }, 16000, 30000); // throws /the prompt \(~10000 tokens\) does not fit the context window of 8192/
 */
export function outputAllowance(settings: Pick<ModelSettings, 'output_cap' | 'context_window' | 'provider' | 'model'>, requested: number, promptChars: number): number {
  let allowance = requested;
  if (settings.output_cap !== null) allowance = Math.min(allowance, settings.output_cap);
  if (settings.context_window !== null) {
    const room = settings.context_window - Math.ceil(promptChars / 3);
    if (room < 1) {
      throw new ProviderError(`${settings.provider}:${settings.model}: the prompt (~${Math.ceil(promptChars / 3)} tokens) does not fit the context window of ${settings.context_window}`, 'client_error', {
        code: 'context_length_exceeded',
        deterministic: true,
        remedy: 'use a model or server with a larger context window (context_window in --models-file)',
      });
    }
    allowance = Math.min(allowance, room);
  }
  return allowance;
}
