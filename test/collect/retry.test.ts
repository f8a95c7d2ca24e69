import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, jitterDraw } from '../../lib/collect/retry';

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
