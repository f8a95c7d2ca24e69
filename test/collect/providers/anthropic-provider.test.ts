/** anthropic-provider.ts without HTTP: the client's options, the non-streaming limit and SDK error mapping. (Against the fake server: live.test.ts.) */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { anthropicSdk, createAnthropicClient, nonStreamingTimeoutMs, onceSdkWarnings, translateAnthropicError } from '../../../lib/collect/providers/anthropic-provider';
import { ProviderError } from '../../../lib/provider/contract';

const KEY = 'sk-ant-PLANTED-1234567890';

test('the client: retries off, the given timeout (default 60 s)', () => {
  const c = createAnthropicClient({ apiKey: KEY, baseURL: 'http://127.0.0.1:9' });
  assert.equal(c.maxRetries, 0);
  assert.equal(c.timeout, 60_000);
  assert.equal(c.baseURL, 'http://127.0.0.1:9');
  assert.equal(createAnthropicClient({ apiKey: KEY, baseURL: 'http://x', timeoutMs: 7_000 }).timeout, 7_000);
});

test('non-streaming limit worked by hand: 60 min × max_tokens / 128,000 must not exceed 10 min, i.e. max_tokens ≤ 21,333', () => {
  const c = createAnthropicClient({ apiKey: KEY, baseURL: 'http://x' });
  // 3,600,000 ms × 21,333 / 128,000 = 599,990.6 ms ≤ 600,000: accepted, with the SDK's 10-minute timeout
  assert.equal(nonStreamingTimeoutMs(c, 21_333), 600_000);
  assert.equal(nonStreamingTimeoutMs(c, 1_000), 600_000);
  // 3,600,000 × 21,334 / 128,000 = 600,018.75 ms > 600,000: the SDK wants streaming
  assert.equal(nonStreamingTimeoutMs(c, 21_334), null);
});

test('SDK errors: connection timeout → timeout; HTTP 529 overloaded → server_error; 401 → auth; the key never shows', () => {
  const sdk = anthropicSdk();
  const t = translateAnthropicError(new sdk.APIConnectionTimeoutError(), [KEY]);
  assert.equal((t as ProviderError).errorClass, 'timeout');
  assert.equal(t.message, 'anthropic: no complete answer within the timeout');
  const overloaded = sdk.APIError.generate(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, undefined, new Headers({ 'request-id': 'req_9' }));
  const o = translateAnthropicError(overloaded, [KEY]);
  assert.ok(o instanceof ProviderError);
  assert.equal(o.errorClass, 'server_error');
  assert.equal(o.info.httpStatus, 529);
  assert.equal(o.info.requestId, 'req_9');
  const auth = translateAnthropicError(sdk.APIError.generate(401, { type: 'error', error: { type: 'authentication_error', message: `invalid x-api-key ${KEY}` } }, undefined, new Headers()), [KEY]);
  assert.equal((auth as ProviderError).errorClass, 'auth');
  assert.ok(!JSON.stringify(auth).includes(KEY) && !auth.message.includes(KEY), auth.message);
});

test('a ProviderError passes through; our own bugs are returned untouched', () => {
  const own = new ProviderError('ours', 'timeout');
  assert.equal(translateAnthropicError(own, []), own);
  const bug = new RangeError('bad index');
  assert.equal(translateAnthropicError(bug, []), bug);
});

test('the SDK\'s per-request deprecation warning is printed once per model; other warnings pass', () => {
  const printed: unknown[][] = [];
  const target = { warn: (...args: unknown[]) => void printed.push(args) };
  onceSdkWarnings(target);
  // The texts of node_modules/@anthropic-ai/sdk/resources/messages/messages.js `create`.
  const deprecated = (m: string) => `The model '${m}' is deprecated and will reach end-of-life on 2026-11-30\nPlease migrate to a newer model.`;
  for (let i = 0; i < 3; i++) target.warn(deprecated('claude-sonnet-4-5'));
  target.warn(deprecated('claude-3-7-sonnet-latest'));
  target.warn("Using Claude with claude-opus-4-6 and 'thinking.type=enabled' is deprecated. Use adaptive");
  target.warn("Using Claude with claude-opus-4-6 and 'thinking.type=enabled' is deprecated. Use adaptive");
  target.warn('something else');
  target.warn('something else');
  assert.equal(printed.length, 5);
  const sdk = readFileSync(require.resolve('@anthropic-ai/sdk/resources/messages/messages.js'), 'utf8');
  assert.ok(sdk.includes("console.warn(`The model '${body.model}' is deprecated"), 'the SDK still prints this text');
  assert.ok(sdk.includes("console.warn(`Using Claude with ${body.model} and 'thinking.type=enabled' is deprecated"));
});
