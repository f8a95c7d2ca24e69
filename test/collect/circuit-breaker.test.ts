import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CircuitBreaker, DEFAULT_BREAKER_THRESHOLD, defaultRemedy } from '../../lib/collect/circuit-breaker';

test('a provider-flagged deterministic failure and an auth failure open the breaker; a success in between resets the count', () => {
  const b = new CircuitBreaker(3);
  const f = { errorClass: 'client_error' as const, message: 'x', httpStatus: 400 };
  assert.equal(b.recordDeterministic('m', f), null);
  assert.equal(b.recordDeterministic('m', f), null);
  b.recordSuccess('m');
  assert.equal(b.recordDeterministic('m', f), null, 'count restarted after a success');
  assert.equal(b.recordDeterministic('m', { ...f, httpStatus: 404 }), null, 'a different signature restarts the count');
  assert.equal(b.isOpen('m'), false);
  const trip = b.recordDeterministic('k', { errorClass: 'auth', message: 'bad key', httpStatus: 401, remedy: 'set OPENAI_API_KEY' });
  assert.equal(trip?.remedy, 'set OPENAI_API_KEY');
  assert.equal(b.isOpen('k'), true);
});
test('three identical 404s in a row open the breaker on the third, with the count and the 404 remedy; later failures return null', () => {
  const b = new CircuitBreaker();
  assert.equal(b.threshold, DEFAULT_BREAKER_THRESHOLD);
  assert.equal(DEFAULT_BREAKER_THRESHOLD, 3);
  const gone = { errorClass: 'client_error' as const, message: 'model not found', httpStatus: 404, code: 'model_not_found' };
  assert.equal(b.recordDeterministic('openai:old', gone), null);
  assert.equal(b.recordDeterministic('openai:old', gone), null);
  assert.deepEqual(b.recordDeterministic('openai:old', gone), {
    model: 'openai:old',
    errorClass: 'client_error',
    httpStatus: 404,
    code: 'model_not_found',
    count: 3,
    message: 'model not found',
    remedy: 'check the model name openai:old (it may be retired or unknown to this endpoint)',
  });
  assert.equal(b.isOpen('openai:old'), true);
  assert.equal(b.recordDeterministic('openai:old', gone), null, 'an open breaker trips once');
  assert.equal(b.trips().length, 1);
  assert.equal(b.isOpen('openai:other'), false, 'per model');
});

test('the signature is class, status and code: a different error code restarts the streak', () => {
  const b = new CircuitBreaker(2);
  const a = { errorClass: 'client_error' as const, message: 'x', httpStatus: 400, code: 'unsupported_parameter' };
  assert.equal(b.recordDeterministic('m', a), null);
  assert.equal(b.recordDeterministic('m', { ...a, code: 'invalid_value' }), null, 'new code: count 1');
  const trip = b.recordDeterministic('m', { ...a, code: 'invalid_value' });
  assert.equal(trip?.count, 2, 'threshold 2 reached by the second identical failure');
  assert.equal(trip?.httpStatus, 400);
  assert.equal(trip?.remedy, 'check the model name, --max-output-tokens and the parameters sent to m');
});

test('connection failures open the breaker only for a model that never answered, counting distinct cells', () => {
  const b = new CircuitBreaker(3);
  const refused = { errorClass: 'connection' as const, message: 'ECONNREFUSED' };
  assert.equal(b.recordConnection('local', 'run-1', refused), null);
  assert.equal(b.recordConnection('local', 'run-1', refused), null, 'the same cell again is still one cell');
  assert.equal(b.recordConnection('local', 'run-2', refused), null);
  const trip = b.recordConnection('local', 'run-3', refused);
  assert.equal(trip?.count, 3);
  assert.equal(trip?.httpStatus, null);
  assert.equal(trip?.code, null);
  assert.equal(trip?.remedy, 'check that the server for local is running and reachable (--base-url)');

  const flaky = new CircuitBreaker(3);
  flaky.recordSuccess('remote');
  assert.equal(flaky.hasAnswered('remote'), true);
  for (const id of ['a', 'b', 'c', 'd']) assert.equal(flaky.recordConnection('remote', id, refused), null, 'a model that answered is retried, not stopped');
  assert.equal(flaky.isOpen('remote'), false);
});

test('defaultRemedy names the model for each class', () => {
  assert.equal(defaultRemedy('anthropic:x', { errorClass: 'auth' }), 'check the API key variable for anthropic:x (and that the key may use this model)');
  assert.equal(defaultRemedy('anthropic:x', { errorClass: 'client_error', httpStatus: 422 }), 'check the model name, --max-output-tokens and the parameters sent to anthropic:x');
});
