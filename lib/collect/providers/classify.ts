/**
 * Turning provider failures into ProviderError classes. Pure functions over plain facts (status,
 * headers, error code/type/message), so both SDK adapters and the batch result parsers share them and
 * they are testable without HTTP.
 */
import { ProviderError, type ProviderErrorInfo, type TransportErrorClass } from '../../provider/contract';
import { maskUserInfo, redactUrl } from './endpoints';
import { bodyCutOffIn, MAX_SAME_ORIGIN_HOPS, sameOriginHopTarget } from './capped-fetch';

/** Minimal header reader (a fetch `Headers` fits). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What we know about one failed HTTP answer. */
export interface HttpFailure {
  status: number;
  headers?: HeaderReader | null;
  /** Provider error code (OpenAI `error.code`, Anthropic `error.details.error_code`). */
  code?: string | null;
  /** Provider error type (OpenAI `error.type`, Anthropic `error.type`, e.g. `rate_limit_error`). */
  type?: string | null;
  /** The parameter the provider blamed (OpenAI `error.param`). */
  param?: string | null;
  /** Provider's human-readable message (scrubbed before use). */
  message?: string | null;
  requestId?: string | null;
}

/** What the remedy text may mention about the failing call. */
export interface FailureContext {
  /** Environment variable the key came from, e.g. `OPENAI_API_KEY`. */
  keyVariable?: string;
  /** Host the request went to, e.g. `api.openai.com`. */
  host?: string;
  /** The endpoint the request went to (`https://gw/v1/chat/completions`): a relative `Location` is read against it. */
  requestUrl?: string;
}

/** Stands in for the request's address when it is unknown, so a relative `Location` is still parsed (and its query masked). */
const UNKNOWN_ORIGIN = 'http://request.invalid';

/**
 * Where a redirect points, safe to show or store: a relative `Location` (`/v2/chat?sig=…`) is resolved
 * against the request URL first, so the one redaction (`redactUrl`) sees a whole URL and masks its
 * credentials as it does an absolute one's. Without the request URL the relative form is kept.
 * @example
 * redirectTarget('/v2/chat/completions?sig=abc', 'https://gw.example/v1/chat/completions'); // => 'https://gw.example/v2/chat/completions?sig=[redacted]'
 * redirectTarget('/v2/chat/completions?sig=abc'); // => '/v2/chat/completions?sig=[redacted]'
 */
export function redirectTarget(location: string, requestUrl?: string): string {
  let resolved: string;
  try {
    resolved = new URL(location, requestUrl ?? `${UNKNOWN_ORIGIN}/`).toString();
  } catch {
    return redactUrl(location);
  }
  const shown = redactUrl(resolved);
  return requestUrl === undefined && shown.startsWith(`${UNKNOWN_ORIGIN}/`) ? shown.slice(UNKNOWN_ORIGIN.length) : shown;
}

function finiteNumber(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Wait requested by the server, in ms: `retry-after-ms` (milliseconds, OpenAI) wins over
 * `retry-after` (seconds, or an HTTP date). Undefined when absent or unparseable; never negative.
 * @example
 * const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });
 * parseRetryAfterMs(headers({ 'retry-after': '2.5' })); // => 2500
 * parseRetryAfterMs(headers({ 'retry-after': '2', 'retry-after-ms': '700' })); // => 700
 * parseRetryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 1970 00:00:10 GMT' }), 4000); // => 6000
 * parseRetryAfterMs(headers({})); // => undefined
 */
export function parseRetryAfterMs(headers: HeaderReader | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = finiteNumber(headers.get('retry-after-ms'));
  if (ms !== undefined) return Math.max(0, ms);
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = finiteNumber(after);
  if (seconds !== undefined) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * OpenAI's reset durations (`x-ratelimit-reset-requests: 1s`, `6m0s`, `20ms`, `1h2m3.5s`) in ms;
 * undefined when the text is not such a duration.
 */
export function parseResetDurationMs(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined;
  const t = text.trim();
  const m = t.match(/^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$/);
  if (!m || t === '') return undefined;
  const [, h, min, s, ms] = m;
  return Math.round((Number(h ?? 0) * 3600 + Number(min ?? 0) * 60 + Number(s ?? 0)) * 1000 + Number(ms ?? 0));
}

const OPENAI_RESETS = [
  ['x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'],
  ['x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'],
] as const;
const ANTHROPIC_RESETS = [
  ['anthropic-ratelimit-requests-remaining', 'anthropic-ratelimit-requests-reset'],
  ['anthropic-ratelimit-tokens-remaining', 'anthropic-ratelimit-tokens-reset'],
  ['anthropic-ratelimit-input-tokens-remaining', 'anthropic-ratelimit-input-tokens-reset'],
  ['anthropic-ratelimit-output-tokens-remaining', 'anthropic-ratelimit-output-tokens-reset'],
] as const;

/**
 * Wait until the exhausted rate-limit window resets, from the rate-limit headers of a 429: OpenAI
 * `x-ratelimit-reset-{requests,tokens}` (durations) and Anthropic `anthropic-ratelimit-*-reset`
 * (RFC 3339 times). Windows whose `remaining` is 0 count; when no header says which window is
 * exhausted, the longest reset counts. Undefined when no reset header is present.
 */
export function parseRateLimitResetMs(headers: HeaderReader | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const exhausted: number[] = [];
  const all: number[] = [];
  for (const [remaining, reset] of OPENAI_RESETS) {
    const ms = parseResetDurationMs(headers.get(reset));
    if (ms === undefined) continue;
    all.push(ms);
    if (finiteNumber(headers.get(remaining)) === 0) exhausted.push(ms);
  }
  for (const [remaining, reset] of ANTHROPIC_RESETS) {
    const text = headers.get(reset);
    if (text === null) continue;
    const at = Date.parse(text);
    if (Number.isNaN(at)) continue;
    const ms = Math.max(0, at - nowMs);
    all.push(ms);
    if (finiteNumber(headers.get(remaining)) === 0) exhausted.push(ms);
  }
  const pick = exhausted.length > 0 ? exhausted : all;
  return pick.length > 0 ? Math.max(...pick) : undefined;
}

/** The server's `x-should-retry` header (both SDKs honour it): true, false, or undefined when absent. */
export function parseShouldRetry(headers: HeaderReader | null | undefined): boolean | undefined {
  const v = headers?.get('x-should-retry')?.trim().toLowerCase();
  return v === 'true' ? true : v === 'false' ? false : undefined;
}

/**
 * Error codes and types that mean the account cannot continue until someone acts (money, not
 * speed). Decided from codes and types only, never from the wording of a message:
 * - OpenAI `insufficient_quota` (429; https://platform.openai.com/docs/guides/error-codes);
 * - Anthropic type `billing_error` (402), and `error.details.error_code`
 *   `enforced_spend_limit_reached` / `contract_spend_limit_reached` (429) and
 *   `linked_organization_spend_limit_reached` (402) — node_modules/@anthropic-ai/sdk/core/error-classes.js;
 * - `quota_exceeded` (gateways).
 * Anthropic's `ramp_limit_exceeded` (429) is a rate limit: retry after `retry-after`.
 */
export const QUOTA_CODES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'billing_error',
  'enforced_spend_limit_reached',
  'contract_spend_limit_reached',
  'linked_organization_spend_limit_reached',
  'quota_exceeded',
]);

/**
 * True when a failure means the account cannot continue soon (the run must stop, not back off). By
 * code and type only, never by the wording, so a rate limit whose message mentions billing stays a
 * rate limit.
 */
export function isQuotaExhaustion(code?: string | null, type?: string | null): boolean {
  return [code, type].some((t) => typeof t === 'string' && QUOTA_CODES.has(t.toLowerCase()));
}

/**
 * Anthropic's spend-limit and credit 400s carry no code: the body is only `invalid_request_error`
 * with a fixed sentence (e.g. `{"type":"error","error":{"type":"invalid_request_error","message":"You
 * have reached your specified workspace API usage limits. You will regain access on 2026-06-01 at
 * 00:00 UTC."}}`, anthropics/claude-code#55998; "Your credit balance is too low to access the
 * Anthropic API…"). The opening of those sentences is therefore the only signal; it is anchored at
 * the start and applies to HTTP 400 `invalid_request_error` only. Quota versus rate limit (429) is
 * never decided this way.
 */
const ANTHROPIC_MONEY_400 = /^(?:You have reached your specified (?:workspace )?API usage limits|Your credit balance is too low)/;

export function isAnthropicSpendLimit400(status: number, type?: string | null, message?: string | null): boolean {
  return status === 400 && type === 'invalid_request_error' && typeof message === 'string' && ANTHROPIC_MONEY_400.test(message.trim());
}

/** Maps an HTTP status (plus code/type, and for Anthropic's code-less 400s the message) to a transport error class. */
export function classifyStatus(status: number, code?: string | null, type?: string | null, message?: string | null): TransportErrorClass {
  if (status === 429) return isQuotaExhaustion(code, type) ? 'quota' : 'rate_limit';
  if (status === 402) return 'quota';
  if (status >= 400 && status < 500 && (isQuotaExhaustion(code, type) || isAnthropicSpendLimit400(status, type, message))) return 'quota';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server_error'; // includes Anthropic's 529 overloaded
  return 'client_error';
}

const TOKEN_PARAMS = new Set(['max_tokens', 'max_completion_tokens', 'max_output_tokens']);
const SAMPLING_PARAMS = new Set(['temperature', 'top_p', 'top_k', 'reasoning_effort', 'thinking', 'output_config', 'effort']);

/**
 * A one-line fix for a classified failure, from its code, type and blamed parameter. Examples:
 * 429 `insufficient_quota` → add credit; 400 param `max_tokens` `unsupported_parameter` → set
 * `token_field: max_completion_tokens`; 404 `model_not_found` → check the model name.
 */
export function remedyFor(errorClass: TransportErrorClass, failure: HttpFailure, context: FailureContext = {}): string | undefined {
  const code = (failure.code ?? '').toLowerCase();
  const type = (failure.type ?? '').toLowerCase();
  const param = failure.param ?? '';
  const key = context.keyVariable ?? 'the API key variable';
  switch (errorClass) {
    case 'quota':
      if (code === 'enforced_spend_limit_reached') return "the organisation reached its usage tier's monthly spend cap: usage resumes at 00:00 UTC on the 1st of next month or after moving to a higher tier; then re-run the same command to resume";
      if (code === 'contract_spend_limit_reached') return 'the organisation reached its contract spend limit: have the contract limit raised, then re-run the same command to resume';
      if (type === 'invalid_request_error') return 'raise or remove the spend limit (or buy credit) in the Anthropic Console, or wait for the date in the message; then re-run the same command to resume';
      return "add credit or raise the budget on the provider's billing page, then re-run the same command to resume";
    case 'auth':
      return `the key in ${key} was refused${context.host ? ` by ${context.host}` : ''}: check that it is current, belongs to this provider and may use this model`;
    case 'rate_limit':
      return 'wait and retry (the run backs off by itself); lower --concurrency if this persists';
    case 'client_error':
      break;
    default:
      return undefined;
  }
  if (failure.status >= 300 && failure.status < 400) {
    // A same-origin 307/308 that comes back is one capped-fetch.ts followed until its hop limit: a loop.
    const location = failure.headers?.get('location');
    if (context.requestUrl !== undefined && sameOriginHopTarget(failure.status, location, context.requestUrl) !== null) {
      return `the server kept redirecting on its own origin (followed ${MAX_SAME_ORIGIN_HOPS} times, then given up): fix the gateway's redirect loop, or give the address it should settle on as the base URL`;
    }
    // The Location of a model call is a whole endpoint; the SDK appends the endpoint path to the base URL again.
    return 'the server answered with a redirect, which is not followed (the key goes only to the address you gave): give the address it redirects to as the base URL without its endpoint path (/chat/completions, /v1/messages), or fix the gateway';
  }
  if (failure.status === 404 || code === 'model_not_found' || param === 'model' || type === 'not_found_error') {
    return 'the server does not serve this model on Chat Completions/Messages: check the name against config/models.json or the provider\'s model list (it may be retired, or served by the Responses API only)';
  }
  if (code === 'context_length_exceeded') return 'prompt plus output allowance exceed the context window: lower --max-output-tokens, or set context_window for this model in --models-file';
  if (TOKEN_PARAMS.has(param)) {
    if (code === 'unsupported_parameter') {
      const other = param === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
      return `this server does not read ${param}: set "token_field": "${other}" for this model in --models-file`;
    }
    return "the output allowance is above this model's cap: lower --max-output-tokens, or set max_output_tokens for this model in --models-file";
  }
  if (SAMPLING_PARAMS.has(param) || code === 'unsupported_parameter' || code === 'unsupported_value') {
    return `the model does not accept ${param || 'a parameter that was sent'}: remove or change it for this model in --models-file`;
  }
  if (failure.status === 409) return undefined;
  return 'the server rejected the request itself (see the message): the same request will fail again until the request or its settings change';
}

/**
 * True when the same request cannot succeed by retrying: a client error (other than 408, and a 409
 * unless the server said `x-should-retry: false`), an auth failure or a quota/spend limit — unless the
 * server said `x-should-retry: true` (then false). Undefined otherwise (transient classes, whatever
 * `x-should-retry` says).
 */
export function isDeterministic(errorClass: TransportErrorClass, status: number | undefined, shouldRetry: boolean | undefined): boolean | undefined {
  // `x-should-retry: false` says "do not retry now", not "this request can never succeed": the
  // collector does not retry it (lib/collect/decide.ts) but the breaker does not count a 429 or 5xx.
  if (shouldRetry === true) return false;
  if (errorClass === 'auth' || errorClass === 'quota') return true;
  // A 409 is retryable (a lock timeout; both SDKs retry it) unless the server says not to: then it is
  // held like any client error (kept pending for the next run, counted by the breaker), not ended
  // `missing` after one attempt, which a paying user would have to ask for again by hand.
  if (errorClass === 'client_error') return status !== 409 || shouldRetry === false;
  return undefined;
}

/**
 * Anthropic error types (as in batch `errored` results, which carry no HTTP status) to classes.
 * Unknown types count as server errors (transient) rather than being dropped.
 */
export function classifyAnthropicErrorType(type: string | null | undefined, message?: string | null, code?: string | null): TransportErrorClass {
  if (isQuotaExhaustion(code, type)) return 'quota';
  switch (type) {
    case 'rate_limit_error':
      return 'rate_limit';
    case 'billing_error':
      return 'quota';
    case 'authentication_error':
    case 'permission_error':
      return 'auth';
    case 'invalid_request_error':
    case 'not_found_error':
    case 'request_too_large':
      return type === 'invalid_request_error' && isAnthropicSpendLimit400(400, type, message) ? 'quota' : 'client_error';
    case 'timeout_error':
      return 'timeout';
    default:
      return 'server_error'; // api_error, overloaded_error, anything new
  }
}

const KEY_LIKE = /\b(?:sk|pk|rk|key)-[A-Za-z0-9_\-*]{6,}/g;

/**
 * Removes secrets from text that may be shown or stored: every occurrence of the given secrets, any
 * key-shaped token (`sk-…`, as in OpenAI's "Incorrect API key provided: sk-pro****abcd"), and the
 * user info of any URL quoted in it (`//user:pw@`).
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return maskUserInfo(out.replace(KEY_LIKE, '[redacted]'));
}

/**
 * Builds the ProviderError for one failed HTTP answer; the message is
 * `<provider> HTTP <status> <code/type>: <message>`. `info` carries the wait the server asked for
 * (`retry-after-ms`, `retry-after`, else — for a 429 — the exhausted `x-ratelimit-reset-*` /
 * `anthropic-ratelimit-*-reset` window), `x-should-retry`, whether a retry can help, and a remedy.
 */
export function providerErrorFromHttp(provider: string, failure: HttpFailure, secrets: readonly string[], context: FailureContext = {}): ProviderError {
  const errorClass = classifyStatus(failure.status, failure.code, failure.type, failure.message);
  const info: ProviderErrorInfo = { httpStatus: failure.status };
  const retryAfterMs = parseRetryAfterMs(failure.headers) ?? (failure.status === 429 ? parseRateLimitResetMs(failure.headers) : undefined);
  if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs;
  const code = failure.code ?? failure.type;
  if (code) info.code = code;
  if (failure.requestId) info.requestId = failure.requestId;
  if (failure.param) info.param = failure.param;
  const shouldRetry = parseShouldRetry(failure.headers);
  if (shouldRetry !== undefined) info.shouldRetry = shouldRetry;
  const deterministic = isDeterministic(errorClass, failure.status, shouldRetry);
  if (deterministic !== undefined) info.deterministic = deterministic;
  const remedy = remedyFor(errorClass, failure, context);
  if (remedy) info.remedy = remedy;
  const tag = code ? ` ${code}` : '';
  const location = failure.status >= 300 && failure.status < 400 ? failure.headers?.get('location') : null;
  const said = failure.message ?? (location ? `redirected to ${redirectTarget(location, context.requestUrl)}` : null);
  const detail = said ? `: ${redactSecrets(said, secrets)}` : '';
  return new ProviderError(`${provider} HTTP ${failure.status}${tag}${detail}`, errorClass, info);
}

/** System codes of a transport that failed under the request (undici's socket codes, Node's net/DNS codes). */
const TRANSPORT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/**
 * True for a transport fault the SDKs do not wrap: a body cut off after its headers makes undici
 * reject `response.json()` with `TypeError: terminated` (cause `UND_ERR_SOCKET`, "other side
 * closed"), inside node_modules/openai/internal/parse.js and @anthropic-ai/sdk/internal/parse.js,
 * after the SDK's own connection handling is over; `fetch failed` is the same before the headers.
 */
export function isTransportFault(err: unknown): boolean {
  if (!(err instanceof TypeError)) return false;
  if (err.message === 'terminated' || err.message === 'fetch failed') return true;
  let inner: unknown = (err as { cause?: unknown }).cause;
  for (let depth = 0; depth < 5 && inner instanceof Error; depth += 1) {
    const code = (inner as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && TRANSPORT_CODES.has(code)) return true;
    inner = (inner as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The last steps of translating what an SDK threw, shared by the providers once their API and connection
 * errors are handled: a transport fault or a body cut after its headers (`BodyCutOff`, bare or wrapped)
 * is a connection failure; an SDK error or a JSON SyntaxError means an unreadable response (server_error), an
 * AbortError the whole-response deadline (timeout); anything else is our own bug and passes through.
 */
export function translateRemainingError(err: unknown, label: string, secrets: readonly string[], fromSdk: boolean): Error {
  // A stream cut mid-body reaches us wrapped: Anthropic's MessageStream turns it into an
  // AnthropicError('terminated') with the BodyCutOff as its cause (@anthropic-ai/sdk/lib/MessageStream.js).
  if (isTransportFault(err) || bodyCutOffIn(err)) return connectionError(err as Error, label, secrets);
  if (fromSdk || err instanceof SyntaxError) {
    return new ProviderError(`${label}: unreadable response (${redactSecrets((err as Error).message, secrets)})`, 'server_error');
  }
  if (err instanceof Error && err.name === 'AbortError') {
    return new ProviderError(`${label}: no complete answer within the timeout`, 'timeout');
  }
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * A batch item that never ran. `batch_expired` / `expired` → timeout (send it again in a follow-up
 * batch); `batch_cancelled` / `canceled` → a deterministic client_error with code `batch_cancelled`:
 * a batch someone cancelled stays cancelled, its items are not re-sent until the user asks (re-run
 * with --resubmit-cancelled); anything else → server_error.
 */
export function batchItemNotRun(provider: 'openai' | 'anthropic', code: string, message: string): ProviderError {
  const text = `${provider} batch item ${code}${message ? `: ${message}` : ''}`;
  if (code === 'batch_expired' || code === 'expired') return new ProviderError(text, 'timeout', { code: 'batch_expired' });
  if (code === 'batch_cancelled' || code === 'canceled' || code === 'cancelled') {
    return new ProviderError(text, 'client_error', {
      code: 'batch_cancelled',
      deterministic: true,
      remedy: 'the batch was cancelled, so its unfinished items were not run; they are not sent again unless you ask (re-run with --resubmit-cancelled)',
    });
  }
  return new ProviderError(text, 'server_error', { code });
}

/**
 * A connection failure (no HTTP answer) as a ProviderError: the innermost cause's message, scrubbed,
 * and its system code (`ECONNREFUSED`, `ECONNRESET`, `ENOTFOUND`, …) as `info.code`, so the
 * collector can tell "nothing listens there" (every call refused) from a dropped connection.
 */
export function connectionError(err: Error, label: string, secrets: readonly string[]): ProviderError {
  let inner: unknown = err;
  let code: string | undefined;
  for (let depth = 0; depth < 5 && inner instanceof Error; depth += 1) {
    const c = (inner as NodeJS.ErrnoException).code;
    if (typeof c === 'string' && /^E[A-Z_]+$/.test(c)) code = c;
    const next = (inner as { cause?: unknown }).cause;
    if (!(next instanceof Error)) break;
    inner = next;
  }
  const detail = inner instanceof Error ? inner.message : String(inner);
  if (code === undefined && err instanceof TypeError && err.message === 'terminated') code = 'UND_ERR_SOCKET';
  const info: ProviderErrorInfo = code ? { code } : {};
  const cut = bodyCutOffIn(err);
  if (cut) {
    // The headers came: keep their status and request id (the collector charges a cut 2xx as billed).
    info.httpStatus = cut.status;
    if (cut.requestId) info.requestId = cut.requestId;
    return new ProviderError(`${label}: connection failed after HTTP ${cut.status}, the body cut off (${redactSecrets(detail, secrets)})`, 'connection', info);
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND') info.remedy = 'nothing answers at this address: start the server or correct the base URL';
  return new ProviderError(`${label}: connection failed (${redactSecrets(detail, secrets)})`, 'connection', info);
}

/** The error thrown when the caller's AbortSignal fires (not a transport failure; the collector is stopping). */
export function abortError(): Error {
  const err = new Error('request aborted by caller');
  err.name = 'AbortError';
  return err;
}
