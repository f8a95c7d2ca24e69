/**
 * Plumbing shared by the SDK-backed providers: request validation and the per-attempt deadline.
 */
import { InputError } from '../../errors';
import type { CompletionRequest, CompletionResult } from '../../provider/contract';

const SCHEMA_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Largest delay `setTimeout` honours (2^31 − 1 ms); longer ones fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Checks the parts of a request the APIs would reject anyway, so the mistake is reported as ours
 * (InputError naming the run) rather than as an opaque HTTP 400.
 */
export function validateRequest(req: CompletionRequest): void {
  const where = { item: req.runId };
  if (!SCHEMA_NAME.test(req.schemaName)) {
    throw new InputError(`run ${req.runId}: schemaName ${JSON.stringify(req.schemaName)} must match [A-Za-z0-9_-]{1,64}`, where);
  }
  if (req.jsonSchema === null || typeof req.jsonSchema !== 'object' || req.jsonSchema['type'] !== 'object') {
    throw new InputError(`run ${req.runId}: jsonSchema must be a JSON Schema with top-level "type": "object"`, where);
  }
  for (const [name, value] of [['maxOutputTokens', req.maxOutputTokens], ['timeoutMs', req.timeoutMs]] as const) {
    if (!Number.isInteger(value) || value <= 0) {
      throw new InputError(`run ${req.runId}: ${name} must be a positive integer, got ${JSON.stringify(value)}`, where);
    }
  }
  // Node's timers take at most 2^31 − 1 ms; a longer delay fires after 1 ms (issue 9 item 2: a
  // --timeout of 2,147,484 s silently became 1 ms), so refuse it instead.
  if (req.timeoutMs > MAX_TIMER_MS) {
    throw new InputError(`run ${req.runId}: timeoutMs ${req.timeoutMs} is above the largest timer Node supports (${MAX_TIMER_MS} ms ≈ 24.8 days)`, where);
  }
}

/**
 * One attempt's abort signal: fires when the caller aborts or when `timeoutMs` elapses. The SDKs'
 * own timeout only covers the wait for response headers; this deadline also covers a body that
 * stalls half-way, so an attempt never outlives `timeoutMs` by more than scheduling jitter.
 */
export interface AttemptDeadline {
  readonly signal: AbortSignal;
  /** True when the deadline (not the caller) ended the attempt. */
  readonly timedOut: boolean;
  /** True when the caller's signal ended the attempt. */
  readonly callerAborted: boolean;
  dispose(): void;
}

export function startDeadline(timeoutMs: number, caller?: AbortSignal): AttemptDeadline {
  const controller = new AbortController();
  let timedOut = false;
  let callerAborted = false;
  const onCallerAbort = () => {
    callerAborted = true;
    controller.abort();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut && !callerAborted;
    },
    get callerAborted() {
      return callerAborted;
    },
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/** The result of an attempt whose body passed the cap (capped-fetch.ts): no text, no usage; recorded invalid. */
export function tooLargeResult(limitBytes: number): CompletionResult {
  return { text: '', finishReason: null, refusal: null, modelVersion: null, usage: null, httpStatus: 200, requestId: null, tooLarge: { limitBytes } };
}

/** Default longest silence between two events of a streamed answer. */
export const DEFAULT_STREAM_IDLE_MS = 120_000;

/**
 * The overall limit of a streamed request, from its allowance rather than `--timeout`: the time the
 * Anthropic SDK expects such a request may take (60 min × max_tokens / 128,000,
 * `calculateNonstreamingTimeout` in node_modules/@anthropic-ai/sdk/client.js), doubled, at least
 * 10 minutes, within Node's timer limit.
 * @example
 * streamOverallMs(64000); // => 3600000
 * streamOverallMs(1000); // => 600000
 */
export function streamOverallMs(maxTokens: number): number {
  return Math.min(MAX_TIMER_MS, Math.max(600_000, Math.round((2 * 3_600_000 * maxTokens) / 128_000)));
}

/**
 * The clock of one streamed attempt: aborts when no event came for `idleMs`, or when `overallMs`
 * passed, or when the caller aborts. `started` turns true at the first event (the server said it
 * started: a timeout after that is billed, one before it is not).
 */
export interface StreamClock extends AttemptDeadline {
  /** Call on every stream event. */
  tick(): void;
  readonly started: boolean;
  readonly idle: boolean;
}

export function startStreamClock(idleMs: number, overallMs: number, caller?: AbortSignal): StreamClock {
  const overall = startDeadline(overallMs, caller);
  let started = false;
  let idle = false;
  const controller = new AbortController();
  const onOverall = () => controller.abort();
  overall.signal.addEventListener('abort', onOverall, { once: true });
  let timer = setTimeout(onIdle, idleMs);
  function onIdle() {
    idle = true;
    controller.abort();
  }
  return {
    signal: controller.signal,
    get timedOut() {
      return overall.timedOut || (idle && !overall.callerAborted);
    },
    get callerAborted() {
      return overall.callerAborted;
    },
    get started() {
      return started;
    },
    get idle() {
      return idle;
    },
    tick() {
      started = true;
      clearTimeout(timer);
      timer = setTimeout(onIdle, idleMs);
    },
    dispose() {
      clearTimeout(timer);
      overall.signal.removeEventListener('abort', onOverall);
      overall.dispose();
    },
  };
}
