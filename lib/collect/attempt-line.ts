import type { CompletionResult } from '../provider/contract';

/**
 * The one builder of `attempt` lines of attempts.jsonl (schema: lib/records/attempt.ts), for the live
 * transport and for batch items. The key order is fixed here, so every writer gives the same line
 * for the same facts (and the simulated corpus stays byte-identical).
 */

export interface AttemptBase {
  run_id: string;
  model: string;
  attempt: number;
  /** Batch items only. */
  batch_id?: string;
  custom_id?: string;
  started_at: string | null;
  ended_at: string | null;
  latency_ms: number | null;
}

/** The failure facts an error line carries (lifecycle.ts `Failure`). */
export interface AttemptLineFailure {
  errorClass: string | null;
  message: string;
  httpStatus?: number | null;
  code?: string | null;
  retryAfterMs?: number | null;
  requestId?: string | null;
  remedy?: string;
}

function head(base: AttemptBase): Record<string, unknown> {
  return {
    type: 'attempt',
    run_id: base.run_id,
    model: base.model,
    attempt: base.attempt,
    ...(base.batch_id !== undefined ? { batch_id: base.batch_id } : {}),
    ...(base.custom_id !== undefined ? { custom_id: base.custom_id } : {}),
    started_at: base.started_at,
    ended_at: base.ended_at,
    latency_ms: base.latency_ms,
  };
}

/**
 * An answered attempt. `extra` (decision, allowance, pre-flight mark) goes last.
 * @example
 * const base = { run_id: 'r1', model: 'm', attempt: 1, started_at: null, ended_at: null, latency_ms: null };
 * const result = { text: '{}', finishReason: 'stop', refusal: null, modelVersion: null, usage: null, httpStatus: 200, requestId: 'q' };
 * Object.keys(responseAttemptLine(base, result, null)).join(','); // => 'type,run_id,model,attempt,started_at,ended_at,latency_ms,outcome,http_status,error_class,retry_after_ms,request_id,usage,finish_reason,billed_estimate'
 */
export function responseAttemptLine(
  base: AttemptBase,
  result: CompletionResult,
  billed: Record<string, unknown> | null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...head(base),
    outcome: 'response',
    http_status: result.httpStatus,
    error_class: null,
    retry_after_ms: null,
    request_id: result.requestId,
    usage: result.usage,
    finish_reason: result.finishReason,
    billed_estimate: billed,
    ...extra,
  };
}

/**
 * A failed attempt (or a batch item without a result), with what the collector decided.
 * @example
 * const base = { run_id: 'r1', model: 'm', attempt: 2, started_at: null, ended_at: null, latency_ms: null };
 * const line = errorAttemptLine(base, { errorClass: 'server_error', message: 'HTTP 500', httpStatus: 500 }, null, 'retry', 1000);
 * [line.error_class, line.error_code, line.decision, line.next_delay_ms]; // => ['server_error', null, 'retry', 1000]
 */
export function errorAttemptLine(
  base: AttemptBase,
  failure: AttemptLineFailure,
  billed: Record<string, unknown> | null,
  decision: string,
  nextDelayMs: number | null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...head(base),
    outcome: 'error',
    http_status: failure.httpStatus ?? null,
    error_class: failure.errorClass,
    error_code: failure.code ?? null,
    retry_after_ms: failure.retryAfterMs ?? null,
    request_id: failure.requestId ?? null,
    message: failure.message,
    usage: null,
    billed_estimate: billed,
    decision,
    next_delay_ms: nextDelayMs,
    ...(failure.remedy ? { remedy: failure.remedy } : {}),
    ...extra,
  };
}

/** What a batch item that the provider never ran (or ran and failed) costs: nothing. */
export const NOT_BILLED = { usd: 0, basis: 'batch_item_not_billed' } as const;
