/**
 * Anthropic through the official `@anthropic-ai/sdk` (Messages API, forced-tool structured output).
 * Loaded lazily by `createProvider`. One `complete` = one HTTP attempt (`maxRetries: 0`).
 */
import { Anthropic, APIConnectionError, APIConnectionTimeoutError, APIError, AnthropicError } from '@anthropic-ai/sdk';
import { abortError, providerErrorFromHttp, redactSecrets, translateRemainingError } from './classify';
import { startDeadline, validateRequest, type AttemptDeadline } from './attempt';
import { anthropicMessageBody, anthropicResult } from './anthropic-format';
import { ProviderError, type CompletionRequest, type CompletionResult, type Provider } from './types';

export interface AnthropicClientOptions {
  apiKey: string;
  /** Base URL without the version prefix, e.g. `https://api.anthropic.com`. */
  baseURL: string;
  /** Default timeout for calls that do not pass their own (batch management calls). */
  timeoutMs?: number;
}

/** The SDK client with retries, logging and telemetry off, and the key passed explicitly. */
export function createAnthropicClient(options: AnthropicClientOptions): Anthropic {
  return new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    webhookKey: null,
    maxRetries: 0,
    timeout: options.timeoutMs ?? 60_000,
    logLevel: 'off',
    openTelemetry: false,
  });
}

/** Converts anything the SDK threw into a ProviderError (or the caller's AbortError); our own bugs pass through. */
export function translateAnthropicError(err: unknown, secrets: readonly string[], deadline?: AttemptDeadline): Error {
  const label = 'anthropic';
  if (deadline?.callerAborted) return abortError();
  if (err instanceof ProviderError) return err;
  if (deadline?.timedOut || err instanceof APIConnectionTimeoutError) {
    return new ProviderError(`${label}: no complete answer within the timeout`, 'timeout');
  }
  if (err instanceof APIConnectionError) {
    const cause = (err as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? ((cause as { cause?: unknown }).cause as Error | undefined)?.message ?? cause.message : err.message;
    return new ProviderError(`${label}: connection failed (${redactSecrets(String(detail), secrets)})`, 'connection');
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    return providerErrorFromHttp(
      label,
      {
        status: err.status,
        headers: err.headers ?? null,
        code: err.errorCode ?? null,
        type: err.type ?? null,
        message: err.apiMessage ?? null,
        requestId: err.requestID ?? null,
      },
      secrets,
    );
  }
  return translateRemainingError(err, label, secrets, err instanceof AnthropicError);
}

export interface AnthropicProviderOptions extends AnthropicClientOptions {
  model: string;
}

export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const client = createAnthropicClient(options);
  const secrets = [options.apiKey];
  return {
    provider: 'anthropic',
    model: options.model,
    simulated: false,
    async complete(req: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> {
      validateRequest(req);
      if (signal?.aborted) throw abortError();
      const deadline = startDeadline(req.timeoutMs, signal);
      try {
        const { data, response, request_id } = await client.messages
          .create(anthropicMessageBody(options.model, req), {
            signal: deadline.signal,
            timeout: req.timeoutMs,
            maxRetries: 0,
          })
          .withResponse();
        return anthropicResult(data, req.schemaName, response.status, request_id ?? null);
      } catch (err) {
        throw translateAnthropicError(err, secrets, deadline);
      } finally {
        deadline.dispose();
      }
    },
  };
}
