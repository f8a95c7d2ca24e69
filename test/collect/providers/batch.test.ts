/**
 * Batch mode against the fake server through the official SDKs: submission format, polling, and
 * results matched by custom_id although the server returns them in reverse order.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlmServer, type FakeLlmServer, type FakePlan } from '../../support/fake-llm-server';
import { createBatchClient, ProviderError, type CompletionRequest } from '../../../lib/collect/providers';
import { InputError } from '../../../lib/errors';

const KEY = 'sk-planted-BATCH-0123456789abcdef';
const env = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };
const schema = { type: 'object', properties: { recommended: { type: 'array', items: { type: 'integer' } } }, required: ['recommended'] };
const request = (runId: string): CompletionRequest => ({
  runId,
  system: 'sys',
  user: `state for ${runId}`,
  schemaName: 'next_steps',
  jsonSchema: schema,
  maxOutputTokens: 128,
  timeoutMs: 5000,
});
const runIds = ['r-001', 'r-002', 'r-003', 'r-004', 'r-005'];
const plans: Record<string, FakePlan> = {
  'r-001': { kind: 'json', content: '{"recommended":[1]}', usage: { input: 11, output: 4 } },
  'r-002': { kind: 'server_error', status: 529 },
  'r-003': { kind: 'expired' },
  'r-004': { kind: 'refusal', message: 'no' },
  'r-005': { kind: 'json', content: '{"recommended":[2,3]}', usage: { input: 12, output: 6 } },
};

let server: FakeLlmServer;
before(async () => {
  server = await startFakeLlmServer({ apiKey: KEY, batchPollsBeforeDone: 1, handler: ({ customId }) => plans[customId ?? ''] ?? { kind: 'json', content: '{}' } });
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

test('batch input is checked before anything is sent', async () => {
  const anthropic = createBatchClient('anthropic:claude-test', { baseUrl: server.baseUrl, env });
  const openai = createBatchClient('openai:gpt-test', { baseUrl: server.openaiBaseUrl, env });
  const count = server.requests.length;
  await assert.rejects(anthropic.submitBatch([request('run:1')]), (e: unknown) => e instanceof InputError && e.message.includes('"run:1"'));
  await assert.rejects(openai.submitBatch([request('a'), request('a')]), (e: unknown) => e instanceof InputError && e.message.includes('duplicate run ID a'));
  await assert.rejects(openai.submitBatch([]), InputError);
  assert.equal(server.requests.length, count);
  assert.throws(() => createBatchClient('openai-compatible:llama', { baseUrl: server.openaiBaseUrl, env }), InputError);
  assert.throws(() => createBatchClient('openai:gpt', { env: {} }), (e: unknown) => e instanceof InputError && e.message.includes('OPENAI_API_KEY'));
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
