/** openai-provider.ts without HTTP: the client's options and how each SDK error becomes a ProviderError. (Against the fake server: live.test.ts.) */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOpenAIClient, openAISdk, translateOpenAIError } from '../../../lib/collect/providers/openai-provider';
import { startDeadline } from '../../../lib/collect/providers/attempt';
import { ProviderError } from '../../../lib/provider/contract';

const KEY = 'sk-openai-PLANTED-1234567890';

test('the client: retries off, the given timeout (default 60 s), organisation and project as given', () => {
  const c = createOpenAIClient({ apiKey: KEY, baseURL: 'http://127.0.0.1:9/v1', organization: 'org-1', project: null });
  assert.equal(c.maxRetries, 0);
  assert.equal(c.timeout, 60_000);
  assert.equal(c.baseURL, 'http://127.0.0.1:9/v1');
  assert.equal(c.organization, 'org-1');
  assert.equal(c.project, null);
  assert.equal(createOpenAIClient({ apiKey: KEY, baseURL: 'http://x/v1', timeoutMs: 5_000 }).timeout, 5_000);
});

test('SDK errors: connection timeout → timeout; connection refused → connection with the errno code', () => {
  const sdk = openAISdk();
  const t = translateOpenAIError(new sdk.APIConnectionTimeoutError(), 'openai', [KEY]);
  assert.ok(t instanceof ProviderError);
  assert.equal(t.errorClass, 'timeout');
  assert.equal(t.message, 'openai: no complete answer within the timeout');
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const c = translateOpenAIError(new sdk.APIConnectionError({ cause: refused }), 'openai-compatible', [KEY]);
  assert.ok(c instanceof ProviderError);
  assert.equal(c.errorClass, 'connection');
  assert.equal(c.info.code, 'ECONNREFUSED');
});

test('an HTTP 429 with retry-after → rate_limit with the wait in ms; the key echoed in the message is redacted', () => {
  const sdk = openAISdk();
  const err = sdk.APIError.generate(
    429,
    { error: { message: `Rate limit reached for key ${KEY}`, type: 'requests', code: 'rate_limit_exceeded', param: null } },
    undefined,
    new Headers({ 'retry-after': '2', 'x-request-id': 'req_1' }),
  );
  const p = translateOpenAIError(err, 'openai', [KEY]);
  assert.ok(p instanceof ProviderError);
  assert.equal(p.errorClass, 'rate_limit');
  assert.equal(p.info.httpStatus, 429);
  assert.equal(p.info.retryAfterMs, 2_000);
  assert.equal(p.info.code, 'rate_limit_exceeded');
  assert.equal(p.info.requestId, 'req_1');
  assert.ok(!JSON.stringify(p).includes(KEY) && !p.message.includes(KEY), p.message);
});

test('HTTP 401 → auth; 404 model_not_found → client_error', () => {
  const sdk = openAISdk();
  const auth = translateOpenAIError(sdk.APIError.generate(401, { error: { message: 'bad key', type: 'invalid_request_error', code: 'invalid_api_key' } }, undefined, new Headers()), 'openai', []);
  assert.equal((auth as ProviderError).errorClass, 'auth');
  const gone = translateOpenAIError(sdk.APIError.generate(404, { error: { message: 'no such model', type: 'invalid_request_error', code: 'model_not_found' } }, undefined, new Headers()), 'openai', []);
  assert.equal((gone as ProviderError).errorClass, 'client_error');
  assert.equal((gone as ProviderError).info.httpStatus, 404);
});

test('the caller\'s abort wins; a ProviderError passes through; an SDK parse error is server_error; our own bugs are returned untouched', () => {
  const caller = new AbortController();
  const deadline = startDeadline(10_000, caller.signal);
  caller.abort();
  assert.equal(translateOpenAIError(new Error('x'), 'openai', [], deadline).name, 'AbortError');
  deadline.dispose();
  const own = new ProviderError('already ours', 'server_error');
  assert.equal(translateOpenAIError(own, 'openai', []), own);
  const parse = translateOpenAIError(new (openAISdk().OpenAIError)('could not parse body'), 'openai', []);
  assert.equal((parse as ProviderError).errorClass, 'server_error');
  assert.equal(parse.message, 'openai: unreadable response (could not parse body)');
  const bug = new TypeError('undefined is not a function');
  assert.equal(translateOpenAIError(bug, 'openai', []), bug);
});
