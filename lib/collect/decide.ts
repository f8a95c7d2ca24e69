import { answerOutcome } from '../provider/outcome';
import type { CompletionResult } from '../provider/contract';
import { backoffDelayMs, RETRYABLE_CLASSES, type ErrorClass, type RetryPolicy } from './retry';

/**
 * What to do with one cell after one attempt, for both transports (the live pool in engine.ts and the
 * batch items in batch-mode.ts): a pure function of the attempt's outcome and what the run knows, so
 * the whole policy is one table (test/collect/decide.test.ts).
 *
 * - `finish`: write the cell's final record (`response`: the handler judges the answer; `missing`:
 *   technical missingness after the retry horizon);
 * - `retry`: ask again after `delayMs` (a cut-off answer: once, with a larger allowance);
 * - `hold`: no record, the cell stays pending and is requested by the next run (a failure the provider
 *   declared deterministic, which the circuit breaker counts; or a cell that never reached a server);
 * - `stop`: no record, and the run stops dispatching (quota, or a pre-flight that failed).
 *
 * Transport faults (reset, a body cut after its headers, DNS or connect failures) are transient like
 * 5xx: retried with backoff and never counted by the breaker. `x-should-retry` wins both ways, as in
 * the SDKs (node_modules/@anthropic-ai/sdk/client.js `shouldRetry`, node_modules/openai/client.js):
 * `true` retries any class but quota, `false` never retries (a transient class then ends `missing`,
 * not counted by the breaker; a client error, a 409 too, is held). A plain 409 (a lock timeout,
 * retried by both SDKs' `shouldRetry`) comes with `deterministic: false` (providers/classify.ts) and
 * is retried like a 5xx.
 */

/** The facts about one failed attempt the policy reads (lifecycle.ts `classify` builds them). */
export interface AttemptFailure {
  errorClass: ErrorClass;
  message: string;
  retryAfterMs?: number;
  /**
   * True: the provider said this request repeats its failure (unknown model, bad parameter, bad key);
   * false: it said the same request may succeed later though its class is a client error (a 409).
   */
  deterministic?: boolean;
  /** The server's `x-should-retry`, when sent. */
  shouldRetry?: boolean;
  /** The HTTP status, when headers came back (a connection failure with one is a body cut after them: the server answered). */
  httpStatus?: number;
}

export type AttemptOutcome = { kind: 'response'; result: CompletionResult } | { kind: 'failure'; failure: AttemptFailure };

export interface DecideItem {
  model: string;
  /** 1-based number of this attempt. */
  attempt: number;
  /** Sum of this cell's earlier retry waits. */
  waitedMs: number;
  /** The output allowance this attempt was sent with. */
  maxOutputTokens: number;
  /** True once the cell was retried with a larger allowance (a cut-off answer is retried at most once). */
  enlarged: boolean;
  /** This attempt is the model's pre-flight (the first real cell; see preflight.ts). */
  preflight: boolean;
}

export interface DecideState {
  policy: RetryPolicy;
  /** The seeded uniform draw for this retry's jitter (retry.ts `jitterDraw`). */
  jitter: number;
  /** The model's output cap (catalogue or --models-file), when known: a cut-off answer may be retried up to it. */
  outputCap: number | null;
  /** The model answered at least once in this run (a cell that never connected is then `missing`, not held). */
  modelAnswered: boolean;
  /** False for the simulated respondents: their cut-offs are drawn by the simulation, not caused by the allowance (and the corpus stays byte-identical). */
  enlargeCutOff?: boolean;
}

export type Decision =
  | { action: 'finish'; outcome: 'response' }
  | { action: 'finish'; outcome: 'missing'; reason: string }
  | { action: 'retry'; delayMs: number; reason: string; maxOutputTokens?: number }
  | { action: 'hold'; why: 'deterministic' | 'never_connected'; reason: string }
  | { action: 'stop'; status: 'quota_stopped' | 'failed'; reason: string };

/** The larger allowance a cut-off answer is retried with: double, within the model's cap (null = no room). */
export function enlargedAllowance(current: number, cap: number | null): number | null {
  const limit = cap ?? current * 2;
  const next = Math.min(limit, current * 2);
  return next > current ? next : null;
}

/** The pure decision; see the module comment. */
export function decide(item: DecideItem, outcome: AttemptOutcome, state: DecideState): Decision {
  if (outcome.kind === 'response') {
    const verdict = answerOutcome(outcome.result);
    // A cut at the context window (Anthropic `model_context_window_exceeded`,
    // node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts StopReason) is not the
    // allowance's doing: the provider already sends at most the window minus the prompt, so a larger
    // allowance would pay for the same cut again.
    const atWindow = outcome.result.finishReason === 'model_context_window_exceeded';
    if (verdict.kind === 'cut_off' && !item.enlarged && !atWindow && state.enlargeCutOff !== false) {
      const larger = enlargedAllowance(item.maxOutputTokens, state.outputCap);
      if (larger !== null) return { action: 'retry', delayMs: 0, reason: `answer cut off at ${item.maxOutputTokens} output tokens`, maxOutputTokens: larger };
    }
    if (item.preflight && verdict.kind === 'cut_off') {
      return { action: 'stop', status: 'failed', reason: `pre-flight: the answer was cut off by the output limit (${outcome.result.finishReason}) at ${item.maxOutputTokens} tokens` };
    }
    return { action: 'finish', outcome: 'response' };
  }
  return decideFailure(item, outcome.failure, state);
}

function decideFailure(item: DecideItem, failure: AttemptFailure, state: DecideState): Decision {
  const { policy } = state;
  const { errorClass, retryAfterMs } = failure;
  const horizonMin = Math.round(policy.retryHorizonMs / 6000) / 10;
  if (errorClass === 'quota') return { action: 'stop', status: 'quota_stopped', reason: 'provider reported an exhausted quota' };
  if (errorClass === 'rate_limit' && retryAfterMs !== undefined && retryAfterMs > policy.quotaThresholdMs) {
    return { action: 'stop', status: 'quota_stopped', reason: `rate limit with retry-after ${Math.round(retryAfterMs / 1000)} s (> ${Math.round(policy.quotaThresholdMs / 1000)} s)` };
  }
  // Retryable whatever the class: the server said `x-should-retry: true`, or the provider said the same
  // request can succeed (`deterministic: false`: a 409 lock timeout, which both SDKs' shouldRetry retry).
  // `x-should-retry: false` wins over the provider's `deterministic: false` (the server's word is the later one).
  const saidRetryable = failure.shouldRetry === true || (failure.deterministic === false && failure.shouldRetry !== false);
  const declaredDeterministic = !saidRetryable && (failure.deterministic === true || errorClass === 'client_error' || errorClass === 'auth');
  if (declaredDeterministic) {
    const reason = errorClass === 'auth' ? 'authentication failed (check the API key variable)' : `${errorClass} repeats on every identical request`;
    if (item.preflight) return { action: 'stop', status: 'failed', reason: `pre-flight: ${reason}: ${failure.message}` };
    return { action: 'hold', why: 'deterministic', reason };
  }
  const transient = RETRYABLE_CLASSES.has(errorClass) || saidRetryable;
  if (!transient) return endWithout(item, failure, state, `${errorClass} is not retried`);
  if (failure.shouldRetry === false) return endWithout(item, failure, state, `${errorClass}: the server said not to retry (x-should-retry: false)`);
  const delayMs = backoffDelayMs(item.attempt, policy, state.jitter, retryAfterMs);
  if (errorClass === 'rate_limit') {
    // Rate limits ignore maxRetries: only the horizon bounds them.
    if (item.waitedMs + delayMs > policy.retryHorizonMs) return { action: 'stop', status: 'quota_stopped', reason: `rate limited for longer than the retry horizon (${horizonMin} min)` };
    return { action: 'retry', delayMs, reason: 'rate limited' };
  }
  if (item.attempt > policy.maxRetries) return endWithout(item, failure, state, `${errorClass}: retries exhausted after ${item.attempt} attempts`);
  if (item.waitedMs + delayMs > policy.retryHorizonMs) return endWithout(item, failure, state, `${errorClass}: retry horizon (${horizonMin} min) spent after ${item.attempt} attempts`);
  return { action: 'retry', delayMs, reason: errorClass };
}

/**
 * No more attempts: `missing` when the model answered at all; a cell that never connected is held (at
 * the pre-flight the run stops). A body cut after its headers did connect: the server answered (and,
 * after a 2xx, billed it), so mid-run it is not "never connected" and ends `missing`. At the pre-flight
 * it still stops the run: a model none of whose answers arrive (a proxy that truncates every response)
 * would otherwise be paid for on every cell, (maxRetries + 1) times each (review4 H1).
 */
function endWithout(item: DecideItem, failure: AttemptFailure, state: DecideState, reason: string): Decision {
  if (failure.errorClass === 'connection' && !state.modelAnswered) {
    const cutAfterHeaders = failure.httpStatus !== undefined;
    if (item.preflight) {
      const why = cutAfterHeaders ? `${reason}; the server answered but the body was cut off after its headers` : reason;
      return { action: 'stop', status: 'failed', reason: `pre-flight: ${why}: ${failure.message}` };
    }
    if (!cutAfterHeaders) return { action: 'hold', why: 'never_connected', reason };
  }
  // A pre-flight cell that met only transient failures is a missing cell like any other: the model
  // answers (or answered), so the run goes on.
  return { action: 'finish', outcome: 'missing', reason };
}

/**
 * What an attempt line's (or a `batch_call_failed` event's) `decision` says for each decision: the
 * names attempts.jsonl has always used. A batch item's retry is `retry_in_next_batch` instead (batch-items.ts).
 * @example
 * decisionLabel({ action: 'hold', why: 'deterministic', reason: 'x' }); // => 'deterministic'
 * decisionLabel({ action: 'finish', outcome: 'missing', reason: 'x' }); // => 'give_up'
 */
export function decisionLabel(d: Decision): string {
  switch (d.action) {
    case 'retry':
      return d.maxOutputTokens !== undefined ? 'retry_larger_allowance' : 'retry';
    case 'stop':
      return d.status === 'quota_stopped' ? 'quota_stop' : 'preflight_stop';
    case 'hold':
      return d.why === 'deterministic' ? 'deterministic' : 'give_up';
    case 'finish':
      return 'give_up';
  }
}
