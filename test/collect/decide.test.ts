import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decide, enlargedAllowance, type AttemptFailure, type AttemptOutcome, type DecideItem, type DecideState } from '../../lib/collect/decide';
import { DEFAULT_RETRY_POLICY } from '../../lib/collect/retry';
import type { CompletionResult } from '../../lib/provider/contract';

const item = (over: Partial<DecideItem> = {}): DecideItem => ({ model: 'openai:m', attempt: 1, waitedMs: 0, maxOutputTokens: 1000, enlarged: false, preflight: false, ...over });
const state = (over: Partial<DecideState> = {}): DecideState => ({ policy: { ...DEFAULT_RETRY_POLICY, maxRetries: 2 }, jitter: 0, outputCap: 4000, modelAnswered: true, ...over });
const answer = (finishReason: string | null, refusal: string | null = null): AttemptOutcome => ({
  kind: 'response',
  result: { text: '{}', finishReason, refusal, modelVersion: null, usage: null, httpStatus: 200, requestId: null } satisfies CompletionResult,
});
const fail = (errorClass: AttemptFailure['errorClass'], over: Partial<AttemptFailure> = {}): AttemptOutcome => ({ kind: 'failure', failure: { errorClass, message: 'm', ...over } });

/** [what, item, outcome, state, expected action (+ detail)] — the whole policy as one table. */
const TABLE: Array<[string, Partial<DecideItem>, AttemptOutcome, Partial<DecideState>, string]> = [
  ['an answer', {}, answer('stop'), {}, 'finish:response'],
  ['a refusal is a result', {}, answer('stop', 'no'), {}, 'finish:response'],
  ['a content filter is a result', {}, answer('content_filter'), {}, 'finish:response'],
  ['cut off: once more with twice the allowance', {}, answer('length'), {}, 'retry:2000'],
  ['cut off: the larger allowance stops at the cap', { maxOutputTokens: 3000 }, answer('max_tokens'), {}, 'retry:4000'],
  ['cut off by a simulated respondent: a result (the simulation draws its cut-offs)', {}, answer('length'), { enlargeCutOff: false }, 'finish:response'],
  ['cut off at the cap: a result', { maxOutputTokens: 4000 }, answer('length'), {}, 'finish:response'],
  ['cut off by the context window: a result (a larger allowance cannot help; the allowance already stops at the window)', {}, answer('model_context_window_exceeded'), {}, 'finish:response'],
  ['cut off by the context window at the pre-flight: stop', { preflight: true }, answer('model_context_window_exceeded'), {}, 'stop:failed'],
  ['cut off after the enlarged retry: a result', { enlarged: true, maxOutputTokens: 2000 }, answer('length'), {}, 'finish:response'],
  ['cut off at the pre-flight after the enlarged retry: stop', { enlarged: true, preflight: true }, answer('length'), {}, 'stop:failed'],
  ['quota: stop', {}, fail('quota'), {}, 'stop:quota_stopped'],
  ['quota even with x-should-retry true: stop', {}, fail('quota', { shouldRetry: true }), {}, 'stop:quota_stopped'],
  ['a rate limit longer than the threshold: quota stop', {}, fail('rate_limit', { retryAfterMs: 11 * 60_000 }), {}, 'stop:quota_stopped'],
  ['a rate limit: retry with retry-after as the floor', {}, fail('rate_limit', { retryAfterMs: 7000 }), {}, 'retry:7000'],
  ['a rate limit past the horizon: quota stop', { waitedMs: 9.5 * 60_000 }, fail('rate_limit', { retryAfterMs: 60_000 }), {}, 'stop:quota_stopped'],
  ['rate limits ignore maxRetries (the step is capped at 60 s)', { attempt: 9 }, fail('rate_limit', { retryAfterMs: 1000 }), {}, 'retry:30000'],
  ['client_error: hold (breaker counts it)', {}, fail('client_error'), {}, 'hold:deterministic'],
  ['auth: hold', {}, fail('auth'), {}, 'hold:deterministic'],
  ['provider-flagged deterministic 5xx: hold', {}, fail('server_error', { deterministic: true }), {}, 'hold:deterministic'],
  ['409 with x-should-retry true: retry', {}, fail('client_error', { shouldRetry: true }), {}, 'retry:500'],
  ['409 (provider: not deterministic): retry', {}, fail('client_error', { deterministic: false }), {}, 'retry:500'],
  ['409 after maxRetries: missing, not held', { attempt: 3 }, fail('client_error', { deterministic: false }), {}, 'finish:missing'],
  ['auth with x-should-retry true: retry', {}, fail('auth', { shouldRetry: true }), {}, 'retry:500'],
  ['503 with x-should-retry false: missing, not held', {}, fail('server_error', { shouldRetry: false }), {}, 'finish:missing'],
  ['429 with x-should-retry false: missing', {}, fail('rate_limit', { shouldRetry: false }), {}, 'finish:missing'],
  ['400 with x-should-retry false: hold', {}, fail('client_error', { shouldRetry: false }), {}, 'hold:deterministic'],
  ['409 with x-should-retry false: hold, as a 400 (lib/collect/README.md), not missing after one attempt', {}, fail('client_error', { deterministic: false, shouldRetry: false }), {}, 'hold:deterministic'],
  ['5xx: retry with backoff', {}, fail('server_error'), {}, 'retry:500'],
  ['5xx, second retry: longer backoff', { attempt: 2 }, fail('server_error'), {}, 'retry:1000'],
  ['5xx after maxRetries: missing', { attempt: 3 }, fail('server_error'), {}, 'finish:missing'],
  ['timeout past the horizon: missing', { waitedMs: 600_000 }, fail('timeout'), {}, 'finish:missing'],
  ['a transport fault: retry', {}, fail('connection'), { modelAnswered: false }, 'retry:500'],
  ['transport faults exhausted, model answers: missing', { attempt: 3 }, fail('connection'), {}, 'finish:missing'],
  ['transport faults exhausted, model never answered: hold', { attempt: 3 }, fail('connection'), { modelAnswered: false }, 'hold:never_connected'],
  ['pre-flight never connected: stop', { attempt: 3, preflight: true }, fail('connection'), { modelAnswered: false }, 'stop:failed'],
  ['bodies cut after a 200, exhausted, model never answered: missing, not held (the server answered; review3 L3)', { attempt: 3 }, fail('connection', { httpStatus: 200 }), { modelAnswered: false }, 'finish:missing'],
  ['pre-flight bodies cut after a 200, exhausted: stop (no answer arrives; every cell would be paid for, review4 H1)', { attempt: 3, preflight: true }, fail('connection', { httpStatus: 200 }), { modelAnswered: false }, 'stop:failed'],
  ['pre-flight deterministic: stop', { preflight: true }, fail('client_error'), {}, 'stop:failed'],
  ['pre-flight 5xx exhausted: missing, the run goes on', { attempt: 3, preflight: true }, fail('server_error'), {}, 'finish:missing'],
  ['unknown (our bug): missing at once', {}, fail('unknown'), {}, 'finish:missing'],
];

test('decide: the policy table', () => {
  for (const [what, i, outcome, s, expected] of TABLE) {
    const d = decide(item(i), outcome, state(s));
    const detail =
      d.action === 'finish' ? d.outcome : d.action === 'retry' ? String(d.maxOutputTokens ?? d.delayMs) : d.action === 'hold' ? d.why : d.status;
    assert.equal(`${d.action}:${detail}`, expected, what);
  }
});

test('enlargedAllowance: double within the cap; null when there is no room', () => {
  assert.equal(enlargedAllowance(1000, 4000), 2000);
  assert.equal(enlargedAllowance(3000, 4000), 4000);
  assert.equal(enlargedAllowance(4000, 4000), null);
  assert.equal(enlargedAllowance(1000, null), 2000, 'no known cap: double');
});
