/** Anthropic wire-format mappings on hand-written message bodies (no HTTP). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anthropicBatchItemOutcome, anthropicResult } from '../../../lib/collect/providers/anthropic-format';
import { ProviderError } from '../../../lib/provider/contract';

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

test('anthropicResult: usage without input_tokens or output_tokens is no usage (cost unknown), never 0 tokens', () => {
  // Usage has both counts required (node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts).
  for (const usage of [{}, { input_tokens: 100 }, { output_tokens: 9 }, { cache_read_input_tokens: 90, output_tokens: 9 }]) {
    assert.equal(anthropicResult(anthropicMessage({ usage }), null, 200, null).usage, null, JSON.stringify(usage));
  }
});

test('usage: cached and reasoning tokens from Anthropic (issue 9 item 14)', () => {
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
