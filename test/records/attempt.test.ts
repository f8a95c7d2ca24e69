import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AttemptLineSchema, AttemptsFileLineSchema, EventLineSchema } from '../../lib/records/attempt';
import { edit, rejectsAt, shippedLine } from './helpers';

// Line 1 of the shipped audit log is the run_start event, line 2 the first attempt.
const event = shippedLine('data/raw/kst/attempts.jsonl', 1);
const attempt = shippedLine('data/raw/kst/attempts.jsonl', 2);

test('the shipped attempt and event lines parse; extra fields (finish_reason, total) are kept', () => {
  assert.equal(event.type, 'event');
  assert.equal(attempt.type, 'attempt');
  const a = AttemptsFileLineSchema.parse(attempt);
  assert.equal(a.type, 'attempt');
  assert.deepEqual(a, attempt);
  assert.equal((AttemptLineSchema.parse(attempt) as Record<string, unknown>).finish_reason, 'stop');
  assert.equal((EventLineSchema.parse(event) as Record<string, unknown>).total, 2400);
  // a live attempt with timestamps, an HTTP error and a retry-after is valid too
  const live = edit(attempt, {
    started_at: '2026-09-08T10:00:00.000Z', ended_at: '2026-09-08T10:00:01.250Z', latency_ms: 1250,
    outcome: 'error', http_status: 429, error_class: 'rate_limit', retry_after_ms: 2000, request_id: 'req_1', usage: null, billed_estimate: null,
  });
  assert.equal(AttemptsFileLineSchema.parse(live).type, 'attempt');
});

test('bad attempt lines are refused naming the path', () => {
  rejectsAt(AttemptLineSchema, edit(attempt, { attempt: 0 }), 'attempt', />=1/);
  rejectsAt(AttemptLineSchema, edit(attempt, { attempt: 1.5 }), 'attempt');
  rejectsAt(AttemptLineSchema, edit(attempt, { run_id: '' }), 'run_id');
  rejectsAt(AttemptLineSchema, edit(attempt, { outcome: 'timeout' }), 'outcome');
  rejectsAt(AttemptLineSchema, edit(attempt, { latency_ms: undefined }), 'latency_ms');
  rejectsAt(AttemptLineSchema, edit(attempt, { usage: { inputTokens: -1, outputTokens: 3 } }), 'usage.inputTokens');
  rejectsAt(AttemptLineSchema, edit(attempt, { billed_estimate: { usd: 0 } }), 'billed_estimate.basis');
  rejectsAt(EventLineSchema, edit(event, { event: '' }), 'event');
  rejectsAt(EventLineSchema, edit(event, { at: undefined }), 'at');
});

test('the file-line union dispatches on type: an unknown type is refused at "type"', () => {
  rejectsAt(AttemptsFileLineSchema, edit(attempt, { type: 'note' }), 'type');
  // an attempt missing a field is refused as an attempt (not as an event)
  rejectsAt(AttemptsFileLineSchema, edit(attempt, { model: undefined }), 'model');
});
