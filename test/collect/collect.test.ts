/** The pieces of collect.ts around the engine: batch model checks, the --tpm floor, settings, retry policy, pre-flight requests. (Whole runs: engine, lifecycle, batch-mode tests.) */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { checkBatchModels, checkTokenBudget, modelSettings, outputCapOf, retryPolicyFor } from '../../lib/collect/collect';
import type { Job } from '../../lib/collect/engine';

const job = (runId: string, model: string, system: string, user: string): Job<unknown> => ({
  runId,
  model,
  meta: {},
  request: () => ({ system, user, schemaName: 'a', jsonSchema: { type: 'object' } }),
});

test('--batch takes openai: and anthropic: models only; the refusal names the model', () => {
  assert.doesNotThrow(() => checkBatchModels(['openai:gpt-x', 'anthropic:claude-x']));
  assert.throws(
    () => checkBatchModels(['openai:gpt-x', 'simulated:sim-a']),
    (e: unknown) => e instanceof InputError && e.message.startsWith('simulated:sim-a: --batch works with openai: and anthropic: models only') && e.where.item === 'simulated:sim-a',
  );
  assert.throws(() => checkBatchModels(['openai-compatible:llama']), /openai-compatible models are collected without --batch/);
});

test('--tpm floor worked by hand: ceil(8 characters / 4) = 2 prompt tokens + 100 output = 102 reserved by the largest call', () => {
  const jobs = [job('a', 'm', 'ab', 'cd'), job('b', 'm', 'abcd', 'efgh')]; // 1 + 100 and 2 + 100
  assert.doesNotThrow(() => checkTokenBudget(jobs, 100, 102));
  assert.doesNotThrow(() => checkTokenBudget(jobs, 100, undefined), 'no --tpm: no check');
  assert.throws(
    () => checkTokenBudget(jobs, 100, 101),
    (e: unknown) => e instanceof InputError && e.message === '--tpm 101 is below the 102 tokens one call reserves (prompt estimate + --max-output-tokens 100); raise --tpm or lower --max-output-tokens',
  );
});

test('modelSettings: only models that report settings; null when none does', () => {
  assert.equal(modelSettings(['simulated:sim-a'], () => undefined), null);
  assert.deepEqual(modelSettings(['a', 'b'], (m) => (m === 'b' ? { api: 'messages' } : undefined)), { b: { api: 'messages' } });
});

test('retryPolicyFor: the retry horizon is also the quota threshold; the backoff base only when a test sets it', () => {
  assert.deepEqual(retryPolicyFor({ maxRetries: 5 }, {}), { maxRetries: 5 });
  assert.deepEqual(retryPolicyFor({ maxRetries: 2, retryHorizonMs: 60_000 }, { retryBaseDelayMs: 1 }), { maxRetries: 2, baseDelayMs: 1, retryHorizonMs: 60_000, quotaThresholdMs: 60_000 });
});

test('outputCapOf: the output cap the settings name, null when absent or not a positive integer', () => {
  assert.equal(outputCapOf({ output_cap: 16384 }), 16384);
  assert.equal(outputCapOf({ output_cap: null }), null);
  assert.equal(outputCapOf({ output_cap: 0 }), null);
  assert.equal(outputCapOf(undefined), null);
});
