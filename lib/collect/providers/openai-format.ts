/**
 * OpenAI Chat Completions wire format, as pure functions (no SDK at runtime): the request body with
 * strict JSON-schema structured output, and the mapping of a completion to a CompletionResult. Shared
 * by the live provider and the Batch API helpers.
 */
import type OpenAI from 'openai';
import { batchItemNotRun, providerErrorFromHttp } from './classify';
import { outputAllowance, type ModelSettings } from './model-settings';
import { ProviderError, type CompletionRequest, type CompletionResult } from '../../provider/contract';

/** What the chat body needs from the model settings (see model-settings.ts). */
export type ChatBodySettings = Pick<ModelSettings, 'token_field' | 'schema_dialect' | 'reasoning_effort' | 'temperature' | 'top_p' | 'output_cap' | 'context_window' | 'provider' | 'model'>;

/** Settings for a model nothing is known about: OpenAI's token field, OpenAI dialect, no extras. */
export const PLAIN_OPENAI_SETTINGS: ChatBodySettings = {
  provider: 'openai',
  model: '',
  token_field: 'max_completion_tokens',
  schema_dialect: 'openai',
  reasoning_effort: null,
  temperature: null,
  top_p: null,
  output_cap: null,
  context_window: null,
};

/**
 * Body of `POST /v1/chat/completions` for one request. Example (abridged):
 * `{ model, messages: [{role:'system',…},{role:'user',…}], response_format: { type: 'json_schema',
 * json_schema: { name, schema, strict: true } }, max_completion_tokens, reasoning_effort? }`.
 * Exactly one output-token field is sent — the one this server reads (`token_field`): OpenAI's
 * reasoning models reject `max_tokens`, Ollama reads only `max_tokens`. The allowance is capped by
 * `outputAllowance` (model cap, context window). Gemini's endpoint gets the schema in its dialect.
 */
export function openAIChatBody(model: string, req: CompletionRequest, settings: ChatBodySettings = PLAIN_OPENAI_SETTINGS): OpenAI.ChatCompletionCreateParamsNonStreaming {
  const schema = settings.schema_dialect === 'gemini' ? toGeminiSchema(req.jsonSchema) : req.jsonSchema;
  const allowance = outputAllowance({ ...settings, model }, req.maxOutputTokens, req.system.length + req.user.length);
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: [
      { role: 'system', content: req.system },
      { role: 'user', content: req.user },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: req.schemaName, schema: schema as Record<string, unknown>, strict: true },
    },
  };
  if (settings.token_field === 'max_tokens') body.max_tokens = allowance;
  else body.max_completion_tokens = allowance;
  if (settings.reasoning_effort !== null) body.reasoning_effort = settings.reasoning_effort as OpenAI.ReasoningEffort;
  if (settings.temperature !== null) body.temperature = settings.temperature;
  if (settings.top_p !== null) body.top_p = settings.top_p;
  return body;
}

/**
 * A JSON schema in the dialect of Gemini's OpenAI-compatible endpoint, which rejects type arrays
 * (`"type": ["string", "null"]` → 400 "Proto field is not repeating, cannot start list"; reported
 * in Helicone/helicone#5585): each type array becomes `anyOf` with one branch per type, e.g.
 * `{type: ['string','null'], description}` → `{anyOf: [{type: 'string'}, {type: 'null'}], description}`.
 * Applied recursively; the input is not modified.
 */
export function toGeminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toGeminiSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const src = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(src)) {
    if (key === 'properties' || key === '$defs' || key === 'definitions' || key === 'patternProperties') {
      out[key] = Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, toGeminiSchema(v)]));
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not' || key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') {
      out[key] = toGeminiSchema(value);
    } else if (key !== 'type' || !Array.isArray(value)) {
      out[key] = value;
    }
  }
  const type = src['type'];
  if (Array.isArray(type)) {
    // Keywords that belong to a branch (enum, items, properties, …) stay beside anyOf only if they
    // apply to every branch; with one non-null type they move into that branch.
    const nonNull = type.filter((t) => t !== 'null');
    const branchKeys = ['enum', 'items', 'properties', 'required', 'additionalProperties', 'format', 'pattern'];
    const branchExtras: Record<string, unknown> = {};
    if (nonNull.length === 1) {
      for (const k of branchKeys) {
        if (k in out) {
          branchExtras[k] = k === 'enum' && Array.isArray(out[k]) ? (out[k] as unknown[]).filter((v) => v !== null) : out[k];
          delete out[k];
        }
      }
    }
    out['anyOf'] = type.map((t) => (t === 'null' ? { type: 'null' } : { type: t, ...(nonNull.length === 1 ? branchExtras : {}) }));
  }
  return out;
}

/**
 * Maps a chat completion to a CompletionResult. `text` is the message content ('' when absent, e.g.
 * on refusal); `finishReason` stays OpenAI's (`stop`, `length`, `content_filter`); `requestId` is
 * the `x-request-id` header, or the completion id when a compatible server sends no such header.
 * Throws a server_error ProviderError when the body has no choices (an unusable answer, worth a retry).
 */
export function openAIResult(completion: OpenAI.ChatCompletion, httpStatus: number | null, requestId: string | null): CompletionResult {
  const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
  if (!choice || typeof choice !== 'object' || !choice.message) {
    throw new ProviderError('openai: response contained no choices', 'server_error', {
      ...(httpStatus !== null ? { httpStatus } : {}),
      ...(requestId ? { requestId } : {}),
    });
  }
  // Both counts or no usage: a compatible server's `usage: {}` (or only total_tokens) says nothing of
  // what was billed, and counted as 0 tokens it priced the call at $0 instead of unknown.
  const reported = completion.usage;
  const usage = reported && typeof reported.prompt_tokens === 'number' && typeof reported.completion_tokens === 'number' ? reported : null;
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  return {
    text: typeof choice.message.content === 'string' ? choice.message.content : '',
    finishReason: choice.finish_reason ?? null,
    refusal: typeof choice.message.refusal === 'string' && choice.message.refusal !== '' ? choice.message.refusal : null,
    modelVersion: typeof completion.model === 'string' ? completion.model : null,
    usage: usage
      ? {
          inputTokens: usage.prompt_tokens,
          outputTokens: usage.completion_tokens,
          ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
          ...(typeof reasoning === 'number' ? { reasoningTokens: reasoning } : {}),
        }
      : null,
    httpStatus,
    requestId: requestId ?? (typeof completion.id === 'string' ? completion.id : null),
  };
}

/**
 * The result of a prompt a content filter refused before any answer: HTTP 400 with code
 * `content_filter` (Azure OpenAI, https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter).
 * Like `finish_reason: content_filter` it is an outcome of the cell (lib/provider/outcome.ts: recorded
 * invalid, reason content_filter), not a bad request: held as deterministic it fed the circuit
 * breaker, which failed the run, and the cell was asked again on every run. Null for any other error.
 * Usage is unknown (the body reports none), though the call is billed (`noUsageNote` in ../prices.ts).
 */
export function promptFilteredResult(status: number, code: string | null | undefined, requestId: string | null): CompletionResult | null {
  if (status !== 400 || code !== 'content_filter') return null;
  return { text: '', finishReason: 'content_filter', refusal: null, modelVersion: null, usage: null, httpStatus: status, requestId };
}

/** True for the result `promptFilteredResult` makes: a prompt the content filter refused, usage unreported. */
export function isFilteredPrompt(result: CompletionResult): boolean {
  return result.httpStatus === 400 && result.finishReason === 'content_filter' && result.usage === null;
}

/** One request line of a Batch API input file: `custom_id` is the run ID. */
export function openAIBatchLine(model: string, req: CompletionRequest, settings: ChatBodySettings = PLAIN_OPENAI_SETTINGS): string {
  return JSON.stringify({ custom_id: req.runId, method: 'POST', url: '/v1/chat/completions', body: openAIChatBody(model, req, settings) });
}

/**
 * One line of a Batch API output or error file → its custom_id and outcome. A 200 response gives a
 * CompletionResult (HTTP status and request id from the line); another status is classified like a
 * live HTTP error (no headers, so no retry-after); a line-level error means the request never ran
 * (`batchItemNotRun`: expired → timeout, cancelled → stays cancelled, anything else → server_error).
 */
export function openAIBatchLineOutcome(line: unknown, secrets: readonly string[]): { customId: string; outcome: CompletionResult | ProviderError } {
  const l = line as {
    custom_id?: unknown;
    response?: { status_code?: unknown; request_id?: unknown; body?: unknown } | null;
    error?: { code?: unknown; message?: unknown } | null;
  } | null;
  if (!l || typeof l.custom_id !== 'string') throw new ProviderError('openai: unreadable batch output line', 'server_error');
  const customId = l.custom_id;
  const response = l.response;
  if (response && typeof response.status_code === 'number') {
    const requestId = typeof response.request_id === 'string' ? response.request_id : null;
    const filtered = promptFilteredResult(response.status_code, ((response.body as { error?: { code?: unknown } } | null)?.error?.code as string | undefined) ?? null, requestId);
    if (filtered) return { customId, outcome: filtered };
    if (response.status_code >= 200 && response.status_code < 300) {
      try {
        return { customId, outcome: openAIResult(response.body as OpenAI.ChatCompletion, response.status_code, requestId) };
      } catch (err) {
        if (err instanceof ProviderError) return { customId, outcome: err };
        throw err;
      }
    }
    const error = ((response.body as { error?: Record<string, unknown> } | null)?.error ?? {}) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    return {
      customId,
      outcome: providerErrorFromHttp(
        'openai batch item',
        { status: response.status_code, code: str(error['code']), type: str(error['type']), message: str(error['message']), requestId },
        secrets,
      ),
    };
  }
  const code = typeof l.error?.code === 'string' ? l.error.code : 'batch_error';
  const message = typeof l.error?.message === 'string' ? l.error.message : '';
  return { customId, outcome: batchItemNotRun('openai', code, message) };
}
