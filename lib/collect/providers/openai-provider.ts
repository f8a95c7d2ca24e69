/**
 * OpenAI (and OpenAI-compatible servers) through the official `openai` SDK. The SDK itself is
 * loaded at first use (`openAISdk`), so importing this module costs nothing until such a model is used.
 *
 * One `complete` = one HTTP attempt: the client is built with `maxRetries: 0` (the collector owns
 * retries) and per-request `timeout` = `req.timeoutMs`, plus our own deadline over the body.
 */
import type { OpenAI } from 'openai';
import { abortError, connectionError, providerErrorFromHttp, translateRemainingError, type FailureContext } from './classify';
import { startDeadline, validateRequest, tooLargeResult, type AttemptDeadline } from './attempt';
import { cappedFetch, tooLargeIn } from './capped-fetch';
import { withoutSdkEnv } from './sdk-env';
import { openAIChatBody, openAIResult, promptFilteredResult } from './openai-format';
import type { ModelSettings } from './model-settings';
import { settingsNotes } from './preflight';
import { ProviderError, type CompletionRequest, type CompletionResult, type Provider } from '../../provider/contract';

/**
 * The `openai` package, required on first use rather than imported: it is heavy, and `kstbench --help`,
 * `kstbench fringe` or a simulated collect never need it (test/collect/startup.test.ts checks this).
 */
export function openAISdk(): typeof import('openai') {
  return require('openai') as typeof import('openai');
}

export interface OpenAIClientOptions {
  apiKey: string;
  /** SDK base URL including the version prefix, e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseURL: string;
  /** Default timeout for calls that do not pass their own (batch management calls). */
  timeoutMs?: number;
  organization?: string | null;
  project?: string | null;
  /** Hears, once, of a followed same-origin redirect to another path (capped-fetch.ts). */
  onPathMoved?: (from: string, to: string) => void;
}

/**
 * The SDK client with retries off and logging off (so no request details reach stdout); every value
 * is passed explicitly so the SDK does not read OPENAI_* variables behind our back, and the one it
 * reads anyway (OPENAI_CUSTOM_HEADERS) is hidden from it (sdk-env.ts).
 */
export function createOpenAIClient(options: OpenAIClientOptions): OpenAI {
  const OpenAIClient = openAISdk().OpenAI;
  return withoutSdkEnv(() => new OpenAIClient({
    apiKey: options.apiKey,
    // Else read from OPENAI_ADMIN_KEY (node_modules/openai/client.js); not sent on the calls we make, but not ours to read.
    adminAPIKey: null,
    baseURL: options.baseURL,
    organization: options.organization ?? null,
    project: options.project ?? null,
    webhookSecret: null,
    maxRetries: 0,
    timeout: options.timeoutMs ?? 60_000,
    logLevel: 'off',
    fetch: cappedFetch(undefined, undefined, options.onPathMoved),
  }));
}

/**
 * Converts anything the SDK threw into a ProviderError (or the caller's AbortError). Errors that are
 * not the SDK's (bugs in our code) are rethrown untouched.
 */
export function translateOpenAIError(err: unknown, label: string, secrets: readonly string[], deadline?: AttemptDeadline, context: FailureContext = {}): Error {
  if (deadline?.callerAborted) return abortError();
  if (err instanceof ProviderError) return err;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, OpenAIError } = openAISdk();
  if (deadline?.timedOut || err instanceof APIConnectionTimeoutError) {
    return new ProviderError(`${label}: no complete answer within the timeout`, 'timeout');
  }
  if (err instanceof APIConnectionError) return connectionError(err, label, secrets);
  if (err instanceof APIError && typeof err.status === 'number') {
    const body = (err.error ?? {}) as { message?: unknown };
    return providerErrorFromHttp(
      label,
      {
        status: err.status,
        headers: err.headers ?? null,
        code: typeof err.code === 'string' ? err.code : null,
        type: typeof err.type === 'string' ? err.type : null,
        param: typeof err.param === 'string' ? err.param : null,
        message: typeof body.message === 'string' ? body.message : null,
        requestId: err.requestID ?? null,
      },
      secrets,
      context,
    );
  }
  return translateRemainingError(err, label, secrets, err instanceof OpenAIError);
}

export interface OpenAIProviderOptions extends OpenAIClientOptions {
  provider: 'openai' | 'openai-compatible';
  model: string;
  /** What to send (token field, caps, dialect, reasoning effort, sampling); see model-settings.ts. */
  settings: ModelSettings;
  /** Lines the pre-flight prints first (catalogue notes). */
  notes?: readonly string[];
}

/** A live provider for Chat Completions with strict JSON-schema output. */
export function createOpenAIProvider(options: OpenAIProviderOptions): Provider {
  const client = createOpenAIClient(options);
  const secrets = [options.apiKey];
  const label = options.provider;
  const settings = options.settings;
  const context: FailureContext = { host: settings.host, requestUrl: `${options.baseURL}/chat/completions`, ...(settings.key_variable ? { keyVariable: settings.key_variable } : {}) };
  const complete = async (req: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> => {
    validateRequest(req);
    if (signal?.aborted) throw abortError();
    const body = openAIChatBody(options.model, req, settings);
    const deadline = startDeadline(req.timeoutMs, signal);
    try {
      const { data, response, request_id } = await client.chat.completions
        .create(body, { signal: deadline.signal, timeout: req.timeoutMs, maxRetries: 0 })
        .withResponse();
      return openAIResult(data, response.status, request_id ?? null);
    } catch (err) {
      const big = tooLargeIn(err);
      if (big) return tooLargeResult(big.limitBytes);
      const filtered = err instanceof openAISdk().APIError && typeof err.status === 'number' ? promptFilteredResult(err.status, typeof err.code === 'string' ? err.code : null, err.requestID ?? null) : null;
      if (filtered && !deadline.callerAborted) return filtered;
      throw translateOpenAIError(err, label, secrets, deadline, context);
    } finally {
      deadline.dispose();
    }
  };
  return {
    provider: options.provider,
    model: options.model,
    simulated: false,
    complete,
    notes: () => settingsNotes(settings, options.notes ?? []),
    settings: () => ({ ...settings }),
  };
}
