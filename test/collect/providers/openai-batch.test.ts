/** The OpenAI batch client against the fake server through the official SDK: JSONL upload, polling, results by custom_id. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FakeLlmServer } from '../../support/fake-llm-server';
import { createBatchClient, ProviderError } from '../../../lib/collect/providers';
import { env, request, runIds, schema, startBatchServer } from './helpers';

let server: FakeLlmServer;
before(async () => {
  server = await startBatchServer();
});
after(async () => {
  await server.close();
});

test('openai batch: JSONL upload, 24h batch, poll, unordered results matched by custom_id', async () => {
  const client = createBatchClient('openai:gpt-test', { baseUrl: server.openaiBaseUrl, env });
  const first = server.requests.length;
  const batchId = await client.submitBatch(runIds.map(request));
  const [upload, create] = server.requests.slice(first);
  assert.equal(upload!.path, '/v1/files');
  const uploaded = String(upload!.body);
  assert.match(uploaded, /name="purpose"\r\n\r\nbatch\r\n/);
  const lines = runIds.map((id) =>
    JSON.stringify({
      custom_id: id,
      method: 'POST',
      url: '/v1/chat/completions',
      body: {
        model: 'gpt-test',
        messages: [
          { role: 'system', content: 'sys' },
          { role: 'user', content: `state for ${id}` },
        ],
        response_format: { type: 'json_schema', json_schema: { name: 'next_steps', schema, strict: true } },
        max_completion_tokens: 128,
      },
    }),
  );
  assert.ok(uploaded.includes(lines.join('\n') + '\n'), 'uploaded JSONL has one line per request, in order');
  assert.equal(create!.path, '/v1/batches');
  assert.deepEqual(create!.body, { input_file_id: 'file-fake-1', endpoint: '/v1/chat/completions', completion_window: '24h' });

  const running = await client.pollBatch(batchId);
  assert.deepEqual(running, { batchId, state: 'in_progress', done: false, providerStatus: 'in_progress', counts: { total: 5, succeeded: 0, failed: 0, pending: 5 } });
  await assert.rejects(client.fetchBatchResults('batch_unknown'), (e: unknown) => e instanceof ProviderError && e.errorClass === 'client_error');
  const done = await client.pollBatch(batchId);
  // r-001, r-004 (a refusal is a 200 answer) and r-005 succeed; r-002 (529) and r-003 (expired) fail.
  assert.deepEqual(done, { batchId, state: 'completed', done: true, providerStatus: 'completed', counts: { total: 5, succeeded: 3, failed: 2, pending: 0 } });

  const results = await client.fetchBatchResults(batchId);
  assert.deepEqual([...results.keys()].sort(), runIds);
  assert.deepEqual(results.get('r-001'), {
    text: '{"recommended":[1]}',
    finishReason: 'stop',
    refusal: null,
    modelVersion: 'gpt-test-fake-2025-01-01',
    usage: { inputTokens: 11, outputTokens: 4 },
    httpStatus: 200,
    requestId: 'req_fake_item_1',
  });
  assert.equal((results.get('r-005') as { text: string }).text, '{"recommended":[2,3]}');
  assert.equal((results.get('r-004') as { refusal: string }).refusal, 'no');
  const overloaded = results.get('r-002');
  assert.ok(overloaded instanceof ProviderError && overloaded.errorClass === 'server_error' && overloaded.info.httpStatus === 529);
  const expired = results.get('r-003');
  assert.ok(expired instanceof ProviderError && expired.errorClass === 'timeout' && expired.info.code === 'batch_expired');
});

test('a rejected batch upload is one request, classified, and the key does not leak', async () => {
  const wrong = 'sk-wrong-BATCHKEY-5555555555';
  const client = createBatchClient('openai:gpt-test', { baseUrl: server.openaiBaseUrl, env: { OPENAI_API_KEY: wrong } });
  const count = server.requests.length;
  await assert.rejects(client.submitBatch([request('x-1')]), (e: unknown) => {
    assert.ok(e instanceof ProviderError && e.errorClass === 'auth');
    assert.ok(!`${e.message}${e.stack}${JSON.stringify(e)}`.includes(wrong));
    return true;
  });
  assert.equal(server.requests.length - count, 1);
});
