/** OpenAI wire-format mappings on hand-written response bodies (no HTTP). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openAIBatchLineOutcome, openAIResult, promptFilteredResult } from '../../../lib/collect/providers/openai-format';
import { ProviderError } from '../../../lib/provider/contract';

test('usage: cached and reasoning tokens from OpenAI (issue 9 item 14)', () => {
  // OpenAI: prompt_tokens_details.cached_tokens, completion_tokens_details.reasoning_tokens (CompletionUsage)
  const o = openAIResult(
    {
      id: 'c',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: '{}', refusal: null }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 2000, completion_tokens: 700, total_tokens: 2700, prompt_tokens_details: { cached_tokens: 1024 }, completion_tokens_details: { reasoning_tokens: 512 } },
    } as never,
    200,
    null,
  );
  assert.deepEqual(o.usage, { inputTokens: 2000, outputTokens: 700, cachedInputTokens: 1024, reasoningTokens: 512 });
});

test('openAIResult: no usage → null; no choices → server_error', () => {
  const r = openAIResult({ id: 'chatcmpl-1', model: 'm-1', choices: [{ index: 0, message: { role: 'assistant', content: '{}', refusal: null }, finish_reason: 'stop' }] } as never, 200, null);
  assert.equal(r.usage, null);
  assert.equal(r.requestId, 'chatcmpl-1', 'completion id stands in for a missing x-request-id');
  assert.throws(() => openAIResult({ id: 'x', model: 'm', choices: [] } as never, 200, 'req'), (e: unknown) => e instanceof ProviderError && e.errorClass === 'server_error');
});

test('openAIResult: usage without a prompt or completion count is no usage (cost unknown), never 0 tokens (cost $0)', () => {
  // CompletionUsage has both counts required (node_modules/openai/resources/completions.d.ts); a
  // compatible server that sends `usage: {}` or only total_tokens has not said what was billed.
  const base = { id: 'chatcmpl-1', model: 'm-1', choices: [{ index: 0, message: { role: 'assistant', content: '{}', refusal: null }, finish_reason: 'stop' }] };
  for (const usage of [{}, { total_tokens: 90 }, { prompt_tokens: 80 }, { completion_tokens: 10, total_tokens: 90 }, { prompt_tokens: '80', completion_tokens: 10 }]) {
    assert.equal(openAIResult({ ...base, usage } as never, 200, null).usage, null, JSON.stringify(usage));
  }
  assert.deepEqual(openAIResult({ ...base, usage: { prompt_tokens: 0, completion_tokens: 0 } } as never, 200, null).usage, { inputTokens: 0, outputTokens: 0 }, 'a reported 0 stays 0');
});

test('openAIBatchLineOutcome: line-level errors and unreadable lines', () => {
  const cancelled = openAIBatchLineOutcome({ custom_id: 'r1', response: null, error: { code: 'batch_cancelled', message: 'cancelled' } }, []);
  assert.equal(cancelled.customId, 'r1');
  // A cancelled batch stays cancelled: deterministic, not a transient error that would be re-sent.
  assert.ok(cancelled.outcome instanceof ProviderError && cancelled.outcome.errorClass === 'client_error');
  assert.equal(cancelled.outcome.info.code, 'batch_cancelled');
  assert.equal(cancelled.outcome.info.deterministic, true);
  const expired = openAIBatchLineOutcome({ custom_id: 'r3', response: null, error: { code: 'batch_expired', message: 'late' } }, []);
  assert.ok(expired.outcome instanceof ProviderError && expired.outcome.errorClass === 'timeout');
  const quota = openAIBatchLineOutcome(
    { custom_id: 'r2', response: { status_code: 429, request_id: 'q', body: { error: { code: 'insufficient_quota', type: 'insufficient_quota', message: 'quota' } } }, error: null },
    [],
  );
  assert.ok(quota.outcome instanceof ProviderError && quota.outcome.errorClass === 'quota' && quota.outcome.info.requestId === 'q');
  assert.throws(() => openAIBatchLineOutcome({ response: null }, []), ProviderError);
});

test('a 400 content_filter (a filtered prompt) is a content_filter result, live and in a batch line; other 400s stay errors', () => {
  assert.deepEqual(promptFilteredResult(400, 'content_filter', 'req_1'), { text: '', finishReason: 'content_filter', refusal: null, modelVersion: null, usage: null, httpStatus: 400, requestId: 'req_1' });
  assert.equal(promptFilteredResult(400, 'invalid_request_error', null), null);
  assert.equal(promptFilteredResult(500, 'content_filter', null), null);
  const line = openAIBatchLineOutcome({ custom_id: 'r1', response: { status_code: 400, request_id: 'req_2', body: { error: { message: 'filtered', type: null, param: 'prompt', code: 'content_filter' } } } }, []);
  assert.equal((line.outcome as { finishReason?: string }).finishReason, 'content_filter');
  const other = openAIBatchLineOutcome({ custom_id: 'r2', response: { status_code: 400, request_id: 'req_3', body: { error: { message: 'bad', type: 'invalid_request_error', code: null } } } }, []);
  assert.ok(other.outcome instanceof ProviderError);
});
