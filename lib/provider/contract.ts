/**
 * The provider contract shared by the collector engine and the model back-ends (OpenAI, Anthropic,
 * OpenAI-compatible servers, the simulated respondent). A provider makes exactly one HTTP attempt per
 * `complete` call; retries, backoff and quota stops belong to the collector.
 */
import { InputError } from '../errors';

export type ProviderName = 'openai' | 'anthropic' | 'openai-compatible' | 'simulated';

export const PROVIDER_NAMES: readonly ProviderName[] = ['openai', 'anthropic', 'openai-compatible', 'simulated'];

/**
 * Why one attempt failed at the transport level:
 * - `rate_limit`: HTTP 429 that clears by waiting (`retryAfterMs` when the server said how long);
 * - `quota`: HTTP 429 (or a billing error) that does not clear within the run — insufficient quota,
 *   daily/monthly caps, exhausted credit;
 * - `server_error`: 5xx, 529 (overloaded), or an unreadable success response;
 * - `timeout`: no complete answer within `timeoutMs` (also HTTP 408), or a stream idle too long;
 * - `connection`: a transport fault: connection refused, reset, DNS failure, or a body cut off after
 *   its headers (undici's `TypeError: terminated`) — transient, retried with backoff;
 * - `auth`: 401/403; `client_error`: any other 4xx (bad request, unknown model, …).
 */
export type TransportErrorClass =
  | 'rate_limit'
  | 'quota'
  | 'server_error'
  | 'timeout'
  | 'connection'
  | 'client_error'
  | 'auth';

export interface ProviderErrorInfo {
  httpStatus?: number;
  retryAfterMs?: number;
  /** Provider error code or type, e.g. `insufficient_quota`, `overloaded_error`. */
  code?: string;
  requestId?: string;
  /** The request parameter the provider blamed (OpenAI `error.param`, e.g. `max_tokens`, `model`). */
  param?: string;
  /** One-line fix for the user, e.g. "lower --max-output-tokens to at most 16384 for this model". */
  remedy?: string;
  /**
   * True when sending the same request again cannot succeed (unknown model, unsupported parameter,
   * a cap exceeded, bad key, spend limit, `x-should-retry: false`); false when the server said it is
   * worth retrying (`x-should-retry: true`). Absent when neither is known.
   */
  deterministic?: boolean;
  /** The server's `x-should-retry` header, when sent. */
  shouldRetry?: boolean;
  /**
   * For a timeout: whether the server said it had started (response headers or a stream's
   * `message_start` arrived). False = nothing was started, so nothing is billed. Absent = unknown.
   */
  started?: boolean;
}

/**
 * One failed attempt, classified. The message never contains request headers or API keys (provider
 * messages are scrubbed of key-like tokens), and no SDK error is attached as `cause`, so the object is
 * safe to serialise into the audit log (`toJSON` gives `{ name, message, errorClass, info }`).
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly errorClass: TransportErrorClass,
    readonly info: ProviderErrorInfo = {},
  ) {
    super(message);
  }

  toJSON(): { name: string; message: string; errorClass: TransportErrorClass; info: ProviderErrorInfo } {
    return { name: this.name, message: this.message, errorClass: this.errorClass, info: { ...this.info } };
  }
}

export interface CompletionRequest {
  /** The collector's run ID; also the `custom_id` of a batch request. */
  runId: string;
  system: string;
  user: string;
  /** Name of the structured-output schema (OpenAI `json_schema.name`, Anthropic tool name): [A-Za-z0-9_-]{1,64}. */
  schemaName: string;
  /** JSON Schema of the answer object (top-level `type: "object"`). */
  jsonSchema: Record<string, unknown>;
  maxOutputTokens: number;
  /** Deadline for the whole attempt (headers and body), in milliseconds; a streamed request has its own clock instead. */
  timeoutMs: number;
  /** A streamed request: the longest silence between two events (default 2 min). */
  streamIdleMs?: number;
  /** Extra input for the simulated provider only; real providers ignore it. */
  context?: unknown;
}

export interface CompletionResult {
  /** The answer as text: OpenAI message content, or Anthropic's forced-tool input serialised as JSON. */
  text: string;
  /** Provider's own reason, unchanged: OpenAI `finish_reason` (`stop`, `length`, …), Anthropic `stop_reason` (`tool_use`, `max_tokens`, `refusal`, …). */
  finishReason: string | null;
  /** Refusal text when the model declined (OpenAI `message.refusal`; Anthropic `stop_reason: "refusal"`). */
  refusal: string | null;
  /** The model version the provider reports having used (the response's `model` field). */
  modelVersion: string | null;
  /**
   * Token counts as the provider reported them. `inputTokens` includes cached input;
   * `cachedInputTokens` is the part read from the prompt cache (OpenAI
   * `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`), billed at the cached
   * rate. `reasoningTokens` is the part of `outputTokens` spent on hidden reasoning (OpenAI
   * `completion_tokens_details.reasoning_tokens`, Anthropic `output_tokens_details.thinking_tokens`).
   */
  usage: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; reasoningTokens?: number } | null;
  httpStatus: number | null;
  requestId: string | null;
  /** Set when the body passed the collector's cap and was not read (`text` is then empty): recorded invalid. */
  tooLarge?: { limitBytes: number };
}

export interface Provider {
  readonly provider: ProviderName;
  readonly model: string;
  readonly simulated: boolean;
  /** One attempt. Throws ProviderError on transport failure; an AbortError (name 'AbortError') when `signal` aborts. */
  complete(req: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult>;
  /**
   * Lines to print before the run (what is sent to this model, catalogue notes such as a
   * deprecation); offline, no request. The pre-flight itself is the model's first real cell
   * (lib/collect/preflight.ts).
   */
  notes?(): string[];
  /**
   * The settings that define a cell, as sent: API, token field, output cap, sampling, reasoning
   * effort, thinking, structured-output mode, schema dialect, endpoint host. Plain JSON; goes into
   * the run fingerprint and every record.
   */
  settings?(): Record<string, unknown>;
}

/**
 * Parses `provider:model`, e.g. `openai:gpt-4o-2024-08-06`, `anthropic:claude-sonnet-4-5`,
 * `openai-compatible:llama3.1:8b` (everything after the first colon is the model, so Ollama tags with
 * colons survive), `simulated:sim-a`. Throws InputError naming the spec when malformed.
 */
export function parseModelSpec(spec: string): { provider: ProviderName; model: string } {
  const colon = spec.indexOf(':');
  if (colon <= 0 || colon === spec.length - 1) {
    throw new InputError(
      `model spec ${JSON.stringify(spec)} must be "provider:model" with provider one of ${PROVIDER_NAMES.join(', ')}`,
      { item: spec },
    );
  }
  const provider = spec.slice(0, colon);
  const model = spec.slice(colon + 1);
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new InputError(
      `model spec ${JSON.stringify(spec)}: unknown provider ${JSON.stringify(provider)} (expected one of ${PROVIDER_NAMES.join(', ')})`,
      { item: spec },
    );
  }
  if (model.trim() !== model || /\s/.test(model)) {
    throw new InputError(`model spec ${JSON.stringify(spec)}: model name must not contain whitespace`, { item: spec });
  }
  return { provider: provider as ProviderName, model };
}
