/**
 * Anthropic through the official `@anthropic-ai/sdk` (Messages API, forced-tool structured output).
 * The SDK itself is loaded at first use (`anthropicSdk`). One `complete` = one HTTP attempt (`maxRetries: 0`).
 */
import type { Anthropic } from '@anthropic-ai/sdk';
import { abortError, classifyAnthropicErrorType, connectionError, isDeterministic, providerErrorFromHttp, redactSecrets, translateRemainingError, type FailureContext } from './classify';
import { DEFAULT_STREAM_IDLE_MS, startDeadline, startStreamClock, streamOverallMs, tooLargeResult, validateRequest, type AttemptDeadline, type StreamClock } from './attempt';
import { cappedFetch, tooLargeIn } from './capped-fetch';
import { withoutSdkEnv } from './sdk-env';
import { anthropicMessageBody, anthropicResult } from './anthropic-format';
import type { ModelSettings } from './model-settings';
import { settingsNotes } from './preflight';
import { ProviderError, type CompletionRequest, type CompletionResult, type Provider, type ProviderErrorInfo } from '../../provider/contract';

/**
 * The `@anthropic-ai/sdk` package, required on first use rather than imported: it is heavy, and
 * `kstbench --help` or a simulated collect never need it (test/collect/startup.test.ts checks this).
 */
export function anthropicSdk(): typeof import('@anthropic-ai/sdk') {
  onceSdkWarnings();
  return require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk');
}

/** The SDK's per-request warnings about a model (`messages.create` in node_modules/@anthropic-ai/sdk/resources/messages/messages.js). */
const SDK_MODEL_WARNING = /^(?:The model '[^']+' is deprecated|Using Claude with \S+ and 'thinking\.type=enabled' is deprecated)/;
let warningsWrapped = false;

/**
 * The Anthropic SDK calls `console.warn` on every request to a deprecated model (two lines each), and
 * offers no option to turn it off; a run of 10,000 cells would print 20,000 lines. This lets each such
 * warning through once per distinct text (so once per model) and passes every other warning unchanged.
 * The catalogue's own retirement note is printed once before the run as well.
 */
export function onceSdkWarnings(target: Pick<Console, 'warn'> = console): void {
  if (target === console && warningsWrapped) return;
  if (target === console) warningsWrapped = true;
  const original = target.warn.bind(target);
  const seen = new Set<string>();
  target.warn = (...args: unknown[]) => {
    const first = args[0];
    if (typeof first === 'string' && SDK_MODEL_WARNING.test(first)) {
      if (seen.has(first)) return;
      seen.add(first);
    }
    original(...args);
  };
}

export interface AnthropicClientOptions {
  apiKey: string;
  /** Base URL without the version prefix, e.g. `https://api.anthropic.com`. */
  baseURL: string;
  /** Default timeout for calls that do not pass their own (batch management calls). */
  timeoutMs?: number;
  /** Hears, once, of a followed same-origin redirect to another path (capped-fetch.ts). */
  onPathMoved?: (from: string, to: string) => void;
}

/** The SDK client with retries, logging and telemetry off, the key passed explicitly, and ANTHROPIC_CUSTOM_HEADERS hidden from it (sdk-env.ts). */
export function createAnthropicClient(options: AnthropicClientOptions): Anthropic {
  const AnthropicClient = anthropicSdk().Anthropic;
  return withoutSdkEnv(() => new AnthropicClient({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    webhookKey: null,
    maxRetries: 0,
    timeout: options.timeoutMs ?? 60_000,
    logLevel: 'off',
    openTelemetry: false,
    fetch: cappedFetch(undefined, undefined, options.onPathMoved),
  }));
}

/** Converts anything the SDK threw into a ProviderError (or the caller's AbortError); our own bugs pass through. */
export function translateAnthropicError(err: unknown, secrets: readonly string[], deadline?: AttemptDeadline, context: FailureContext = {}): Error {
  const label = 'anthropic';
  if (deadline?.callerAborted) return abortError();
  if (err instanceof ProviderError) return err;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, AnthropicError } = anthropicSdk();
  if (deadline?.timedOut || err instanceof APIConnectionTimeoutError) {
    return new ProviderError(`${label}: no complete answer within the timeout`, 'timeout');
  }
  if (err instanceof APIConnectionError) return connectionError(err, label, secrets);
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
      context,
    );
  }
  if (err instanceof APIError && typeof err.type === 'string') return streamErrorEvent(err.type, err.apiMessage ?? null, err.errorCode ?? null, err.requestID ?? null, secrets);
  return translateRemainingError(err, label, secrets, err instanceof AnthropicError);
}

/**
 * An `error` event inside a 200 stream: the SDK throws an APIError without a status
 * (node_modules/@anthropic-ai/sdk/core/streaming.js, `sse.event === 'error'`). Classified by its
 * type as a batch item's error is — an `overloaded_error` "would normally correspond to an HTTP 529"
 * (https://platform.claude.com/docs/en/build-with-claude/streaming#error-events) — where it used to
 * read "unreadable response" and be retried as a server error whatever it said.
 */
function streamErrorEvent(type: string, message: string | null, code: string | null, requestId: string | null, secrets: readonly string[]): ProviderError {
  const errorClass = classifyAnthropicErrorType(type, message, code);
  const info: ProviderErrorInfo = { code: code ?? type, ...(requestId ? { requestId } : {}) };
  const deterministic = isDeterministic(errorClass, undefined, undefined);
  if (deterministic !== undefined) info.deterministic = deterministic;
  return new ProviderError(`anthropic stream error ${code ?? type}${message ? `: ${redactSecrets(message, secrets)}` : ''}`, errorClass, info);
}

export interface AnthropicProviderOptions extends AnthropicClientOptions {
  model: string;
  /** What to send (thinking, effort, structured-output mode, caps); see model-settings.ts. */
  settings: ModelSettings;
  notes?: readonly string[];
}

/**
 * Whether the SDK accepts this output allowance without streaming, and with which timeout. The
 * SDK refuses a non-streaming request it expects to run past 10 minutes (60 min × max_tokens /
 * 128,000 > 10 min, i.e. max_tokens > 21,333: `calculateNonstreamingTimeout` in
 * node_modules/@anthropic-ai/sdk/client.js). Passing our own timeout would skip that guard, so we
 * ask the SDK first: if it accepts, the attempt's timeout is at most the SDK's; if not, we stream.
 */
export function nonStreamingTimeoutMs(client: Anthropic, maxTokens: number): number | null {
  try {
    return client.calculateNonstreamingTimeout(maxTokens);
  } catch (err) {
    if (err instanceof anthropicSdk().AnthropicError) return null;
    throw err;
  }
}

export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  const client = createAnthropicClient(options);
  const secrets = [options.apiKey];
  const settings = options.settings;
  const context: FailureContext = { host: settings.host, requestUrl: `${options.baseURL}/v1/messages`, ...(settings.key_variable ? { keyVariable: settings.key_variable } : {}) };
  const complete = async (req: CompletionRequest, signal?: AbortSignal): Promise<CompletionResult> => {
    validateRequest(req);
    if (signal?.aborted) throw abortError();
    const body = anthropicMessageBody(options.model, req, settings);
    const sdkTimeout = nonStreamingTimeoutMs(client, body.max_tokens);
    if (sdkTimeout === null) return streamed(req, body, signal);
    const deadline = startDeadline(req.timeoutMs, signal);
    try {
      const { data, response, request_id } = await client.messages
        .create(body, { signal: deadline.signal, timeout: Math.min(req.timeoutMs, sdkTimeout), maxRetries: 0 })
        .withResponse();
      return anthropicResult(data, schemaNameFor(req), response.status, request_id ?? null);
    } catch (err) {
      const big = tooLargeIn(err);
      if (big) return tooLargeResult(big.limitBytes);
      throw translateAnthropicError(err, secrets, deadline, context);
    } finally {
      deadline.dispose();
    }
  };
  /**
   * A streamed request (the SDK requires it above its non-streaming limit) has its own clock: an idle
   * timeout between events and an overall limit from the allowance, not `--timeout`
   * (https://platform.claude.com/docs/en/build-with-claude/streaming: long requests stream).
   */
  const streamed = async (req: CompletionRequest, body: ReturnType<typeof anthropicMessageBody>, signal?: AbortSignal): Promise<CompletionResult> => {
    const clock: StreamClock = startStreamClock(req.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS, streamOverallMs(body.max_tokens), signal);
    try {
      const stream = client.messages.stream(body, { signal: clock.signal, timeout: streamOverallMs(body.max_tokens), maxRetries: 0 });
      stream.on('streamEvent', () => clock.tick());
      const message = await stream.finalMessage();
      return anthropicResult(message, schemaNameFor(req), stream.response?.status ?? null, stream.request_id ?? null);
    } catch (err) {
      const big = tooLargeIn(err);
      if (big) return tooLargeResult(big.limitBytes);
      if (clock.timedOut) {
        const what = clock.idle ? `no stream event for ${Math.round((req.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS) / 1000)} s` : 'the stream passed its overall limit';
        throw new ProviderError(`anthropic: ${what}`, 'timeout', { started: clock.started });
      }
      const translated = translateAnthropicError(err, secrets, clock, context);
      // A stream cut before its first event never said it started: not billed, like a timeout then.
      if (translated instanceof ProviderError && translated.errorClass === 'connection' && !clock.started) {
        throw new ProviderError(translated.message, 'connection', { ...translated.info, started: false });
      }
      throw translated;
    } finally {
      clock.dispose();
    }
  };
  /** With native JSON output there is no tool; with a strict tool the answer is the tool named after the schema. */
  const schemaNameFor = (req: CompletionRequest): string | null => (settings.structured_output === 'strict_tool' ? req.schemaName : null);
  return {
    provider: 'anthropic',
    model: options.model,
    simulated: false,
    complete,
    notes: () => settingsNotes(settings, options.notes ?? []),
    settings: () => ({ ...settings, stream: 'when the SDK requires it (max_tokens above its non-streaming limit)' }),
  };
}
