import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../lib/errors';
import { MAX_TIMER_MS, startDeadline, validateRequest } from '../../../lib/collect/providers/attempt';
import type { CompletionRequest } from '../../../lib/provider/contract';

const req = (over: Partial<CompletionRequest> = {}): CompletionRequest => ({
  runId: 'run-7',
  system: 's',
  user: 'u',
  schemaName: 'next_steps',
  jsonSchema: { type: 'object' },
  maxOutputTokens: 64,
  timeoutMs: 1000,
  ...over,
});

const refused = (over: Partial<CompletionRequest>, message: string) =>
  assert.throws(() => validateRequest(req(over)), (e: unknown) => e instanceof InputError && e.message === message && e.where.item === 'run-7');

test('validateRequest refuses what the APIs would reject, naming the run', () => {
  assert.doesNotThrow(() => validateRequest(req()));
  assert.doesNotThrow(() => validateRequest(req({ schemaName: 'A'.repeat(64), timeoutMs: MAX_TIMER_MS })));
  refused({ schemaName: 'A'.repeat(65) }, `run run-7: schemaName "${'A'.repeat(65)}" must match [A-Za-z0-9_-]{1,64}`);
  refused({ schemaName: 'next steps' }, 'run run-7: schemaName "next steps" must match [A-Za-z0-9_-]{1,64}');
  refused({ jsonSchema: { type: 'array' } }, 'run run-7: jsonSchema must be a JSON Schema with top-level "type": "object"');
  refused({ maxOutputTokens: 0 }, 'run run-7: maxOutputTokens must be a positive integer, got 0');
  refused({ maxOutputTokens: 1.5 }, 'run run-7: maxOutputTokens must be a positive integer, got 1.5');
  refused({ timeoutMs: -1 }, 'run run-7: timeoutMs must be a positive integer, got -1');
  // 2^31 − 1 = 2,147,483,647 ms is the largest; one more would fire after 1 ms
  assert.equal(MAX_TIMER_MS, 2 ** 31 - 1);
  refused({ timeoutMs: 2 ** 31 }, 'run run-7: timeoutMs 2147483648 is above the largest timer Node supports (2147483647 ms ≈ 24.8 days)');
});

test('deadline: the timer ends the attempt (timedOut), the caller\'s abort is told apart (callerAborted)', async () => {
  const d = startDeadline(20);
  assert.equal(d.signal.aborted, false);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(d.signal.aborted, true);
  assert.equal(d.timedOut, true);
  assert.equal(d.callerAborted, false);
  d.dispose();

  const caller = new AbortController();
  const e = startDeadline(10_000, caller.signal);
  caller.abort();
  assert.equal(e.signal.aborted, true);
  assert.equal(e.callerAborted, true);
  assert.equal(e.timedOut, false);
  e.dispose();

  const already = new AbortController();
  already.abort();
  const f = startDeadline(10_000, already.signal);
  assert.equal(f.signal.aborted && f.callerAborted, true, 'an already aborted caller aborts at once');
  f.dispose();
});

test('dispose clears the timer: a disposed deadline never fires', async () => {
  const d = startDeadline(20);
  d.dispose();
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(d.signal.aborted, false);
  assert.equal(d.timedOut, false);
});
