/** The provider-neutral batch contract (providers/batch.ts): requests checked before anything is sent, failed batches planned. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeLlmServer } from '../../support/fake-llm-server';
import { createBatchClient } from '../../../lib/collect/providers';
import { BATCH_RETRY_LATER_MS, batchModelRefusal, checkBatchModels, checkBatchRequests, planFailedBatch } from '../../../lib/collect/providers/batch';
import { InputError } from '../../../lib/errors';
import { env, request, startBatchServer } from './helpers';

let server: FakeLlmServer;
before(async () => {
  server = await startBatchServer();
});
after(async () => {
  await server.close();
});

test('batch input is checked before anything is sent', async () => {
  const anthropic = createBatchClient('anthropic:claude-test', { baseUrl: server.baseUrl, env });
  const openai = createBatchClient('openai:gpt-test', { baseUrl: server.openaiBaseUrl, env });
  const count = server.requests.length;
  await assert.rejects(anthropic.submitBatch([request('run:1')]), (e: unknown) => e instanceof InputError && e.message.includes('"run:1"'));
  await assert.rejects(openai.submitBatch([request('a'), request('a')]), (e: unknown) => e instanceof InputError && e.message.includes('duplicate run ID a'));
  await assert.rejects(openai.submitBatch([]), InputError);
  assert.equal(server.requests.length, count);
  assert.throws(() => createBatchClient('openai-compatible:llama', { baseUrl: server.openaiBaseUrl, env }), InputError);
  assert.throws(() => createBatchClient('openai:gpt', { env: {} }), (e: unknown) => e instanceof InputError && e.message.includes('OPENAI_API_KEY'));
});

test('the one batch-model check: openai: and anthropic: models only; the refusal names the first other model', () => {
  assert.equal(batchModelRefusal(['openai:gpt-x', 'anthropic:claude-x']), null);
  assert.doesNotThrow(() => checkBatchModels(['openai:gpt-x', 'anthropic:claude-x']));
  assert.deepEqual(batchModelRefusal(['openai:gpt-x', 'simulated:sim-a', 'openai-compatible:llama']), {
    spec: 'simulated:sim-a',
    message: 'simulated:sim-a: --batch works with openai: and anthropic: models only (provider batch APIs); simulated models are collected without --batch',
  });
  assert.throws(
    () => checkBatchModels(['openai:gpt-x', 'simulated:sim-a']),
    (e: unknown) => e instanceof InputError && e.message.startsWith('simulated:sim-a: --batch works with openai: and anthropic: models only') && e.where.item === 'simulated:sim-a',
  );
  assert.throws(() => checkBatchModels(['openai-compatible:llama']), /openai-compatible models are collected without --batch/);
  // The batch client factory uses the same check.
  assert.throws(() => createBatchClient('simulated:sim-a', { env: {} }), /simulated:sim-a: --batch works with openai: and anthropic: models only/);
});

test('checkBatchRequests: Anthropic custom_ids are [A-Za-z0-9_-]{1,64}; OpenAI takes any unique run ID', () => {
  const ok64 = 'a'.repeat(64);
  assert.doesNotThrow(() => checkBatchRequests('anthropic', [request(ok64), request('A-b_9')]));
  assert.throws(() => checkBatchRequests('anthropic', [request('a'.repeat(65))]), (e: unknown) => e instanceof InputError && e.where.item === 'a'.repeat(65));
  assert.throws(() => checkBatchRequests('anthropic', [request('kst/d1/s1')]), /"kst\/d1\/s1" is not a valid Anthropic custom_id/);
  assert.doesNotThrow(() => checkBatchRequests('openai', [request('kst/d1/s1'), request('a'.repeat(65))]));
  assert.throws(() => checkBatchRequests('openai', [request('x'), request('y'), request('x')]), (e: unknown) => e instanceof InputError && e.message === 'batch: duplicate run ID x');
  assert.throws(() => checkBatchRequests('anthropic', []), /a batch needs at least one request/);
});

test('planFailedBatch: token limit → retry in 10 min (halves when it can), size → split, anything else → stop with the line', () => {
  const token = { code: 'token_limit_exceeded', message: 'Enqueued token limit reached' };
  assert.equal(BATCH_RETRY_LATER_MS, 600_000);
  assert.deepEqual(planFailedBatch([token], 40), { action: 'retry_later', parts: 2, retryAfterMs: 600_000, code: 'token_limit_exceeded', message: 'Enqueued token limit reached' });
  assert.deepEqual(planFailedBatch([{ code: 'invalid_json_line', message: 'x', line: 3 }, token], 1), { action: 'retry_later', parts: 1, retryAfterMs: 600_000, code: 'token_limit_exceeded', message: 'Enqueued token limit reached' }, 'the token limit wins over other errors');
  assert.deepEqual(planFailedBatch([{ code: 'max_file_size_exceeded', message: 'too big' }], 7), { action: 'split', parts: 2, code: 'max_file_size_exceeded', message: 'too big' });
  const single = planFailedBatch([{ code: 'max_file_size_exceeded', message: 'too big' }], 1);
  assert.equal(single.action, 'stop', 'one request cannot be split');
  const stop = planFailedBatch([{ code: 'model_not_found', message: 'no such model', line: 12 }], 5);
  assert.equal(stop.action, 'stop');
  assert.equal(stop.message, 'no such model (input line 12)');
  assert.deepEqual(planFailedBatch([], 5).code, 'batch_failed');
});
