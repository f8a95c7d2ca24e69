import type { BatchItem, SubmittedBatch } from './batch-ledger';
import type { BatchFailurePlan, BatchStatus } from './batch-transport';
import { errorAttemptLine, NOT_BILLED, responseAttemptLine, type AttemptBase } from './attempt-line';
import { decide, decisionLabel, type Decision, type DecideState } from './decide';
import { classify, type CellOutcome, type Failure } from './lifecycle';
import type { CostEstimate } from './prices';
import type { CompletionResult } from '../provider/contract';
import type { ErrorClass, RetryPolicy } from './retry';

/**
 * What one item of a finished batch means, as a pure function of the batch, its status and the item's
 * result (batch-mode.ts carries the verdict out). The order of the questions is the policy:
 *
 *   1. an answer → `decide()` (as in live mode; batch answers are never re-sent with a larger
 *      allowance, so a cut-off one is a result like any other);
 *   2. no result (or a `batch_cancelled` one) from a batch cancelled at the provider → held until
 *      --resubmit-cancelled;
 *   3. no result from a batch that failed as a whole → the provider's plan (providers/batch.ts
 *      `planFailedBatch`; without one, a batch of several requests is halved): split / retry later
 *      in smaller batches, or stop the run when the input itself was refused;
 *   4. any other failure → `decide()`: retry in the next batch, `missing`, quota stop or a
 *      deterministic failure (no record, counted by the breaker).
 *
 * Every verdict carries its attempt line, built by attempt-line.ts.
 */

/** The facts an item's error line shows (never its retry-after or remedy). */
type ItemLineFailure = { errorClass: ErrorClass | null; message: string; code?: string; httpStatus?: number; requestId?: string };

/** What the batch run does with an item once its line is written. */
export type ItemEffect =
  | { kind: 'final'; cell: CellOutcome }
  | { kind: 'retry' }
  | { kind: 'split'; splitSize: number; retryAfterMs: number | null }
  | { kind: 'held_cancelled' }
  | { kind: 'refused'; code: string; message: string; remedy: string }
  | { kind: 'quota_stop'; reason: string }
  | { kind: 'deterministic'; failure: Failure }
  | { kind: 'unfinished'; failure: Failure };

export interface ItemVerdict {
  line: Record<string, unknown>;
  effect: ItemEffect;
}

/** The facts about one item of a finished batch. */
export interface BatchItemFacts {
  batch: SubmittedBatch;
  item: BatchItem;
  model: string;
  status: BatchStatus;
  /** The item's result; undefined when the provider returned none. */
  outcome: CompletionResult | Error | undefined;
  /** The attempt line's `ended_at` (null in deterministic mode). */
  endedAt: string | null;
}

/** The decide() state of a batch item: no jitter (the next batch is the wait), the model answered (the batch reached the provider), no larger allowance. */
function decideState(policy: RetryPolicy): DecideState {
  return { policy, jitter: 0, outputCap: null, modelAnswered: true, enlargeCutOff: false };
}

function lineBase(f: BatchItemFacts): AttemptBase {
  return {
    run_id: f.item.run_id,
    model: f.model,
    attempt: f.item.attempt,
    batch_id: f.batch.batch_id,
    custom_id: f.item.custom_id,
    started_at: f.batch.submitted_at,
    ended_at: f.endedAt,
    latency_ms: null,
  };
}

/** An item error line: never billed; batch items carry no retry-after and no remedy of their own. */
function itemErrorLine(f: BatchItemFacts, failure: ItemLineFailure, decision: string, nextDelayMs: number | null = null): Record<string, unknown> {
  const { errorClass, message, code, httpStatus, requestId } = failure;
  return errorAttemptLine(lineBase(f), { errorClass, message, code, httpStatus, requestId, retryAfterMs: null }, NOT_BILLED, decision, nextDelayMs);
}

/** The failure an item without a result stands for, from the batch's end state. */
export function missingResultFailure(batch: SubmittedBatch, status: BatchStatus): Failure {
  if (status.state === 'failed') {
    const batchErrors = (status.errors ?? []).map((e) => `${e.code ? `${e.code}: ` : ''}${e.message}`).join('; ');
    return {
      // The batch as a whole was refused (e.g. token_limit_exceeded): split it, never a missing record.
      errorClass: batch.items.length > 1 ? 'server_error' : 'client_error',
      code: 'batch_failed',
      message: `batch ${batch.batch_id} failed (provider status ${status.providerStatus}${batchErrors ? `: ${batchErrors}` : ''}) without a result for this request`,
    };
  }
  return {
    errorClass: status.state === 'expired' ? 'timeout' : 'server_error',
    code: status.state === 'expired' ? 'batch_expired' : undefined,
    message: `batch ${batch.batch_id} ended (${status.providerStatus}) without a result for this request`,
  };
}

/** The plan for an item without a result from a batch that failed as a whole; null when it is not one (or a lone request: then a deterministic failure). */
export function failedBatchPlan(batch: SubmittedBatch, status: BatchStatus, failure: Failure): BatchFailurePlan | null {
  if (status.state !== 'failed') return null;
  if (status.failure) return status.failure;
  return batch.items.length > 1 ? { action: 'split', parts: 2, code: 'batch_failed', message: failure.message } : null;
}

function answeredVerdict(f: BatchItemFacts, result: CompletionResult, policy: RetryPolicy, priced: (result: CompletionResult) => CostEstimate): ItemVerdict {
  const decision = decide({ model: f.model, attempt: f.item.attempt, waitedMs: 0, maxOutputTokens: 0, enlarged: false, preflight: false }, { kind: 'response', result }, decideState(policy));
  if (decision.action !== 'finish') throw new Error(`internal: a batch answer cannot be ${decision.action}`);
  const cost = priced(result);
  const line = responseAttemptLine(lineBase(f), result, { usd: cost.usd, basis: result.usage ? 'reported_usage_batch_price' : 'unknown', note: cost.note });
  return { line, effect: { kind: 'final', cell: { kind: 'response', result, attempts: f.item.attempt, costUsd: cost.usd, costNote: cost.note } } };
}

function planVerdict(f: BatchItemFacts, plan: BatchFailurePlan, failure: Failure): ItemVerdict {
  if (plan.action === 'stop') {
    // The batch input itself was refused: resubmitting cannot help; no record, the run fails with the fix.
    const line = itemErrorLine(f, { errorClass: 'client_error', code: plan.code, message: failure.message }, 'deterministic');
    return { line, effect: { kind: 'refused', code: plan.code, message: plan.message, remedy: plan.remedy } };
  }
  const retryAfterMs = plan.action === 'retry_later' ? plan.retryAfterMs : null;
  const decision = plan.action === 'retry_later' ? 'retry_later_in_smaller_batches' : 'split_into_smaller_batches';
  const line = itemErrorLine(f, { errorClass: failure.errorClass, code: 'batch_failed', message: failure.message }, decision, retryAfterMs);
  return { line, effect: { kind: 'split', splitSize: Math.max(1, Math.ceil(f.batch.items.length / Math.max(1, plan.parts))), retryAfterMs } };
}

/** The attempt line's `decision` for decide()'s verdict on a batch item: a retry goes into the next batch. */
function batchDecisionLabel(d: Decision): string {
  return d.action === 'retry' ? 'retry_in_next_batch' : decisionLabel(d);
}

function failureVerdict(f: BatchItemFacts, failure: Failure, policy: RetryPolicy): ItemVerdict {
  const decision = decide({ model: f.model, attempt: f.item.attempt, waitedMs: 0, maxOutputTokens: 0, enlarged: false, preflight: false }, { kind: 'failure', failure }, decideState(policy));
  const line = itemErrorLine(f, failure, batchDecisionLabel(decision));
  switch (decision.action) {
    case 'retry':
      return { line, effect: { kind: 'retry' } };
    case 'finish': {
      if (decision.outcome !== 'missing') throw new Error('internal: a failed batch item cannot finish as a response');
      const cell: CellOutcome = { kind: 'missing', errorClass: failure.errorClass, reason: `${decision.reason}: ${failure.message}`, attempts: f.item.attempt, costUsd: 0 };
      return { line, effect: { kind: 'final', cell } };
    }
    case 'stop':
      return { line, effect: { kind: 'quota_stop', reason: decision.reason } };
    case 'hold':
      return { line, effect: decision.why === 'deterministic' ? { kind: 'deterministic', failure } : { kind: 'unfinished', failure } };
  }
}

/**
 * The verdict on one item of a finished batch; see the module comment.
 * @example
 * const batch = { type: 'submitted', seq: 1, batch_id: 'b1', model: 'openai:m', provider: 'openai', submitted_at: null, items: [{ run_id: 'r1', custom_id: 'r1', attempt: 1 }] } as any;
 * const status = { batchId: 'b1', state: 'expired', done: true, providerStatus: 'expired', counts: { total: 1, succeeded: 0, failed: 0, pending: 1 } } as any;
 * const policy = { maxRetries: 2, baseDelayMs: 1000, maxDelayMs: 60000, quotaThresholdMs: 600000, retryHorizonMs: 600000 };
 * const v = judgeBatchItem({ batch, item: batch.items[0], model: 'openai:m', status, outcome: undefined, endedAt: null }, policy, () => ({ usd: 0 }));
 * [v.effect.kind, v.line.error_code, v.line.decision]; // => ['retry', 'batch_expired', 'retry_in_next_batch']
 */
export function judgeBatchItem(f: BatchItemFacts, policy: RetryPolicy, priced: (result: CompletionResult) => CostEstimate): ItemVerdict {
  const { outcome, status, batch } = f;
  if (outcome !== undefined && !(outcome instanceof Error)) return answeredVerdict(f, outcome, policy, priced);
  const wasCancelled = status.state === 'cancelled' || status.cancelledByUser === true;
  if (wasCancelled && (outcome === undefined || classify(outcome).code === 'batch_cancelled')) {
    // Cancelled at the provider (by the user): not sent again until asked (--resubmit-cancelled).
    const message = `batch ${batch.batch_id} was cancelled (${status.providerStatus}) before this request ran`;
    return { line: itemErrorLine(f, { errorClass: null, code: 'batch_cancelled', message }, 'held_cancelled'), effect: { kind: 'held_cancelled' } };
  }
  const failure = outcome === undefined ? missingResultFailure(batch, status) : classify(outcome);
  const plan = outcome === undefined ? failedBatchPlan(batch, status, failure) : null;
  return plan ? planVerdict(f, plan, failure) : failureVerdict(f, failure, policy);
}
