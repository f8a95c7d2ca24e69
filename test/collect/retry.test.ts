import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelayMs, decideAfterFailure, DEFAULT_RETRY_POLICY, jitterDraw } from '../../lib/collect/retry';

const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1000, maxDelayMs: 60_000, maxRetries: 5 };

test('backoff doubles per retry with equal jitter in [step/2, step)', () => {
  // retry 1: step 1000 → [500, 1000); retry 3: step 4000 → [2000, 4000)
  assert.equal(backoffDelayMs(1, policy, 0), 500);
  assert.equal(backoffDelayMs(1, policy, 0.5), 750);
  assert.equal(backoffDelayMs(3, policy, 0), 2000);
  assert.equal(backoffDelayMs(3, policy, 0.5), 3000);
  // capped: retry 10 → step min(60000, 512000) = 60000 → u=0 gives 30000
  assert.equal(backoffDelayMs(10, policy, 0), 30000);
});

test('retry-after is a floor on the delay', () => {
  assert.equal(backoffDelayMs(1, policy, 0.9, 7000), 7000);
  // a retry-after shorter than the jittered step does not shorten it
  assert.equal(backoffDelayMs(3, policy, 0.5, 100), 3000);
});

test('jitter draws are seeded per run ID and retry number', () => {
  assert.equal(jitterDraw('1', 'r', 1), jitterDraw('1', 'r', 1));
  assert.notEqual(jitterDraw('1', 'r', 1), jitterDraw('1', 'r', 2));
  assert.notEqual(jitterDraw('1', 'r', 1), jitterDraw('2', 'r', 1));
});

test('decisions per error class', () => {
  assert.equal(decideAfterFailure({ errorClass: 'quota' }, 1, policy, 0).action, 'quota_stop');
  assert.equal(decideAfterFailure({ errorClass: 'rate_limit', retryAfterMs: 11 * 60_000 }, 1, policy, 0).action, 'quota_stop');
  assert.deepEqual(decideAfterFailure({ errorClass: 'rate_limit', retryAfterMs: 9 * 60_000 }, 1, policy, 0), {
    action: 'retry',
    delayMs: 540_000,
  });
  assert.deepEqual(decideAfterFailure({ errorClass: 'server_error' }, 2, policy, 0), { action: 'retry', delayMs: 1000 });
  assert.equal(decideAfterFailure({ errorClass: 'timeout' }, 5, policy, 0).action, 'retry');
  assert.equal(decideAfterFailure({ errorClass: 'timeout' }, 6, policy, 0).action, 'give_up');
  assert.equal(decideAfterFailure({ errorClass: 'connection' }, 6, policy, 0).action, 'give_up');
  assert.equal(decideAfterFailure({ errorClass: 'client_error' }, 1, policy, 0).action, 'deterministic');
  assert.equal(decideAfterFailure({ errorClass: 'server_error', deterministic: true }, 1, policy, 0).action, 'deterministic');
  assert.equal(decideAfterFailure({ errorClass: 'unknown' }, 1, policy, 0).action, 'give_up');
  assert.equal(decideAfterFailure({ errorClass: 'auth' }, 1, policy, 0).action, 'deterministic');
  assert.equal(decideAfterFailure({ errorClass: 'server_error' }, 1, { ...policy, maxRetries: 0 }, 0).action, 'give_up');
});

test('rate limits are retried for the retry horizon (minutes), not maxRetries; then a quota stop', () => {
  // horizon 10 min, retry-after 4 min each: waits 4 min (total 4), 4 min (total 8); the third would end at 12 > 10.
  const p = { ...policy, maxRetries: 1 };
  const fourMin = 4 * 60_000;
  assert.deepEqual(decideAfterFailure({ errorClass: 'rate_limit', retryAfterMs: fourMin }, 1, p, 0, 0), { action: 'retry', delayMs: fourMin });
  assert.deepEqual(decideAfterFailure({ errorClass: 'rate_limit', retryAfterMs: fourMin }, 2, p, 0, fourMin), { action: 'retry', delayMs: fourMin });
  assert.equal(decideAfterFailure({ errorClass: 'rate_limit', retryAfterMs: fourMin }, 3, p, 0, 2 * fourMin).action, 'quota_stop');
  // without retry-after: 1 s, 2 s, 4 s, … capped at 60 s steps: attempt 10 (step 60 s) is still inside 10 min
  assert.equal(decideAfterFailure({ errorClass: 'rate_limit' }, 10, p, 0, 5 * 60_000).action, 'retry');
  // other transient classes stop at maxRetries or at the horizon, whichever is first
  assert.equal(decideAfterFailure({ errorClass: 'server_error' }, 2, p, 0, 0).action, 'give_up');
  assert.equal(decideAfterFailure({ errorClass: 'server_error' }, 1, { ...policy, retryHorizonMs: 400 }, 0, 0).action, 'give_up');
});
