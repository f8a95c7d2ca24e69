/**
 * OpenAI Chat Completions wire format, as pure functions (no SDK at runtime): the request body with
 * strict JSON-schema structured output, and the mapping of a completion to a CompletionResult. Shared
 * by the live provider and the Batch API helpers.
 */
import type OpenAI from 'openai';
import { providerErrorFromHttp } from './classify';
import { ProviderError, type CompletionRequest, type CompletionResult } from './types';

/**
 * Body of `POST /v1/chat/completions` for one request. Example (abridged):
 * `{ model, messages: [{role:'system',…},{role:'user',…}], response_format: { type: 'json_schema',
 * json_schema: { name, schema, strict: true } }, max_completion_tokens }`.
 * OpenAI-compatible servers (Ollama, vLLM, llama.cpp) often only know the older `max_tokens`, so
 * `legacyMaxTokens` sends both.
 */
export function openAIChatBody(model: string, req: CompletionRequest, legacyMaxTokens = false): OpenAI.ChatCompletionCreateParamsNonStreaming {
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: [
      { role: 'system', content: req.system },
      { role: 'user', content: req.user },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: { name: req.schemaName, schema: req.jsonSchema, strict: true },
    },
    max_completion_tokens: req.maxOutputTokens,
  };
  if (legacyMaxTokens) body.max_tokens = req.maxOutputTokens;
  return body;
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
  const usage = completion.usage;
  return {
    text: typeof choice.message.content === 'string' ? choice.message.content : '',
    finishReason: choice.finish_reason ?? null,
    refusal: typeof choice.message.refusal === 'string' && choice.message.refusal !== '' ? choice.message.refusal : null,
    modelVersion: typeof completion.model === 'string' ? completion.model : null,
    usage: usage ? { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 } : null,
    httpStatus,
    requestId: requestId ?? (typeof completion.id === 'string' ? completion.id : null),
  };
}

/** One request line of a Batch API input file: `custom_id` is the run ID. */
export function openAIBatchLine(model: string, req: CompletionRequest, legacyMaxTokens = false): string {
  return JSON.stringify({ custom_id: req.runId, method: 'POST', url: '/v1/chat/completions', body: openAIChatBody(model, req, legacyMaxTokens) });
}

/**
 * One line of a Batch API output or error file → its custom_id and outcome. A 200 response gives a
 * CompletionResult (HTTP status and request id from the line); another status is classified like a
 * live HTTP error (no headers, so no retry-after); a line-level error is `batch_expired` → timeout,
 * anything else (e.g. `batch_cancelled`) → server_error, since the request never ran.
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
  return {
    customId,
    outcome: new ProviderError(`openai batch item ${code}: ${message}`, code === 'batch_expired' ? 'timeout' : 'server_error', { code }),
  };
}
