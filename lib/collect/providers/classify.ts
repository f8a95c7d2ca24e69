/**
 * Turning provider failures into ProviderError classes. Pure functions over plain facts (status,
 * headers, error code/type/message), so both SDK adapters and the batch result parsers share them and
 * they are testable without HTTP.
 */
import { ProviderError, type ProviderErrorInfo, type TransportErrorClass } from './types';

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
  /** Provider's human-readable message (scrubbed before use). */
  message?: string | null;
  requestId?: string | null;
}

/**
 * Wait requested by the server, in ms: `retry-after-ms` (milliseconds, OpenAI) wins over
 * `retry-after` (seconds, or an HTTP date). Example: `retry-after: 2.5` → 2500. Undefined when absent
 * or unparseable; never negative.
 */
export function parseRetryAfterMs(headers: HeaderReader | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * True when a failure means the account cannot continue soon (the run must pause, not back off):
 * OpenAI `insufficient_quota`, Anthropic `billing_error`, or a message about quotas, credit or
 * per-day/per-month limits (e.g. "Rate limit reached … on requests per day (RPD)").
 */
export function isQuotaExhaustion(code?: string | null, type?: string | null, message?: string | null): boolean {
  const tags = [code, type].filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase());
  if (tags.some((t) => t === 'insufficient_quota' || t === 'billing_error' || t === 'quota_exceeded')) return true;
  if (!message) return false;
  return /quota|credit balance|billing|per day|daily|per month|monthly|\bRPD\b|\bTPD\b/i.test(message);
}

/** A non-429 client error that is really about money: quota/billing codes, or "credit balance is too low". */
function isBillingFailure(code?: string | null, type?: string | null, message?: string | null): boolean {
  return isQuotaExhaustion(code, type, null) || (!!message && /credit balance|insufficient[_ ]quota|exceeded your current quota/i.test(message));
}

/** Maps an HTTP status (plus code/type/message for 429s and billing errors) to a transport error class. */
export function classifyStatus(status: number, code?: string | null, type?: string | null, message?: string | null): TransportErrorClass {
  if (status === 429) return isQuotaExhaustion(code, type, message) ? 'quota' : 'rate_limit';
  if (status === 402 || (status >= 400 && status < 500 && isBillingFailure(code, type, message))) return 'quota';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server_error'; // includes Anthropic's 529 overloaded
  return 'client_error';
}

/**
 * Anthropic error types (as in batch `errored` results, which carry no HTTP status) to classes.
 * Unknown types count as server errors (transient) rather than being dropped.
 */
export function classifyAnthropicErrorType(type: string | null | undefined, message?: string | null): TransportErrorClass {
  switch (type) {
    case 'rate_limit_error':
      return isQuotaExhaustion(null, null, message) ? 'quota' : 'rate_limit';
    case 'billing_error':
      return 'quota';
    case 'authentication_error':
    case 'permission_error':
      return 'auth';
    case 'invalid_request_error':
    case 'not_found_error':
    case 'request_too_large':
      return isBillingFailure(null, null, message) ? 'quota' : 'client_error';
    case 'timeout_error':
      return 'timeout';
    default:
      return 'server_error'; // api_error, overloaded_error, anything new
  }
}

const KEY_LIKE = /\b(?:sk|pk|rk|key)-[A-Za-z0-9_\-*]{6,}/g;

/**
 * Removes secrets from text that may be shown or stored: every occurrence of the given secrets, and any
 * key-shaped token (`sk-…`, as in OpenAI's "Incorrect API key provided: sk-pro****abcd").
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.replace(KEY_LIKE, '[redacted]');
}

/** Builds the ProviderError for one failed HTTP answer; the message is `<provider> HTTP <status> <type/code>: <message>`. */
export function providerErrorFromHttp(provider: string, failure: HttpFailure, secrets: readonly string[]): ProviderError {
  const errorClass = classifyStatus(failure.status, failure.code, failure.type, failure.message);
  const info: ProviderErrorInfo = { httpStatus: failure.status };
  const retryAfterMs = parseRetryAfterMs(failure.headers);
  if (retryAfterMs !== undefined) info.retryAfterMs = retryAfterMs;
  const code = failure.code ?? failure.type;
  if (code) info.code = code;
  if (failure.requestId) info.requestId = failure.requestId;
  const tag = code ? ` ${code}` : '';
  const detail = failure.message ? `: ${redactSecrets(failure.message, secrets)}` : '';
  return new ProviderError(`${provider} HTTP ${failure.status}${tag}${detail}`, errorClass, info);
}

/**
 * The last steps of translating what an SDK threw, shared by the providers once their API and connection
 * errors are handled: an SDK error or a JSON SyntaxError means an unreadable response (server_error), an
 * AbortError the whole-response deadline (timeout); anything else is our own bug and passes through.
 */
export function translateRemainingError(err: unknown, label: string, secrets: readonly string[], fromSdk: boolean): Error {
  if (fromSdk || err instanceof SyntaxError) {
    return new ProviderError(`${label}: unreadable response (${redactSecrets((err as Error).message, secrets)})`, 'server_error');
  }
  if (err instanceof Error && err.name === 'AbortError') {
    return new ProviderError(`${label}: no complete answer within the timeout`, 'timeout');
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** The error thrown when the caller's AbortSignal fires (not a transport failure; the collector is stopping). */
export function abortError(): Error {
  const err = new Error('request aborted by caller');
  err.name = 'AbortError';
  return err;
}
