/** The Anthropic batch client against the fake server through the official SDK: one custom_id per request, results by custom_id. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeLlmServer } from '../../support/fake-llm-server';
import { createBatchClient, ProviderError } from '../../../lib/collect/providers';
import { env, request, runIds, schema, startBatchServer } from './helpers';
import { InputError } from '../../../lib/errors';

let server: FakeLlmServer;
before(async () => {
  server = await startBatchServer();
});
after(async () => {
  await server.close();
});

test('anthropic batch: custom_id per request, poll until ended, results matched by custom_id', async () => {
  const client = createBatchClient('anthropic:claude-test', { baseUrl: server.baseUrl, env });
  const first = server.requests.length;
  const batchId = await client.submitBatch(runIds.map(request));
  const create = server.requests[first]!;
  assert.equal(create.path, '/v1/messages/batches');
  const body = create.body as { requests: Array<{ custom_id: string; params: Record<string, unknown> }> };
  assert.deepEqual(body.requests.map((r) => r.custom_id), runIds);
  assert.deepEqual(body.requests[1]!.params, {
    model: 'claude-test',
    max_tokens: 128,
    system: 'sys',
    messages: [{ role: 'user', content: 'state for r-002' }],
    thinking: { type: 'disabled' },
    output_config: { format: { type: 'json_schema', schema } },
  });

  await assert.rejects(client.fetchBatchResults(batchId), (e: unknown) => e instanceof InputError && e.message.includes(batchId));
  const done = await client.pollBatch(batchId);
  assert.deepEqual(done, { batchId, state: 'completed', done: true, providerStatus: 'ended', counts: { total: 5, succeeded: 3, failed: 2, pending: 0 } });
  const results = await client.fetchBatchResults(batchId);
  assert.deepEqual([...results.keys()].sort(), runIds);
  assert.deepEqual(results.get('r-005'), {
    text: '{"recommended":[2,3]}',
    finishReason: 'end_turn',
    refusal: null,
    modelVersion: 'claude-test-fake-20250101',
    usage: { inputTokens: 12, outputTokens: 6 },
    httpStatus: null,
    requestId: null,
  });
  const refused = results.get('r-004') as { refusal: string; finishReason: string };
  assert.equal(refused.refusal, 'no');
  assert.equal(refused.finishReason, 'refusal');
  const overloaded = results.get('r-002');
  assert.ok(overloaded instanceof ProviderError && overloaded.errorClass === 'server_error' && overloaded.info.code === 'overloaded_error');
  const expired = results.get('r-003');
  assert.ok(expired instanceof ProviderError && expired.errorClass === 'timeout');
});
