import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../lib/errors';
import { describeSettings, preflightWith } from '../../../lib/collect/providers/preflight';
import type { ModelSettings } from '../../../lib/collect/providers/model-settings';
import { ProviderError, type CompletionRequest, type CompletionResult } from '../../../lib/provider/contract';

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
const REQ: CompletionRequest = { runId: 'pf', system: 's', user: 'u', schemaName: 'a', jsonSchema: { type: 'object' }, maxOutputTokens: 64, timeoutMs: 1000 };
const answer = (over: Partial<CompletionResult> = {}): CompletionResult => ({ text: '{"recommended":[1]}', finishReason: 'stop', refusal: null, modelVersion: null, usage: null, httpStatus: 200, requestId: null, ...over });
const SETTINGS_LINE = 'openai:gpt-x: chat_completions at api.openai.com, max_completion_tokens ≤ 16384, structured output json_schema_strict, reasoning_effort medium, key from OPENAI_API_KEY';

test('describeSettings: one line of what is sent; optional parts only when set', () => {
  assert.equal(`openai:gpt-x: ${describeSettings(SETTINGS)}`, SETTINGS_LINE);
  const anthropic: ModelSettings = { ...SETTINGS, provider: 'anthropic', api: 'messages', token_field: 'max_tokens', output_cap: null, structured_output: 'strict_tool', reasoning_effort: null, thinking: { type: 'enabled', budget_tokens: 2048 } as never, effort: 'high', temperature: 0, top_p: 0.9, key_variable: null, schema_dialect: 'gemini' };
  assert.equal(
    describeSettings(anthropic),
    'messages at api.openai.com, max_tokens ≤ the requested allowance, structured output strict_tool, schema dialect gemini, thinking enabled (budget 2048), effort high, temperature 0, top_p 0.9, no key (placeholder)',
  );
});

test('a JSON-object answer is ok, with the settings, served model and usage as notes after the given ones', async () => {
  const r = await preflightWith(async () => answer({ modelVersion: 'gpt-x-2026-01-01', usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 0, reasoningTokens: 12 } }), REQ, SETTINGS, ['catalogue note']);
  assert.deepEqual(r, {
    ok: true,
    notes: ['catalogue note', SETTINGS_LINE, 'openai:gpt-x: served by gpt-x-2026-01-01', 'openai:gpt-x: pre-flight used 120 input and 30 output tokens (0 cached, 12 reasoning)'],
  });
});

test('transient failures are inconclusive (ok with a note); others stop with the provider remedy or a default', async () => {
  const rate = await preflightWith(async () => { throw new ProviderError('openai HTTP 429', 'rate_limit'); }, REQ, SETTINGS, []);
  assert.equal(rate.ok, true);
  assert.match(rate.ok ? rate.notes[1]! : '', /pre-flight inconclusive \(rate_limit: openai HTTP 429\)/);
  const gone = await preflightWith(async () => { throw new ProviderError('openai HTTP 404 model_not_found', 'client_error', { remedy: 'pick another model' }); }, REQ, SETTINGS, []);
  assert.deepEqual(gone, { ok: false, message: 'openai:gpt-x: pre-flight failed: openai HTTP 404 model_not_found', remedy: 'pick another model' });
  const down = await preflightWith(async () => { throw new ProviderError('ECONNREFUSED', 'connection'); }, REQ, SETTINGS, []);
  assert.equal(down.ok ? '' : down.remedy, 'nothing answered at api.openai.com: start the server or correct the base URL (spec@URL, --models-file or --base-url)');
  const ours = await preflightWith(async () => { throw new InputError('schemaName bad'); }, REQ, SETTINGS, []);
  assert.deepEqual(ours, { ok: false, message: 'openai:gpt-x: pre-flight refused: schemaName bad', remedy: 'fix the request settings named in the message' });
  await assert.rejects(preflightWith(async () => { throw new TypeError('our bug'); }, REQ, SETTINGS, []), TypeError);
});

test('a cut-off answer or a non-object answer stops the run; a refusal does not', async () => {
  const cut = await preflightWith(async () => answer({ finishReason: 'length', text: '{"recomm' }), REQ, SETTINGS, []);
  assert.equal(cut.ok, false);
  assert.match(cut.ok ? '' : cut.message, /cut off by the output limit \(finish reason length\)/);
  for (const text of ['[1, 2]', 'Sure! Here is', 'null']) {
    const r = await preflightWith(async () => answer({ text }), REQ, SETTINGS, []);
    assert.deepEqual(r, { ok: false, message: 'openai:gpt-x: pre-flight answer is not a JSON object, so the server did not apply the answer schema (json_schema_strict)', remedy: 'check that the model supports Structured Outputs' }, text);
  }
  const compat = await preflightWith(async () => answer({ text: 'x' }), REQ, { ...SETTINGS, provider: 'openai-compatible' }, []);
  assert.match(compat.ok ? '' : compat.remedy, /response_format json_schema/);
  const refusal = await preflightWith(async () => answer({ text: '', refusal: 'I cannot' }), REQ, SETTINGS, []);
  assert.equal(refusal.ok, true);
});
