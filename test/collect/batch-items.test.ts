/**
 * judgeBatchItem as a table: one item of a finished batch → its attempt line and what the run does
 * with it (final record, retry in the next batch, split, hold, stop).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failedBatchPlan, judgeBatchItem, missingResultFailure, type BatchItemFacts } from '../../lib/collect/batch-items';
import type { SubmittedBatch } from '../../lib/collect/batch-ledger';
import type { BatchStatus } from '../../lib/collect/batch-transport';
import { ProviderError } from '../../lib/provider/contract';
import { DEFAULT_RETRY_POLICY } from '../../lib/collect/retry';
import { okResult } from './helpers';

const POLICY = { ...DEFAULT_RETRY_POLICY, maxRetries: 2 };

function batchOf(n: number): SubmittedBatch {
  const items = Array.from({ length: n }, (_, i) => ({ run_id: `r${i + 1}`, custom_id: `c${i + 1}`, attempt: 1 }));
  return { type: 'submitted', seq: 1, batch_id: 'b1', model: 'openai:m', provider: 'openai', submitted_at: 'T0', items } as SubmittedBatch;
}

function status(state: BatchStatus['state'], extra: Partial<BatchStatus> = {}): BatchStatus {
  return { batchId: 'b1', state, done: true, providerStatus: state, counts: { total: 1, succeeded: 0, failed: 0, pending: 0 }, ...extra };
}

function facts(outcome: BatchItemFacts['outcome'], st: BatchStatus, options: { size?: number; attempt?: number } = {}): BatchItemFacts {
  const batch = batchOf(options.size ?? 4);
  const item = { ...batch.items[0]!, attempt: options.attempt ?? 1 };
  return { batch, item, model: 'openai:m', status: st, outcome, endedAt: 'T1' };
}

const priced = () => ({ usd: 0.25, note: undefined });

test('an answer is a final response record, priced at the batch price, whatever the batch state', () => {
  for (const st of [status('completed'), status('cancelled'), status('expired')]) {
    const v = judgeBatchItem(facts(okResult('{}'), st), POLICY, priced);
    assert.equal(v.effect.kind, 'final');
    assert.equal(v.effect.kind === 'final' && v.effect.cell.kind, 'response');
    assert.equal(v.effect.kind === 'final' && v.effect.cell.costUsd, 0.25);
    assert.deepEqual(
      [v.line.outcome, v.line.batch_id, v.line.custom_id, v.line.started_at, v.line.ended_at, v.line.latency_ms],
      ['response', 'b1', 'c1', 'T0', 'T1', null],
    );
    assert.equal(JSON.stringify(v.line.billed_estimate), '{"usd":0.25,"basis":"reported_usage_batch_price"}');
  }
  // a cut-off batch answer is a result too: batch answers are never re-sent with a larger allowance
  const cut = judgeBatchItem(facts({ ...okResult('{'), finishReason: 'length' }, status('completed')), POLICY, priced);
  assert.equal(cut.effect.kind, 'final');
});

test('the decision table of items without an answer', () => {
  const rows: Array<[string, BatchItemFacts, string, string, unknown]> = [
    // name, facts, effect kind, line decision, line error_code
    ['cancelled, no result', facts(undefined, status('cancelled')), 'held_cancelled', 'held_cancelled', 'batch_cancelled'],
    ['cancelled by the user, no result', facts(undefined, status('completed', { cancelledByUser: true })), 'held_cancelled', 'held_cancelled', 'batch_cancelled'],
    ['cancelled, batch_cancelled error', facts(new ProviderError('x', 'client_error', { code: 'batch_cancelled', deterministic: true }), status('cancelled')), 'held_cancelled', 'held_cancelled', 'batch_cancelled'],
    ['cancelled, another error', facts(new ProviderError('boom', 'server_error', { httpStatus: 500 }), status('cancelled')), 'retry', 'retry_in_next_batch', null],
    ['failed batch of 4, no plan', facts(undefined, status('failed')), 'split', 'split_into_smaller_batches', 'batch_failed'],
    ['failed lone request, no plan', facts(undefined, status('failed'), { size: 1 }), 'deterministic', 'deterministic', 'batch_failed'],
    ['expired, retries left', facts(undefined, status('expired'), { attempt: 2 }), 'retry', 'retry_in_next_batch', 'batch_expired'],
    ['expired, retries spent', facts(undefined, status('expired'), { attempt: 3 }), 'final', 'give_up', 'batch_expired'],
    ['ended without a result', facts(undefined, status('completed')), 'retry', 'retry_in_next_batch', null],
    ['server error item', facts(new ProviderError('overloaded', 'server_error', { httpStatus: 529 }), status('completed')), 'retry', 'retry_in_next_batch', null],
    ['client error item', facts(new ProviderError('bad', 'client_error', { httpStatus: 400 }), status('completed')), 'deterministic', 'deterministic', null],
    ['auth item', facts(new ProviderError('key', 'auth', { httpStatus: 401 }), status('completed')), 'deterministic', 'deterministic', null],
    ['quota item', facts(new ProviderError('quota', 'quota', {}), status('completed')), 'quota_stop', 'quota_stop', null],
    ['unknown item', facts(new Error('weird'), status('completed')), 'final', 'give_up', null],
  ];
  for (const [name, f, kind, decision, code] of rows) {
    const v = judgeBatchItem(f, POLICY, priced);
    assert.equal(v.effect.kind, kind, name);
    assert.equal(v.line.decision, decision, name);
    assert.equal(v.line.error_code, code, name);
    assert.equal(v.line.outcome, 'error', name);
    assert.deepEqual(v.line.billed_estimate, { usd: 0, basis: 'batch_item_not_billed' }, name);
    assert.equal(v.line.next_delay_ms, null, name);
  }
});

test('a missing record says why; an item line carries no retry-after or remedy of its own', () => {
  const spent = judgeBatchItem(facts(undefined, status('expired'), { attempt: 3 }), POLICY, priced);
  assert.ok(spent.effect.kind === 'final' && spent.effect.cell.kind === 'missing');
  assert.equal(spent.effect.kind === 'final' && spent.effect.cell.kind === 'missing' && spent.effect.cell.reason, 'timeout: retries exhausted after 3 attempts: batch b1 ended (expired) without a result for this request');
  const limited = judgeBatchItem(facts(new ProviderError('slow', 'rate_limit', { httpStatus: 429, retryAfterMs: 5, requestId: 'q', remedy: 'wait' }), status('completed')), POLICY, priced);
  assert.deepEqual([limited.line.http_status, limited.line.request_id, limited.line.retry_after_ms, 'remedy' in limited.line], [429, 'q', null, false]);
});

test("a failed batch follows the provider's plan: split sizes, retry later, or a refusal that stops the run", () => {
  const split = judgeBatchItem(facts(undefined, status('failed', { failure: { action: 'split', parts: 3, code: 'max_requests_exceeded', message: 'too many' } }), { size: 7 }), POLICY, priced);
  assert.deepEqual(split.effect, { kind: 'split', splitSize: 3, retryAfterMs: null });
  const later = judgeBatchItem(facts(undefined, status('failed', { failure: { action: 'retry_later', parts: 2, retryAfterMs: 600_000, code: 'token_limit_exceeded', message: 'enqueued' } }), { size: 5 }), POLICY, priced);
  assert.deepEqual(later.effect, { kind: 'split', splitSize: 3, retryAfterMs: 600_000 });
  assert.deepEqual([later.line.decision, later.line.next_delay_ms, later.line.error_class], ['retry_later_in_smaller_batches', 600_000, 'server_error']);
  const stop = judgeBatchItem(facts(undefined, status('failed', { failure: { action: 'stop', code: 'model_not_found', message: 'no such model', remedy: 'fix it' } })), POLICY, priced);
  assert.deepEqual(stop.effect, { kind: 'refused', code: 'model_not_found', message: 'no such model', remedy: 'fix it' });
  assert.deepEqual([stop.line.decision, stop.line.error_class, stop.line.error_code], ['deterministic', 'client_error', 'model_not_found']);
});

test('missingResultFailure and failedBatchPlan read the batch end state', () => {
  const errors = [{ code: 'token_limit_exceeded', message: 'Enqueued token limit reached' }];
  const failed = missingResultFailure(batchOf(2), status('failed', { errors }));
  assert.deepEqual([failed.errorClass, failed.code], ['server_error', 'batch_failed']);
  assert.match(failed.message, /failed \(provider status failed: token_limit_exceeded: Enqueued token limit reached\)/);
  assert.equal(missingResultFailure(batchOf(1), status('failed')).errorClass, 'client_error');
  assert.deepEqual(failedBatchPlan(batchOf(2), status('failed'), failed), { action: 'split', parts: 2, code: 'batch_failed', message: failed.message });
  assert.equal(failedBatchPlan(batchOf(1), status('failed'), failed), null);
  assert.equal(failedBatchPlan(batchOf(2), status('expired'), failed), null);
});
