import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  classifyAnthropicErrorType,
  classifyStatus,
  isQuotaExhaustion,
  parseRateLimitResetMs,
  parseResetDurationMs,
  parseShouldRetry,
  parseRetryAfterMs,
  providerErrorFromHttp,
  redactSecrets,
  redirectTarget,
} from '../../../lib/collect/providers/classify';
import { ProviderError } from '../../../lib/provider/contract';

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
  // Issue 9 item 1: words in a message never make a 429 a quota stop; codes and types do.
  assert.equal(classifyStatus(429, 'rate_limit_exceeded', 'requests', 'Rate limit reached for gpt-4 on requests per day (RPD): Limit 200'), 'rate_limit');
  assert.equal(classifyStatus(429, 'rate_limit_exceeded', 'requests', '… add a payment method at https://platform.openai.com/account/billing'), 'rate_limit');
  assert.equal(classifyStatus(429, 'rate_limit_exceeded', 'tokens', 'Rate limit reached on tokens per min (TPM)'), 'rate_limit');
  assert.equal(classifyStatus(429, null, 'rate_limit_error', 'exceeded your monthly usage limit'), 'rate_limit');
  // Item 3: Anthropic spend limits by details.error_code (429) and the code-less 400s.
  assert.equal(classifyStatus(429, 'enforced_spend_limit_reached', 'rate_limit_error', 'anything'), 'quota');
  assert.equal(classifyStatus(429, 'contract_spend_limit_reached', 'rate_limit_error', 'anything'), 'quota');
  assert.equal(classifyStatus(429, 'ramp_limit_exceeded', 'rate_limit_error', 'anything'), 'rate_limit');
  assert.equal(classifyStatus(402, 'linked_organization_spend_limit_reached', 'billing_error'), 'quota');
  assert.equal(classifyStatus(400, null, 'invalid_request_error', 'Your credit balance is too low to access the Anthropic API.'), 'quota');
  assert.equal(classifyStatus(400, null, 'invalid_request_error', 'You have reached your specified API usage limits. You will regain access on 2026-06-01 at 00:00 UTC.'), 'quota');
  assert.equal(classifyStatus(400, null, 'invalid_request_error', 'You have reached your specified workspace API usage limits.'), 'quota');
  // Anchored: the sentence quoted inside another error is not a spend limit.
  assert.equal(classifyStatus(400, null, 'invalid_request_error', 'messages.0: "You have reached your specified API usage limits" is not valid'), 'client_error');
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

test('isQuotaExhaustion: codes and types only, never the message', () => {
  assert.equal(isQuotaExhaustion('insufficient_quota'), true);
  assert.equal(isQuotaExhaustion(null, 'billing_error'), true);
  assert.equal(isQuotaExhaustion('enforced_spend_limit_reached', 'rate_limit_error'), true);
  assert.equal(isQuotaExhaustion(null, null), false);
  assert.equal(isQuotaExhaustion('rate_limit_exceeded', 'requests'), false);
});

test('classifyAnthropicErrorType covers the documented error types', () => {
  assert.equal(classifyAnthropicErrorType('overloaded_error'), 'server_error');
  assert.equal(classifyAnthropicErrorType('api_error'), 'server_error');
  assert.equal(classifyAnthropicErrorType('rate_limit_error', 'per-minute limit'), 'rate_limit');
  assert.equal(classifyAnthropicErrorType('rate_limit_error', 'daily limit reached'), 'rate_limit');
  assert.equal(classifyAnthropicErrorType('rate_limit_error', 'x', 'enforced_spend_limit_reached'), 'quota');
  assert.equal(classifyAnthropicErrorType('invalid_request_error', 'You have reached your specified API usage limits.'), 'quota');
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
  // undici's refusal of a hop quotes the URL whole (review4 M2).
  assert.equal(
    redactSecrets('Request cannot be constructed from a URL that includes credentials: http://gwuser:GWSECRET@127.0.0.1:4000/v1/', []),
    'Request cannot be constructed from a URL that includes credentials: http://[redacted]@127.0.0.1:4000/v1/',
  );
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
  assert.deepEqual(err.info, { httpStatus: 429, retryAfterMs: 3000, code: 'rate_limit_exceeded', requestId: 'req_1', remedy: err.info.remedy });
  assert.match(err.info.remedy!, /backs off/);
  assert.equal(err.message, 'openai HTTP 429 rate_limit_exceeded: limit for [redacted]');
  assert.deepEqual(JSON.parse(JSON.stringify(err)), {
    name: 'ProviderError',
    message: 'openai HTTP 429 rate_limit_exceeded: limit for [redacted]',
    errorClass: 'rate_limit',
    info: { httpStatus: 429, retryAfterMs: 3000, code: 'rate_limit_exceeded', requestId: 'req_1', remedy: err.info.remedy },
  });
});

test('rate-limit waits: x-ratelimit-reset-* of the exhausted window, anthropic-ratelimit-*-reset, x-should-retry', () => {
  assert.equal(parseResetDurationMs('1s'), 1000);
  assert.equal(parseResetDurationMs('6m0s'), 360_000);
  assert.equal(parseResetDurationMs('20ms'), 20);
  assert.equal(parseResetDurationMs('1h2m3.5s'), 3_723_500);
  assert.equal(parseResetDurationMs('soon'), undefined);
  // requests window exhausted (remaining 0): its reset counts, not the tokens window's
  const h = headers({ 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1m30s', 'x-ratelimit-remaining-tokens': '9', 'x-ratelimit-reset-tokens': '6s' });
  assert.equal(parseRateLimitResetMs(h), 90_000);
  // nothing says which window: the longest reset
  assert.equal(parseRateLimitResetMs(headers({ 'x-ratelimit-reset-requests': '2s', 'x-ratelimit-reset-tokens': '7s' })), 7000);
  const now = Date.parse('2026-12-01T10:00:00Z');
  assert.equal(parseRateLimitResetMs(headers({ 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': '2026-12-01T10:00:42Z' }), now), 42_000);
  // retry-after wins over reset headers; reset headers only count for a 429
  const rl = providerErrorFromHttp('openai', { status: 429, headers: h, code: 'rate_limit_exceeded', type: 'requests' }, []);
  assert.equal(rl.info.retryAfterMs, 90_000);
  const ra = providerErrorFromHttp('openai', { status: 429, headers: headers({ 'retry-after': '2', 'x-ratelimit-reset-requests': '1m' }), code: 'rate_limit_exceeded' }, []);
  assert.equal(ra.info.retryAfterMs, 2000);
  assert.equal(providerErrorFromHttp('openai', { status: 500, headers: h }, []).info.retryAfterMs, undefined);
  assert.equal(parseShouldRetry(headers({ 'x-should-retry': 'false' })), false);
  const no = providerErrorFromHttp('openai', { status: 503, headers: headers({ 'x-should-retry': 'false' }) }, []);
  assert.equal(no.errorClass, 'server_error');
  assert.equal(no.info.deterministic, undefined, 'x-should-retry: false means "do not retry", not "deterministic": the breaker does not count a 503');
  assert.equal(no.info.shouldRetry, false);
  const yes = providerErrorFromHttp('openai', { status: 400, headers: headers({ 'x-should-retry': 'true' }) }, []);
  assert.equal(yes.info.deterministic, false);
});

test('remedies and determinism from code, type and blamed parameter', () => {
  const e = (f: Parameters<typeof providerErrorFromHttp>[1]) => providerErrorFromHttp('openai', f, [], { keyVariable: 'OPENAI_API_KEY', host: 'api.openai.com' });
  const missing = e({ status: 404, code: 'model_not_found', type: 'invalid_request_error' });
  assert.equal(missing.info.deterministic, true);
  assert.match(missing.info.remedy!, /config\/models\.json/);
  const cap = e({ status: 400, code: 'invalid_value', param: 'max_tokens' });
  assert.match(cap.info.remedy!, /lower --max-output-tokens/);
  assert.equal(cap.info.param, 'max_tokens');
  assert.match(e({ status: 400, code: 'unsupported_parameter', param: 'max_tokens' }).info.remedy!, /"token_field": "max_completion_tokens"/);
  assert.match(e({ status: 400, code: 'unsupported_parameter', param: 'temperature' }).info.remedy!, /does not accept temperature/);
  assert.match(e({ status: 401, code: 'invalid_api_key' }).info.remedy!, /OPENAI_API_KEY was refused by api\.openai\.com/);
  assert.match(e({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' }).info.remedy!, /add credit/);
  assert.match(e({ status: 429, code: 'enforced_spend_limit_reached', type: 'rate_limit_error' }).info.remedy!, /1st of next month/);
  assert.equal(e({ status: 409 }).info.deterministic, false);
  assert.equal(e({ status: 409, headers: headers({ 'x-should-retry': 'false' }) }).info.deterministic, true, 'the server said not to retry the 409: held like a 400');
  assert.equal(e({ status: 400, headers: headers({ 'x-should-retry': 'false' }) }).info.deterministic, true);
  assert.equal(e({ status: 500 }).info.deterministic, undefined);
});

test('a refused redirect names where it points with its credentials masked, a relative Location too (review3 M1)', () => {
  const redirect = (location: string, context = {}) =>
    providerErrorFromHttp('openai:m', { status: 302, headers: headers({ location }), code: null, type: null, param: null, message: null, requestId: null }, ['sk-x'], context);
  const absolute = redirect('https://gw.example/v2/chat/completions?sig=SECRET123');
  assert.equal(absolute.message, 'openai:m HTTP 302: redirected to https://gw.example/v2/chat/completions?sig=[redacted]');
  // Relative: read against the request URL, then the one redaction.
  const relative = redirect('/v2/chat/completions?sig=SECRET123', { requestUrl: 'https://gw.example/v1/chat/completions' });
  assert.equal(relative.message, 'openai:m HTTP 302: redirected to https://gw.example/v2/chat/completions?sig=[redacted]');
  // Without the request URL the relative form stays, masked all the same.
  assert.equal(redirect('/v2/chat/completions?api-version=1&sig=SECRET123').message, 'openai:m HTTP 302: redirected to /v2/chat/completions?api-version=1&sig=[redacted]');
  assert.equal(redirectTarget('completions?token=T0K', 'https://gw.example/v1/chat/x'), 'https://gw.example/v1/chat/completions?token=[redacted]');
  assert.equal(redirectTarget('/v1/chat/completions'), '/v1/chat/completions', 'nothing to mask: unchanged');
  for (const e of [absolute, relative]) assert.ok(!JSON.stringify(e).includes('SECRET123'), e.message);
  // review3 L1: the Location is a whole endpoint; the base URL is it without the endpoint path.
  assert.match(absolute.info.remedy!, /without its endpoint path \(\/chat\/completions, \/v1\/messages\)/);
});

test('a same-origin 307/308 that comes back was followed to the hop limit: the remedy says so, not "not followed" (review4 L5)', () => {
  const redirect = (status: number, location: string) =>
    providerErrorFromHttp('openai:m', { status, headers: headers({ location }), code: null, type: null, param: null, message: null, requestId: null }, [], { requestUrl: 'https://gw.example/v1/chat/completions' });
  for (const [status, location] of [[307, '/v1/chat/completions/'], [308, 'https://gw.example/v2/chat/completions']] as const) {
    const remedy = redirect(status, location).info.remedy!;
    assert.match(remedy, /kept redirecting on its own origin \(followed 5 times, then given up\)/, `${status} ${location}`);
    assert.doesNotMatch(remedy, /not followed/);
  }
  // Not followed at all: another origin, a 302, user info in the Location.
  for (const [status, location] of [[307, 'https://elsewhere.example/v1/chat/completions'], [302, '/v1/chat/completions/'], [308, 'https://u:p@gw.example/v1/chat/completions/']] as const) {
    assert.match(redirect(status, location).info.remedy!, /which is not followed/, `${status} ${location}`);
  }
});
