import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../lib/errors';
import { planProvider } from '../../../lib/collect/providers/plan';

test('defaults: OpenAI at api.openai.com/v1 with OPENAI_API_KEY, Anthropic at api.anthropic.com with ANTHROPIC_API_KEY', () => {
  const o = planProvider('openai:gpt-4o', { env: { OPENAI_API_KEY: ' sk-o ', ANTHROPIC_API_KEY: 'sk-a' } });
  assert.equal(o.baseURL, 'https://api.openai.com/v1');
  assert.equal(o.apiKey, 'sk-o', 'the key is trimmed');
  assert.equal(o.settings.host, 'api.openai.com');
  assert.equal(o.settings.key_variable, 'OPENAI_API_KEY');
  assert.equal(o.settings.api, 'chat_completions');
  const a = planProvider('anthropic:claude-x', { env: { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' } });
  assert.equal(a.baseURL, 'https://api.anthropic.com');
  assert.equal(a.apiKey, 'sk-a');
  assert.equal(a.settings.api, 'messages');
  assert.equal(a.settings.key_variable, 'ANTHROPIC_API_KEY');
});

test('openai-compatible: a URL is required; the key is OPENAI_COMPATIBLE_API_KEY or the placeholder, never OPENAI_API_KEY', () => {
  assert.throws(() => planProvider('openai-compatible:llama3.1:8b', { env: {} }), (e: unknown) => e instanceof InputError && /needs a URL/.test(e.message));
  const p = planProvider('openai-compatible:llama3.1:8b', { baseUrl: 'http://localhost:11434/v1', env: { OPENAI_API_KEY: 'sk-must-not-go' } });
  assert.equal(p.apiKey, 'no-key-needed');
  assert.equal(p.settings.key_variable, null);
  assert.equal(p.settings.host, 'localhost:11434');
  assert.equal(p.settings.model, 'llama3.1:8b');
  const k = planProvider('openai-compatible:m', { baseUrl: 'http://gw.example/v1', env: { OPENAI_COMPATIBLE_API_KEY: 'sk-gw' } });
  assert.equal(k.apiKey, 'sk-gw');
});

test('api_key_env in the model options names the variable; a missing key is an InputError naming it (not the value)', () => {
  const p = planProvider('openai:gpt-4o', { env: { TEAM_KEY: 'sk-team', OPENAI_API_KEY: 'sk-default' }, model: { spec: 'openai:gpt-4o', api_key_env: 'TEAM_KEY' } });
  assert.equal(p.apiKey, 'sk-team');
  assert.equal(p.settings.key_variable, 'TEAM_KEY');
  assert.throws(() => planProvider('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: '   ' } }), (e: unknown) => e instanceof InputError && e.message === 'anthropic:claude-x needs an API key: set the environment variable ANTHROPIC_API_KEY');
});

test('a simulated spec has no plan; a base URL with a credential is refused', () => {
  assert.throws(() => planProvider('simulated:sim-a'), /the simulated respondent has no provider settings/);
  assert.throws(
    () => planProvider('openai:gpt-4o', { baseUrl: 'https://user:pw@gw.example/v1', env: { OPENAI_API_KEY: 'k' } }),
    (e: unknown) => e instanceof InputError && e.message.startsWith('base URL "https://[redacted]@gw.example/v1" for openai:gpt-4o contains a user name or password') && !e.message.includes('pw'),
  );
});

test('a real key to another machine over plain http is warned about before the run; loopback, https and the placeholder are not', () => {
  const env = { OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a', OPENAI_COMPATIBLE_API_KEY: 'sk-gw' };
  const warned = (spec: string, baseUrl: string, e: NodeJS.ProcessEnv = env) => planProvider(spec, { baseUrl, env: e }).notes.filter((n) => /plain http/.test(n));
  assert.deepEqual(warned('openai:gpt-4o', 'http://gateway.example.com/v1'), [
    'openai:gpt-4o: the key in OPENAI_API_KEY goes to gateway.example.com over plain http, unencrypted: use https unless every network on the way is yours',
  ]);
  assert.equal(warned('anthropic:claude-x', 'http://10.0.0.7:8080').length, 1);
  assert.equal(warned('openai-compatible:m', 'http://192.168.1.5:11434/v1').length, 1, 'a named compatible key too');
  assert.deepEqual(warned('openai-compatible:m', 'http://192.168.1.5:11434/v1', {}), [], 'the placeholder is no secret');
  for (const local of ['http://localhost:11434/v1', 'http://127.0.0.1:8000/v1', 'http://[::1]:8000/v1', 'https://gateway.example.com/v1']) {
    assert.deepEqual(warned('openai:gpt-4o', local), [], local);
  }
});
