import type { TransportErrorClass } from '../provider/contract';
import seedrandom from 'seedrandom';

/**
 * Retry policy for API attempts ([KST-2026] §4.3: transport failures are retried; a quota stop pauses
 * the run until it is resumed with unchanged run IDs): the policy's numbers, the backoff and its
 * seeded jitter. The decisions themselves are decide.ts's one table; the engine does the waiting
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
