import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSettings, settingsNotes } from '../../../lib/collect/providers/preflight';
import type { ModelSettings } from '../../../lib/collect/providers/model-settings';

const SETTINGS: ModelSettings = {
  provider: 'openai',
  model: 'gpt-x',
  api: 'chat_completions',
  host: 'api.openai.com',
  catalogue_key: 'openai:gpt-x',
  token_field: 'max_completion_tokens',
  output_cap: 16384,
  context_window: 128000,
  structured_output: 'json_schema_strict',
  schema_dialect: 'openai',
  temperature: null,
  top_p: null,
  reasoning_effort: 'medium',
  thinking: null,
  effort: null,
  key_variable: 'OPENAI_API_KEY',
};
const SETTINGS_LINE = 'openai:gpt-x: chat_completions at api.openai.com, max_completion_tokens ≤ 16384, structured output json_schema_strict, reasoning_effort medium, key from OPENAI_API_KEY';

test('describeSettings: one line of what is sent; optional parts only when set', () => {
  assert.equal(`openai:gpt-x: ${describeSettings(SETTINGS)}`, SETTINGS_LINE);
  const anthropic: ModelSettings = { ...SETTINGS, provider: 'anthropic', api: 'messages', token_field: 'max_tokens', output_cap: null, structured_output: 'strict_tool', reasoning_effort: null, thinking: { type: 'enabled', budget_tokens: 2048 } as never, effort: 'high', temperature: 0, top_p: 0.9, key_variable: null, schema_dialect: 'gemini' };
  assert.equal(
    describeSettings(anthropic),
    'messages at api.openai.com, max_tokens ≤ the requested allowance, structured output strict_tool, schema dialect gemini, thinking enabled (budget 2048), effort high, temperature 0, top_p 0.9, no key (placeholder)',
  );
});

test('settingsNotes: the catalogue notes first, then the one line of what is sent', () => {
  assert.deepEqual(settingsNotes(SETTINGS, ['catalogue note']), ['catalogue note', SETTINGS_LINE]);
});
