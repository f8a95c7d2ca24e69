/** Per-model endpoints and keys (endpoints.ts): spec@URL, --base-url routing, the models file, credentials in URLs. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProvider, redactUrl, resolveModelTargets } from '../../../lib/collect/providers';
import { parseModelsFile, splitSpecUrl } from '../../../lib/collect/providers/endpoints';
import { InputError } from '../../../lib/errors';

const KEY = 'sk-planted-REAL-0123456789abcdef';

test('item 7: per-model endpoints and keys; keys only to their hosts; credentials in URLs refused or redacted', () => {
  assert.deepEqual(splitSpecUrl('openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1'), { spec: 'openai-compatible:llama3.1:8b', baseUrl: 'http://127.0.0.1:11434/v1' });
  assert.deepEqual(splitSpecUrl('anthropic:claude-haiku-4-5@20251001'), { spec: 'anthropic:claude-haiku-4-5@20251001' }, 'a Vertex-style @date is part of the name');
  // The case: openai + openai-compatible with one --base-url → only the compatible model goes there.
  const mixed = resolveModelTargets(['openai:gpt-4o', 'openai-compatible:llama3.1:8b', 'simulated:sim-a'], { baseUrl: 'http://127.0.0.1:11434/v1' });
  assert.equal(mixed.optionsFor('openai:gpt-4o').baseUrl, undefined);
  assert.equal(mixed.optionsFor('openai-compatible:llama3.1:8b').baseUrl, 'http://127.0.0.1:11434/v1');
  assert.equal(mixed.optionsFor('simulated:sim-a').baseUrl, undefined);
  assert.match(mixed.notes.join('\n'), /--base-url does not apply to openai:gpt-4o/);
  // One provider only: --base-url is that provider's gateway.
  assert.equal(resolveModelTargets(['anthropic:claude-haiku-4-5'], { baseUrl: 'http://127.0.0.1:9/' }).optionsFor('anthropic:claude-haiku-4-5').baseUrl, 'http://127.0.0.1:9');
  // spec@URL and the models file give each model its own server.
  const file = parseModelsFile(JSON.stringify({ models: [{ spec: 'openai-compatible:qwen', base_url: 'http://127.0.0.1:8000/v1', api_key_env: 'VLLM_KEY', max_output_tokens: 4096 }] }), 'models.json');
  const t = resolveModelTargets(['openai-compatible:qwen', 'openai-compatible:llama@http://127.0.0.1:11434/v1'], { modelsFile: file });
  assert.deepEqual(t.optionsFor('openai-compatible:qwen'), { baseUrl: 'http://127.0.0.1:8000/v1', model: file.models[0], sharedCompatibleKey: false });
  assert.equal(t.optionsFor('openai-compatible:llama').baseUrl, 'http://127.0.0.1:11434/v1');
  assert.throws(() => resolveModelTargets(['openai-compatible:a@http://127.0.0.1:1/v1', 'openai-compatible:a@http://127.0.0.1:2/v1']), /twice/);
  // Keys: a compatible server never gets OPENAI_API_KEY implicitly; a named variable must exist.
  assert.throws(
    () => createProvider('openai-compatible:qwen', { ...t.optionsFor('openai-compatible:qwen'), env: { OPENAI_API_KEY: KEY } }),
    (e: unknown) => e instanceof InputError && e.message.includes('VLLM_KEY') && !e.message.includes(KEY),
  );
  // Credentials in URLs are refused (without echoing them) and redacted wherever a URL is shown.
  for (const bad of ['http://user:hunter2pass@127.0.0.1:8000/v1', 'http://127.0.0.1:8000/v1?api_key=hunter2pass', 'http://127.0.0.1:8000/v1?token=hunter2pass']) {
    assert.throws(
      () => resolveModelTargets([`openai-compatible:m@${bad}`]),
      (e: unknown) => e instanceof InputError && !e.message.includes('hunter2pass') && e.message.includes('[redacted]'),
      bad,
    );
    assert.throws(() => createProvider('openai-compatible:m', { baseUrl: bad, env: {} }), (e: unknown) => e instanceof InputError && !e.message.includes('hunter2pass'));
    assert.ok(!redactUrl(bad).includes('hunter2pass'), redactUrl(bad));
  }
  assert.equal(redactUrl('http://127.0.0.1:8000/v1?api-version=2024-10-21'), 'http://127.0.0.1:8000/v1?api-version=2024-10-21');
  assert.throws(() => parseModelsFile(JSON.stringify({ models: [{ spec: 'openai-compatible:m', base_url: 'http://a:b@127.0.0.1/v1' }] }), 'm.json'), /m\.json: models\[0\]/);
});


test('keys per compatible host: spec@URL=VARIABLE names the key; with several hosts OPENAI_COMPATIBLE_API_KEY reaches none', () => {
  assert.deepEqual(splitSpecUrl('openai-compatible:m@http://gpu-1:8000/v1=GPU1_KEY'), { spec: 'openai-compatible:m', baseUrl: 'http://gpu-1:8000/v1', keyVariable: 'GPU1_KEY' });
  assert.deepEqual(splitSpecUrl('openai-compatible:m@http://h/v1?v=GPU1_KEY'), { spec: 'openai-compatible:m', baseUrl: 'http://h/v1?v=GPU1_KEY' }, 'not inside a query');
  const two = resolveModelTargets(['openai-compatible:a@http://127.0.0.1:1/v1=KEY_A', 'openai-compatible:b@http://127.0.0.1:2/v1']);
  assert.deepEqual(two.keyVariables, ['KEY_A'], 'named key variables are redacted like the standard ones');
  const env = { KEY_A: 'secret-a-0123', OPENAI_COMPATIBLE_API_KEY: 'shared-0123456789' };
  assert.equal(createProvider('openai-compatible:a', { ...two.optionsFor('openai-compatible:a'), env }).settings?.()['key_variable'], 'KEY_A');
  assert.throws(
    () => createProvider('openai-compatible:b', { ...two.optionsFor('openai-compatible:b'), env }),
    (e: unknown) => e instanceof InputError && /several OpenAI-compatible hosts/.test(e.message) && !e.message.includes('shared-0123456789'),
  );
  // One compatible host: the shared variable is that host's key, as before.
  const one = resolveModelTargets(['openai-compatible:b@http://127.0.0.1:2/v1']);
  assert.equal(createProvider('openai-compatible:b', { ...one.optionsFor('openai-compatible:b'), env }).settings?.()['key_variable'], 'OPENAI_COMPATIBLE_API_KEY');
  assert.throws(() => resolveModelTargets(['openai-compatible:a@http://127.0.0.1:1/v1=KEY_A'], { modelsFile: parseModelsFile(JSON.stringify({ models: [{ spec: 'openai-compatible:a', api_key_env: 'KEY_B' }] }), 'm.json') }), /KEY_A.*KEY_B/);
});
