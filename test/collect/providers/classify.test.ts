import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyAnthropicErrorType,
  classifyStatus,
  isQuotaExhaustion,
  parseRetryAfterMs,
  providerErrorFromHttp,
  redactSecrets,
} from '../../../lib/collect/providers/classify';
import { isTruncated, parseModelSpec, ProviderError } from '../../../lib/collect/providers/types';
import { InputError } from '../../../lib/errors';

const headers = (h: Record<string, string>) => new Headers(h);

test('parseRetryAfterMs: retry-after-ms wins, seconds scale by 1000, HTTP dates count from now', () => {
  assert.equal(parseRetryAfterMs(headers({ 'retry-after': '2.5' })), 2500);
  assert.equal(parseRetryAfterMs(headers({ 'retry-after-ms': '750', 'retry-after': '9' })), 750);
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(parseRetryAfterMs(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now), 30_000);
  assert.equal(parseRetryAfterMs(headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now), 0);
  assert.equal(parseRetryAfterMs(headers({ 'retry-after': 'soon' })), undefined);
  assert.equal(parseRetryAfterMs(headers({})), undefined);
  assert.equal(parseRetryAfterMs(null), undefined);
});

test('classifyStatus: 429 splits into quota and rate_limit; other statuses by range', () => {
  assert.equal(classifyStatus(429, 'insufficient_quota', 'insufficient_quota', 'You exceeded your current quota'), 'quota');
  assert.equal(classifyStatus(429, 'rate_limit_exceeded', 'requests', 'Rate limit reached for gpt-4 on requests per day (RPD): Limit 200'), 'quota');
  assert.equal(classifyStatus(429, 'rate_limit_exceeded', 'tokens', 'Rate limit reached on tokens per min (TPM)'), 'rate_limit');
  assert.equal(classifyStatus(429, null, 'rate_limit_error', 'exceeded your monthly usage limit'), 'quota');
  assert.equal(classifyStatus(400, null, 'invalid_request_error', 'Your credit balance is too low to access the Anthropic API.'), 'quota');
  assert.equal(classifyStatus(400, null, 'invalid_request_error', 'max_tokens: must be at most 8192 per day of the week'), 'client_error');
  assert.equal(classifyStatus(401), 'auth');
  assert.equal(classifyStatus(403), 'auth');
  assert.equal(classifyStatus(404), 'client_error');
  assert.equal(classifyStatus(408), 'timeout');
  assert.equal(classifyStatus(422), 'client_error');
  assert.equal(classifyStatus(500), 'server_error');
  assert.equal(classifyStatus(503), 'server_error');
  assert.equal(classifyStatus(529), 'server_error');
});

test('isQuotaExhaustion: codes and messages', () => {
  assert.equal(isQuotaExhaustion('insufficient_quota'), true);
  assert.equal(isQuotaExhaustion(null, 'billing_error'), true);
  assert.equal(isQuotaExhaustion(null, null, 'Too many requests, slow down'), false);
});

test('classifyAnthropicErrorType covers the documented error types', () => {
  assert.equal(classifyAnthropicErrorType('overloaded_error'), 'server_error');
  assert.equal(classifyAnthropicErrorType('api_error'), 'server_error');
  assert.equal(classifyAnthropicErrorType('rate_limit_error', 'per-minute limit'), 'rate_limit');
  assert.equal(classifyAnthropicErrorType('rate_limit_error', 'daily limit reached'), 'quota');
  assert.equal(classifyAnthropicErrorType('billing_error'), 'quota');
  assert.equal(classifyAnthropicErrorType('authentication_error'), 'auth');
  assert.equal(classifyAnthropicErrorType('permission_error'), 'auth');
  assert.equal(classifyAnthropicErrorType('invalid_request_error', 'bad schema'), 'client_error');
  assert.equal(classifyAnthropicErrorType('not_found_error'), 'client_error');
  assert.equal(classifyAnthropicErrorType(undefined), 'server_error');
});

test('redactSecrets removes the given secrets and key-shaped tokens', () => {
  const key = 'sk-proj-PLANTEDsecret0123456789';
  assert.equal(redactSecrets(`bad key ${key}!`, [key]), 'bad key [redacted]!');
  assert.equal(redactSecrets('Incorrect API key provided: sk-pro****6789.', []), 'Incorrect API key provided: [redacted].');
  assert.equal(redactSecrets('plain words', ['x']), 'plain words');
});

test('providerErrorFromHttp: message, class and info; no key in the message', () => {
  const key = 'sk-PLANTED-abcdef123456';
  const err = providerErrorFromHttp(
    'openai',
    { status: 429, headers: headers({ 'retry-after': '3' }), code: 'rate_limit_exceeded', type: 'requests', message: `limit for ${key}`, requestId: 'req_1' },
    [key],
  );
  assert.ok(err instanceof ProviderError);
  assert.equal(err.errorClass, 'rate_limit');
  assert.deepEqual(err.info, { httpStatus: 429, retryAfterMs: 3000, code: 'rate_limit_exceeded', requestId: 'req_1' });
  assert.equal(err.message, 'openai HTTP 429 rate_limit_exceeded: limit for [redacted]');
  assert.deepEqual(JSON.parse(JSON.stringify(err)), {
    name: 'ProviderError',
    message: 'openai HTTP 429 rate_limit_exceeded: limit for [redacted]',
    errorClass: 'rate_limit',
    info: { httpStatus: 429, retryAfterMs: 3000, code: 'rate_limit_exceeded', requestId: 'req_1' },
  });
});

test('parseModelSpec splits at the first colon and rejects bad specs', () => {
  assert.deepEqual(parseModelSpec('openai:gpt-4o-2024-08-06'), { provider: 'openai', model: 'gpt-4o-2024-08-06' });
  assert.deepEqual(parseModelSpec('openai-compatible:llama3.1:8b'), { provider: 'openai-compatible', model: 'llama3.1:8b' });
  assert.deepEqual(parseModelSpec('anthropic:claude-sonnet-4-5'), { provider: 'anthropic', model: 'claude-sonnet-4-5' });
  assert.deepEqual(parseModelSpec('simulated:sim-a'), { provider: 'simulated', model: 'sim-a' });
  for (const bad of ['gpt-4o', 'openai:', ':gpt', 'google:gemini', 'openai:gpt 4']) {
    assert.throws(() => parseModelSpec(bad), (e: unknown) => e instanceof InputError && e.message.includes(JSON.stringify(bad)), bad);
  }
});

test('isTruncated recognises both providers\' cut-off reasons', () => {
  assert.equal(isTruncated({ finishReason: 'length' }), true);
  assert.equal(isTruncated({ finishReason: 'max_tokens' }), true);
  assert.equal(isTruncated({ finishReason: 'stop' }), false);
  assert.equal(isTruncated({ finishReason: 'tool_use' }), false);
  assert.equal(isTruncated({ finishReason: null }), false);
});
