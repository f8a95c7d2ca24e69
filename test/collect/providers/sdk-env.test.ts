/**
 * sdk-env.ts: the variables both SDK constructors read whatever they are given (OPENAI_CUSTOM_HEADERS,
 * ANTHROPIC_CUSTOM_HEADERS) reach no request, against the fake server; and they are back in
 * process.env afterwards.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlmServer, type FakeLlmServer } from '../../support/fake-llm-server';
import { createProvider, type CompletionRequest } from '../../../lib/collect/providers';
import { ignoredSdkEnvNotes, withoutSdkEnv } from '../../../lib/collect/providers/sdk-env';

const KEY = 'sk-ant-own-key-0123456789';
const OTHER = 'sk-proj-users-OPENAI-key-9876543210';
const GATEWAY = 'gw-token-0123456789';
const request: CompletionRequest = {
  runId: 'run-0001',
  system: 'You are a tutor.',
  user: 'Which components next?',
  schemaName: 'next_steps',
  jsonSchema: { type: 'object', properties: { recommended: { type: 'array', items: { type: 'integer' } } }, required: ['recommended'], additionalProperties: false },
  maxOutputTokens: 256,
  timeoutMs: 3000,
};

let server: FakeLlmServer;
const saved = { openai: process.env['OPENAI_CUSTOM_HEADERS'], anthropic: process.env['ANTHROPIC_CUSTOM_HEADERS'] };
before(async () => {
  server = await startFakeLlmServer();
  server.script(() => ({ kind: 'json', content: '{"recommended":[1]}' }));
  // What a user of an OpenAI gateway, or of Claude Code behind a gateway, may have set.
  process.env['OPENAI_CUSTOM_HEADERS'] = `Authorization: Bearer ${OTHER}\nX-Gateway-Token: ${GATEWAY}`;
  process.env['ANTHROPIC_CUSTOM_HEADERS'] = `Authorization: Bearer ${GATEWAY}\nX-Gateway-Token: ${GATEWAY}`;
});
after(async () => {
  for (const [name, value] of [['OPENAI_CUSTOM_HEADERS', saved.openai], ['ANTHROPIC_CUSTOM_HEADERS', saved.anthropic]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server.close();
});

test('OPENAI_CUSTOM_HEADERS never reaches an openai-compatible server: it gets its own key, and no header of the variable', async () => {
  const provider = createProvider('openai-compatible:llama3', { baseUrl: server.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY } });
  const result = await provider.complete(request);
  assert.equal(result.text, '{"recommended":[1]}');
  const sent = server.requests.at(-1)!.headers;
  assert.equal(sent['authorization'], `Bearer ${KEY}`);
  assert.equal(sent['x-gateway-token'], undefined);
  assert.ok(!JSON.stringify(sent).includes(OTHER) && !JSON.stringify(sent).includes(GATEWAY), JSON.stringify(sent));
});

test('ANTHROPIC_CUSTOM_HEADERS does not replace ANTHROPIC_API_KEY on the way to Anthropic', async () => {
  const provider = createProvider('anthropic:claude-haiku-4-5', { baseUrl: server.baseUrl, env: { ANTHROPIC_API_KEY: KEY } });
  await provider.complete(request);
  const sent = server.requests.at(-1)!.headers;
  assert.equal(sent['authorization'] ?? sent['x-api-key'], sent['authorization'] ? `Bearer ${KEY}` : KEY);
  assert.equal(sent['x-gateway-token'], undefined);
  assert.ok(!JSON.stringify(sent).includes(GATEWAY), JSON.stringify(sent));
});

test('withoutSdkEnv: the variables are absent while the client is built and back afterwards, also after a throw', () => {
  const env: NodeJS.ProcessEnv = { OPENAI_CUSTOM_HEADERS: 'A: 1', KEEP: 'x' };
  const during = withoutSdkEnv(() => ({ ...env }), env);
  assert.deepEqual(during, { KEEP: 'x' });
  assert.deepEqual(env, { OPENAI_CUSTOM_HEADERS: 'A: 1', KEEP: 'x' });
  assert.throws(() => withoutSdkEnv(() => {
    throw new Error('constructor failed');
  }, env), /constructor failed/);
  assert.equal(env['OPENAI_CUSTOM_HEADERS'], 'A: 1');
  assert.equal(process.env['OPENAI_CUSTOM_HEADERS'], `Authorization: Bearer ${OTHER}\nX-Gateway-Token: ${GATEWAY}`);
});

test('ignoredSdkEnvNotes: a note per set variable whose SDK a model of the run uses, never its value (review3 L9)', () => {
  const both = { OPENAI_CUSTOM_HEADERS: `Authorization: Bearer ${OTHER}`, ANTHROPIC_CUSTOM_HEADERS: `X-Gateway-Token: ${GATEWAY}` };
  assert.deepEqual(ignoredSdkEnvNotes(['openai-compatible', 'anthropic'], both).map((n) => n.split(' ')[0]), ['OPENAI_CUSTOM_HEADERS', 'ANTHROPIC_CUSTOM_HEADERS']);
  assert.deepEqual(ignoredSdkEnvNotes(['anthropic', 'anthropic'], both).map((n) => n.split(' ')[0]), ['ANTHROPIC_CUSTOM_HEADERS'], 'once, whatever the number of models');
  assert.deepEqual(ignoredSdkEnvNotes(['simulated'], both), []);
  assert.deepEqual(ignoredSdkEnvNotes(['openai', 'anthropic'], {}), []);
  assert.ok(ignoredSdkEnvNotes(['openai', 'anthropic'], both).every((n) => !n.includes(OTHER) && !n.includes(GATEWAY)));
});
