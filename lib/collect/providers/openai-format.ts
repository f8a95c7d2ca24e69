/**
 * OpenAI Chat Completions wire format, as pure functions (no SDK at runtime): the request body with
 * strict JSON-schema structured output, and the mapping of a completion to a CompletionResult. Shared
 * by the live provider and the Batch API helpers.
 */
import type OpenAI from 'openai';
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
