import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../lib/errors';
import { outputAllowance, resolveModelSettings } from '../../../lib/collect/providers/model-settings';
import { ProviderError } from '../../../lib/provider/contract';

const base = { provider: 'openai-compatible' as const, model: 'm' };
const NO_CATALOGUE = { host: 'localhost:8000', keyVariable: null, catalogue: null };

test('outputAllowance worked by hand: cap, then the window left after the prompt at 3 characters per token', () => {
  assert.equal(outputAllowance({ ...base, output_cap: null, context_window: null }, 16_000, 50_000), 16_000, 'nothing known: as requested');
  assert.equal(outputAllowance({ ...base, output_cap: 8_192, context_window: null }, 16_000, 0), 8_192);
  // window 8,192, prompt 6,000 characters = 2,000 tokens → 6,192 left
  assert.equal(outputAllowance({ ...base, output_cap: null, context_window: 8_192 }, 16_000, 6_000), 6_192);
  // 6,001 characters round up to 2,001 tokens → 6,191
  assert.equal(outputAllowance({ ...base, output_cap: null, context_window: 8_192 }, 16_000, 6_001), 6_191);
  // the smaller of cap (4,096) and room (6,192)
  assert.equal(outputAllowance({ ...base, output_cap: 4_096, context_window: 8_192 }, 16_000, 6_000), 4_096);
  // exactly one token of room: 3 × 8,191 = 24,573 characters → room 1
  assert.equal(outputAllowance({ ...base, output_cap: null, context_window: 8_192 }, 16_000, 24_573), 1);
});

test('a prompt that fills the window is a deterministic client_error with a remedy', () => {
  assert.throws(
    () => outputAllowance({ ...base, output_cap: null, context_window: 100 }, 500, 300),
    (e: unknown) =>
      e instanceof ProviderError &&
      e.errorClass === 'client_error' &&
      e.message === 'openai-compatible:m: the prompt (~100 tokens) does not fit the context window of 100' &&
      e.info.deterministic === true &&
      e.info.code === 'context_length_exceeded',
  );
});

test('without a catalogue: the provider decides token field, API and structured output; options override', () => {
  const compat = resolveModelSettings('openai-compatible', 'llama', { spec: 'openai-compatible:llama' }, NO_CATALOGUE).settings;
  assert.equal(compat.token_field, 'max_tokens');
  assert.equal(compat.api, 'chat_completions');
  assert.equal(compat.schema_dialect, 'openai');
  assert.equal(compat.reasoning_effort, null);
  assert.equal(compat.catalogue_key, null);
  const openai = resolveModelSettings('openai', 'gpt-x', { spec: 'openai:gpt-x', max_output_tokens: 2048, temperature: 0.2 }, { ...NO_CATALOGUE, host: 'api.openai.com', keyVariable: 'OPENAI_API_KEY' }).settings;
  assert.equal(openai.token_field, 'max_completion_tokens');
  assert.equal(openai.output_cap, 2048);
  assert.equal(openai.temperature, 0.2);
  assert.equal(openai.key_variable, 'OPENAI_API_KEY');
  const gemini = resolveModelSettings('openai-compatible', 'gemini-2.5', { spec: 'openai-compatible:gemini-2.5' }, { ...NO_CATALOGUE, host: 'generativelanguage.googleapis.com' }).settings;
  assert.equal(gemini.schema_dialect, 'gemini', 'recognised by host');
  const anthropic = resolveModelSettings('anthropic', 'claude-x', { spec: 'anthropic:claude-x', structured_output: 'strict_tool' }, NO_CATALOGUE).settings;
  assert.equal(anthropic.api, 'messages');
  assert.equal(anthropic.token_field, 'max_tokens');
  assert.equal(anthropic.structured_output, 'strict_tool');
  assert.equal(anthropic.thinking, 'disabled', 'no catalogue: thinking explicitly disabled');
});

test('parameters of the other provider are noted and ignored; temperature for Anthropic is refused', () => {
  const r = resolveModelSettings('openai', 'gpt-x', { spec: 'openai:gpt-x', effort: 'high' }, NO_CATALOGUE);
  assert.deepEqual(r.notes, ['openai:gpt-x: thinking/effort are Anthropic parameters and are ignored here (use reasoning_effort)']);
  assert.equal(r.settings.effort, null);
  const a = resolveModelSettings('anthropic', 'claude-x', { spec: 'anthropic:claude-x', reasoning_effort: 'low' }, NO_CATALOGUE);
  assert.deepEqual(a.notes, ['anthropic:claude-x: reasoning_effort is an OpenAI parameter and is ignored for Anthropic (use effort)']);
  assert.throws(() => resolveModelSettings('anthropic', 'claude-x', { spec: 'anthropic:claude-x', top_p: 0.9 }, NO_CATALOGUE), (e: unknown) => e instanceof InputError && /temperature\/top_p cannot be sent/.test(e.message));
});
