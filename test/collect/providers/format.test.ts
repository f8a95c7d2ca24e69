/** Wire-format mappings on hand-written provider bodies (no HTTP). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicBatchItemOutcome, anthropicResult } from '../../../lib/collect/providers/anthropic-format';
import { openAIBatchLineOutcome, openAIResult } from '../../../lib/collect/providers/openai-format';
import { ProviderError } from '../../../lib/collect/providers/types';

const anthropicMessage = (over: Record<string, unknown>) =>
  ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-x-20250101',
    content: [],
    stop_reason: 'tool_use',
    stop_sequence: null,
    stop_details: null,
    usage: { input_tokens: 100, output_tokens: 9, cache_creation_input_tokens: 20, cache_read_input_tokens: 30 },
    ...over,
  }) as never;

test('anthropicResult: tool input as JSON, input tokens include cache writes and reads', () => {
  const r = anthropicResult(
    anthropicMessage({ content: [{ type: 'text', text: 'thinking aloud' }, { type: 'tool_use', id: 't', name: 'answer', input: { b: [1], a: 'x' } }] }),
    'answer',
    200,
    'req_9',
  );
  assert.deepEqual(r, {
    text: '{"b":[1],"a":"x"}',
    finishReason: 'tool_use',
    refusal: null,
    modelVersion: 'claude-x-20250101',
    usage: { inputTokens: 150, outputTokens: 9, cachedInputTokens: 30 },
    httpStatus: 200,
    requestId: 'req_9',
  });
});

test('usage: cached and reasoning tokens from both providers (issue 9 item 14)', () => {
  // Anthropic: cache_read_input_tokens and output_tokens_details.thinking_tokens (Usage in
  // node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts)
  const a = anthropicResult(
    anthropicMessage({
      content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'text', text: '{"a":1}' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 50, cache_creation_input_tokens: null, cache_read_input_tokens: 90, output_tokens_details: { thinking_tokens: 35 } },
    }),
    null,
    200,
    null,
  );
  assert.equal(a.text, '{"a":1}', 'thinking blocks are not part of the answer');
  assert.deepEqual(a.usage, { inputTokens: 100, outputTokens: 50, cachedInputTokens: 90, reasoningTokens: 35 });
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

test('anthropicResult: without the named tool the text blocks are the answer; refusal falls back to text', () => {
  const prose = anthropicResult(anthropicMessage({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], stop_reason: 'end_turn' }), 'answer', 200, null);
  assert.equal(prose.text, 'a\nb');
  const other = anthropicResult(anthropicMessage({ content: [{ type: 'tool_use', id: 't', name: 'other', input: {} }] }), 'answer', 200, null);
  assert.equal(other.text, '');
  const refused = anthropicResult(anthropicMessage({ content: [{ type: 'text', text: 'I cannot.' }], stop_reason: 'refusal' }), 'answer', 200, null);
  assert.equal(refused.refusal, 'I cannot.');
  const bare = anthropicResult(anthropicMessage({ content: [], stop_reason: 'refusal' }), 'answer', 200, null);
  assert.equal(bare.refusal, 'refused (stop_reason "refusal")');
});

test('openAIResult: no usage → null; no choices → server_error', () => {
  const r = openAIResult({ id: 'chatcmpl-1', model: 'm-1', choices: [{ index: 0, message: { role: 'assistant', content: '{}', refusal: null }, finish_reason: 'stop' }] } as never, 200, null);
  assert.equal(r.usage, null);
  assert.equal(r.requestId, 'chatcmpl-1', 'completion id stands in for a missing x-request-id');
  assert.throws(() => openAIResult({ id: 'x', model: 'm', choices: [] } as never, 200, 'req'), (e: unknown) => e instanceof ProviderError && e.errorClass === 'server_error');
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

test('anthropicBatchItemOutcome: canceled, rate-limited, and a key echoed in an error message', () => {
  const key = 'sk-ant-PLANTED-77777777';
  const canceled = anthropicBatchItemOutcome({ custom_id: 'c', result: { type: 'canceled' } }, [key]);
  assert.ok(canceled.outcome instanceof ProviderError && canceled.outcome.errorClass === 'client_error' && canceled.outcome.info.code === 'batch_cancelled');
  const spend = anthropicBatchItemOutcome(
    { custom_id: 'f', result: { type: 'errored', error: { type: 'error', error: { type: 'rate_limit_error', message: 'cap', details: { error_code: 'enforced_spend_limit_reached' } } } } },
    [],
  );
  assert.ok(spend.outcome instanceof ProviderError && spend.outcome.errorClass === 'quota' && spend.outcome.info.code === 'enforced_spend_limit_reached');
  const limited = anthropicBatchItemOutcome(
    { custom_id: 'd', result: { type: 'errored', error: { type: 'error', error: { type: 'rate_limit_error', message: `slow down ${key}` } } } },
    [key],
  );
  assert.ok(limited.outcome instanceof ProviderError && limited.outcome.errorClass === 'rate_limit');
  assert.ok(!limited.outcome.message.includes(key));
  assert.throws(() => anthropicBatchItemOutcome({ custom_id: 'e', result: { type: 'mystery' } }, []), ProviderError);
});
