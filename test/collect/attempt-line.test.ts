import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorAttemptLine, responseAttemptLine } from '../../lib/collect/attempt-line';
import { AttemptLineSchema } from '../../lib/records/attempt';

const live = { run_id: 'r1', model: 'openai:m', attempt: 1, started_at: null, ended_at: null, latency_ms: null };
const batch = { ...live, batch_id: 'b1', custom_id: 'c1' };
const result = { text: '{}', finishReason: 'stop', refusal: null, modelVersion: null, usage: { inputTokens: 1, outputTokens: 2 }, httpStatus: 200, requestId: 'q' };

test('one builder: the key order of the corpus, batch ids after the attempt number, extras last; every line fits the schema', () => {
  const r = responseAttemptLine(live, result, { usd: 0, basis: 'reported_usage' });
  assert.equal(
    JSON.stringify(r),
    '{"type":"attempt","run_id":"r1","model":"openai:m","attempt":1,"started_at":null,"ended_at":null,"latency_ms":null,"outcome":"response","http_status":200,"error_class":null,"retry_after_ms":null,"request_id":"q","usage":{"inputTokens":1,"outputTokens":2},"finish_reason":"stop","billed_estimate":{"usd":0,"basis":"reported_usage"}}',
  );
  const e = errorAttemptLine(batch, { errorClass: 'server_error', message: 'HTTP 500', httpStatus: 500, remedy: 'wait' }, null, 'retry_in_next_batch', null, { preflight: true });
  assert.deepEqual(Object.keys(e), ['type', 'run_id', 'model', 'attempt', 'batch_id', 'custom_id', 'started_at', 'ended_at', 'latency_ms', 'outcome', 'http_status', 'error_class', 'error_code', 'retry_after_ms', 'request_id', 'message', 'usage', 'billed_estimate', 'decision', 'next_delay_ms', 'remedy', 'preflight']);
  for (const line of [r, e]) AttemptLineSchema.parse(line);
});
