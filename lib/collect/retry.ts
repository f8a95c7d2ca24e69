import type { TransportErrorClass } from '../provider/contract';
import seedrandom from 'seedrandom';

/**
 * Retry policy for API attempts ([KST-2026] §4.3: transport failures are retried; a quota stop pauses
 * the run until it is resumed with unchanged run IDs). Pure decisions; the engine does the waiting
 * through an injectable `sleep`, so tests run without real delays.
 */

/** Error classes an attempt can end in: a provider's transport class, or `unknown` for anything else. */
export type ErrorClass = TransportErrorClass | 'unknown';

/** Transient classes: the same request may succeed later. */
export const RETRYABLE_CLASSES: ReadonlySet<ErrorClass> = new Set(['rate_limit', 'server_error', 'timeout', 'connection']);

/**
 * A rate-limit answer asking us to wait longer than this is treated as an exhausted quota (e.g. a daily
 * cap): waiting inside the run would stall it for hours, so the run stops and is resumed later.
 */
export const QUOTA_RETRY_AFTER_THRESHOLD_MS = 10 * 60 * 1000;

/**
 * Default retry horizon: how long one cell keeps waiting out transient failures. Provider rate limits
 * are per minute (OpenAI, Anthropic), so a horizon of seconds gives up inside the very window that
 * would have cleared; ten minutes spans several windows.
 */
export const DEFAULT_RETRY_HORIZON_MS = 10 * 60 * 1000;

/**
 * Classes whose failure repeats on every identical request: a bad request, an unknown model, a
 * rejected key. Retrying them only spends money; the circuit breaker stops the model's queue instead.
 */
export const DETERMINISTIC_CLASSES: ReadonlySet<ErrorClass> = new Set(['client_error', 'auth']);

export interface RetryPolicy {
  /** Retries after the first attempt; the attempt count is at most maxRetries + 1. */
  maxRetries: number;
  /** First backoff step. */
  baseDelayMs: number;
  /** Cap on one backoff step (a longer retry-after is still honoured). */
  maxDelayMs: number;
  /** Rate-limit waits above this become a quota stop. */
  quotaThresholdMs: number;
  /**
   * Total wait one cell may spend on retries. Rate limits are retried until it is spent (not bounded
   * by maxRetries: a 429 clears by waiting) and then stop the run as a quota stop (resumable); other
   * transient classes stop at maxRetries or at the horizon, whichever comes first.
   */
  retryHorizonMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  quotaThresholdMs: QUOTA_RETRY_AFTER_THRESHOLD_MS,
  retryHorizonMs: DEFAULT_RETRY_HORIZON_MS,
};

/** The facts about one failed attempt that the policy looks at. */
export interface FailureInfo {
  errorClass: ErrorClass;
  retryAfterMs?: number;
  /** The provider marked the failure as one that repeats on every identical request. */
  deterministic?: boolean;
}

/** True for failures that repeat on every identical request (client_error, auth, or flagged by the provider). */
export function isDeterministic(failure: FailureInfo): boolean {
  return failure.deterministic === true || DETERMINISTIC_CLASSES.has(failure.errorClass);
}

export type RetryDecision =
  | { action: 'retry'; delayMs: number }
  | { action: 'quota_stop'; reason: string }
  | { action: 'give_up'; reason: string }
  /** The same request would fail again: the cell gets no record (it stays re-requestable) and the breaker counts it. */
  | { action: 'deterministic'; reason: string };

/**
 * Exponential backoff with "equal jitter": step = min(max, base · 2^(n−1)), delay = step/2 + u·step/2
 * with u ∈ [0,1) from the seeded generator. A server-supplied retry-after is a floor: the delay is
 * max(retry-after, jittered step). Base 1 s, retry 3: step 4 s, delay in [2 s, 4 s).
 * @example
 * const policy = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 60000, quotaThresholdMs: 600000, retryHorizonMs: 600000 } as any;
 * backoffDelayMs(3, policy, 0); // => 2000
 * backoffDelayMs(3, policy, 0.5); // => 3000
 * backoffDelayMs(3, policy, 0.5, 10000); // => 10000
 * backoffDelayMs(10, policy, 0); // => 30000
 */
export function backoffDelayMs(retryNumber: number, policy: RetryPolicy, u: number, retryAfterMs?: number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retryNumber - 1));
  const jittered = Math.round(step / 2 + (u * step) / 2);
  return retryAfterMs !== undefined && retryAfterMs > jittered ? Math.ceil(retryAfterMs) : jittered;
}

/**
 * The seeded uniform draw for the jitter of retry `retryNumber` of run `runId`: derived from the run
 * seed and the run ID, so the draw does not depend on how concurrent calls interleave.
 */
export function jitterDraw(seed: string, runId: string, retryNumber: number): number {
  return seedrandom(`${seed}|retry|${runId}|${retryNumber}`)();
}

/**
 * What to do after attempt number `attempt` (1-based) failed, `waitedMs` after the cell's first retry
 * wait began (the sum of its earlier waits).
 * - quota, or rate_limit with retry-after above the threshold → quota_stop (the run pauses; resume later);
 * - client_error, auth, or a failure the provider flags deterministic → deterministic (no record; the
 *   circuit breaker stops the model's queue after a few identical ones; the run ends `failed`);
 * - rate_limit → retry (retry-after as a floor) while the retry horizon lasts, then quota_stop;
 * - server_error / timeout / connection → retry while attempts and the horizon remain, else give_up;
 * - unknown → give_up at once.
 * Horizon 10 min, rate limits with retry-after 4 min: waits 4 + 4 min, the third would end past the
 * horizon, so quota_stop.
 * @example
 * const policy = { maxRetries: 5, baseDelayMs: 1000, maxDelayMs: 60000, quotaThresholdMs: 300000, retryHorizonMs: 600000 };
 * const limited = { errorClass: 'rate_limit' as const, retryAfterMs: 240000 };
 * decideAfterFailure(limited, 1, policy, 0, 0); // => { action: 'retry', delayMs: 240000 }
 * decideAfterFailure(limited, 2, policy, 0, 240000); // => { action: 'retry', delayMs: 240000 }
 * decideAfterFailure(limited, 3, policy, 0, 480000).action; // => 'quota_stop'
 * decideAfterFailure({ errorClass: 'auth' }, 1, policy, 0).action; // => 'deterministic'
 */
export function decideAfterFailure(
  failure: FailureInfo,
  attempt: number,
  policy: RetryPolicy,
  u: number,
  waitedMs = 0,
): RetryDecision {
  const { errorClass, retryAfterMs } = failure;
  if (errorClass === 'quota') return { action: 'quota_stop', reason: 'provider reported an exhausted quota' };
  if (errorClass === 'rate_limit' && retryAfterMs !== undefined && retryAfterMs > policy.quotaThresholdMs) {
    return {
      action: 'quota_stop',
      reason: `rate limit with retry-after ${Math.round(retryAfterMs / 1000)} s (> ${Math.round(policy.quotaThresholdMs / 1000)} s)`,
    };
  }
  if (errorClass === 'auth') return { action: 'deterministic', reason: 'authentication failed (check the API key variable)' };
  if (isDeterministic(failure)) return { action: 'deterministic', reason: `${errorClass} repeats on every identical request` };
  if (!RETRYABLE_CLASSES.has(errorClass)) return { action: 'give_up', reason: `${errorClass} is not retried` };
  const horizonMin = Math.round(policy.retryHorizonMs / 6000) / 10;
  if (errorClass === 'rate_limit') {
    // Rate limits ignore maxRetries: only the horizon bounds them (with the step capped at maxDelayMs).
    const delayMs = backoffDelayMs(attempt, policy, u, retryAfterMs);
    if (waitedMs + delayMs > policy.retryHorizonMs) {
      return { action: 'quota_stop', reason: `rate limited for longer than the retry horizon (${horizonMin} min)` };
    }
    return { action: 'retry', delayMs };
  }
  if (attempt > policy.maxRetries) {
    return { action: 'give_up', reason: `${errorClass}: retries exhausted after ${attempt} attempts` };
  }
  const delayMs = backoffDelayMs(attempt, policy, u, retryAfterMs);
  if (waitedMs + delayMs > policy.retryHorizonMs) {
    return { action: 'give_up', reason: `${errorClass}: retry horizon (${horizonMin} min) spent after ${attempt} attempts` };
  }
  return { action: 'retry', delayMs };
}
