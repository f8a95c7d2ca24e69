import type { TransportErrorClass } from './providers/types';
import seedrandom from 'seedrandom';

/**
 * Retry policy for API attempts (paper 000 §4.3: transport failures are retried; a quota stop pauses
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

export interface RetryPolicy {
  /** Retries after the first attempt; the attempt count is at most maxRetries + 1. */
  maxRetries: number;
  /** First backoff step. */
  baseDelayMs: number;
  /** Cap on one backoff step (a longer retry-after is still honoured). */
  maxDelayMs: number;
  /** Rate-limit waits above this become a quota stop. */
  quotaThresholdMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  quotaThresholdMs: QUOTA_RETRY_AFTER_THRESHOLD_MS,
};

/** The facts about one failed attempt that the policy looks at. */
export interface FailureInfo {
  errorClass: ErrorClass;
  retryAfterMs?: number;
}

export type RetryDecision =
  | { action: 'retry'; delayMs: number }
  | { action: 'quota_stop'; reason: string }
  | { action: 'give_up'; reason: string }
  | { action: 'fatal'; reason: string };

/**
 * Exponential backoff with "equal jitter": step = min(max, base · 2^(n−1)), delay = step/2 + u·step/2
 * with u ∈ [0,1) from the seeded generator. A server-supplied retry-after is a floor: the delay is
 * max(retry-after, jittered step). Example: base 1 s, retry 3 → step 4 s → delay in [2 s, 4 s).
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
 * What to do after attempt number `attempt` (1-based) failed.
 * - quota, or rate_limit with retry-after above the threshold → quota_stop (the run pauses; resume later);
 * - auth → fatal (every later call would fail the same way: stop the run);
 * - rate_limit / server_error / timeout / connection → retry while attempts remain, else give_up;
 * - client_error / unknown → give_up at once (the same request would fail again).
 */
export function decideAfterFailure(
  failure: FailureInfo,
  attempt: number,
  policy: RetryPolicy,
  u: number,
): RetryDecision {
  const { errorClass, retryAfterMs } = failure;
  if (errorClass === 'quota') return { action: 'quota_stop', reason: 'provider reported an exhausted quota' };
  if (errorClass === 'rate_limit' && retryAfterMs !== undefined && retryAfterMs > policy.quotaThresholdMs) {
    return {
      action: 'quota_stop',
      reason: `rate limit with retry-after ${Math.round(retryAfterMs / 1000)} s (> ${Math.round(policy.quotaThresholdMs / 1000)} s)`,
    };
  }
  if (errorClass === 'auth') return { action: 'fatal', reason: 'authentication failed (check the API key variable)' };
  if (!RETRYABLE_CLASSES.has(errorClass)) return { action: 'give_up', reason: `${errorClass} is not retried` };
  if (attempt > policy.maxRetries) {
    return { action: 'give_up', reason: `${errorClass}: retries exhausted after ${attempt} attempts` };
  }
  return { action: 'retry', delayMs: backoffDelayMs(attempt, policy, u, retryAfterMs) };
}

/** Real sleep, abortable. Tests inject a fake that records the requested delays. */
export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
