/**
 * Issue 9, providers half: one emulator test per item, against the loopback fake server replaying
 * the providers' documented error bodies, status codes and headers (test/support/provider-errors.ts
 * cites each) and validating requests the way the real APIs do (test/support/fake-llm-server.ts,
 * `validateOpenAI` / `validateAnthropic`, with citations). Everything runs on 127.0.0.1. Items 4 and 7
 * need no server and live in catalogue.test.ts and endpoints.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlmServer, type FakeLlmServer } from '../../support/fake-llm-server';
import {
  ANTHROPIC_CONTRACT_SPEND_LIMIT,
  ANTHROPIC_ENFORCED_SPEND_LIMIT,
  ANTHROPIC_RAMP_LIMIT,
  ANTHROPIC_USAGE_LIMIT_400,
  OPENAI_503_SHOULD_NOT_RETRY,
  OPENAI_INSUFFICIENT_QUOTA,
  OPENAI_RPM_429_MENTIONING_BILLING,
  anthropicRateLimit,
} from '../../support/provider-errors';
import { createBatchClient, createProvider, ProviderError, type CompletionRequest } from '../../../lib/collect/providers';
import { planFailedBatch } from '../../../lib/collect/providers/batch';
import { toGeminiSchema } from '../../../lib/collect/providers/openai-format';
import { assumedOutputTokens, estimateCost, loadPriceTable } from '../../../lib/collect/prices';
import { InputError } from '../../../lib/errors';

const KEY = 'sk-planted-REAL-0123456789abcdef';
const env = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };
const schema = {
  type: 'object',
  properties: { recommended: { type: 'array', items: { type: 'string' } }, reason: { type: ['string', 'null'] } },
  required: ['recommended', 'reason'],
  additionalProperties: false,
};
const request = (over: Partial<CompletionRequest> = {}): CompletionRequest => ({
  runId: 'run-0001',
  system: 'You are a tutor.',
  user: 'Which components next?',
  schemaName: 'next_steps',
  jsonSchema: schema,
  maxOutputTokens: 16000,
  timeoutMs: 5000,
  ...over,
});
const ANSWER = '{"recommended":["A"],"reason":null}';

let server: FakeLlmServer;
before(async () => {
  server = await startFakeLlmServer({
    apiKey: KEY,
    models: {
      'gpt-4o': { maxOutputTokens: 16384, refuseParams: ['reasoning_effort'] },
      'gpt-5-mini': { maxOutputTokens: 128000, refuseTokenFields: ['max_tokens'], refuseParams: ['temperature'] },
      'gpt-5-pro': { responsesOnly: true },
      'small-8k': { maxOutputTokens: 8192 },
      'claude-haiku-4-5': { maxOutputTokens: 64000 },
      'claude-opus-4-6': { maxOutputTokens: 128000, thinking: ['adaptive', 'disabled'] },
      'claude-adaptive-only': { maxOutputTokens: 64000, thinking: ['adaptive'] },
    },
  });
});
after(async () => {
  await server.close();
});

const lastBody = () => server.requests.at(-1)!.body as Record<string, any>;
async function failure(p: ReturnType<typeof createProvider>, req = request()): Promise<ProviderError> {
  try {
    await p.complete(req);
  } catch (err) {
    assert.ok(err instanceof ProviderError, String(err));
    return err;
  }
  assert.fail('expected a ProviderError');
}

test('item 1: an OpenAI RPM 429 whose message mentions billing is a rate limit; its wait comes from x-ratelimit-reset-requests', async () => {
  const p = createProvider('openai:gpt-4o', { baseUrl: server.openaiBaseUrl, env });
  server.script(() => OPENAI_RPM_429_MENTIONING_BILLING);
  const e = await failure(p);
  assert.equal(e.errorClass, 'rate_limit');
  assert.equal(e.info.retryAfterMs, 90_000, 'x-ratelimit-remaining-requests: 0 → x-ratelimit-reset-requests 1m30s');
  server.script(() => OPENAI_INSUFFICIENT_QUOTA);
  const q = await failure(p);
  assert.equal(q.errorClass, 'quota');
  assert.equal(q.info.deterministic, true);
  assert.match(q.info.remedy!, /add credit/);
  server.script(() => OPENAI_503_SHOULD_NOT_RETRY);
  const s = await failure(p);
  assert.equal(s.errorClass, 'server_error');
  assert.equal(s.info.shouldRetry, false);
  assert.equal(s.info.deterministic, undefined, 'x-should-retry: false is "do not retry", not deterministic (the breaker does not count a 503)');
});

test('item 3: Anthropic spend limits (429 enforced/contract, 400 usage limits) are quota; ramp limits and per-minute 429s are rate limits', async () => {
  const p = createProvider('anthropic:claude-haiku-4-5', { baseUrl: server.baseUrl, env });
  for (const [plan, code] of [
    [ANTHROPIC_ENFORCED_SPEND_LIMIT, 'enforced_spend_limit_reached'],
    [ANTHROPIC_CONTRACT_SPEND_LIMIT, 'contract_spend_limit_reached'],
  ] as const) {
    server.script(() => plan);
    const e = await failure(p);
    assert.equal(e.errorClass, 'quota', `${code}: ${e.message}`);
    assert.equal(e.info.code, code);
    assert.equal(e.info.httpStatus, 429);
  }
  server.script(() => ANTHROPIC_USAGE_LIMIT_400);
  const usage = await failure(p);
  assert.equal(usage.errorClass, 'quota');
  assert.equal(usage.info.httpStatus, 400);
  assert.match(usage.info.remedy!, /Anthropic Console/);
  server.script(() => ANTHROPIC_RAMP_LIMIT);
  const ramp = await failure(p);
  assert.equal(ramp.errorClass, 'rate_limit');
  assert.equal(ramp.info.retryAfterMs, 7000);
  const reset = new Date(Date.now() + 40_000).toISOString();
  server.script(() => anthropicRateLimit(reset));
  const rl = await failure(p);
  assert.equal(rl.errorClass, 'rate_limit');
  assert.ok(rl.info.retryAfterMs! > 30_000 && rl.info.retryAfterMs! <= 40_000, String(rl.info.retryAfterMs));
});

test('item 5: the output allowance is capped per model; exactly one token field, chosen per server', async () => {
  const p = createProvider('openai:gpt-4o', { baseUrl: server.openaiBaseUrl, env });
  server.script(() => ({ kind: 'json', content: ANSWER }));
  await p.complete(request({ maxOutputTokens: 16000 }));
  assert.equal(lastBody()['max_completion_tokens'], 16000);
  // A model with an 8,192 cap (models-file), asked for 16,000: 8,192 goes out and the server accepts it.
  const small = createProvider('openai-compatible:small-8k', { baseUrl: server.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY }, model: { spec: 'openai-compatible:small-8k', max_output_tokens: 8192 } });
  assert.equal((await small.complete(request())).text, ANSWER);
  assert.equal(lastBody()['max_tokens'], 8192);
  assert.equal('max_completion_tokens' in lastBody(), false);
  // Without the cap the same server answers 400 invalid_value on max_tokens, and the remedy says how to fix it.
  const uncapped = createProvider('openai-compatible:small-8k', { baseUrl: server.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY } });
  const e = await failure(uncapped);
  assert.equal(e.errorClass, 'client_error');
  assert.equal(e.info.param, 'max_tokens');
  assert.equal(e.info.deterministic, true);
  assert.match(e.info.remedy!, /max_output_tokens/);
  // vLLM-style context window: prompt + output must fit (prompt counted at 3 characters per token).
  const ctx = createProvider('openai-compatible:small-8k', { baseUrl: server.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY }, model: { spec: 'openai-compatible:small-8k', context_window: 4096 } });
  await ctx.complete(request());
  const promptChars = 'You are a tutor.'.length + 'Which components next?'.length;
  assert.equal(lastBody()['max_tokens'], 4096 - Math.ceil(promptChars / 3));
  // A gateway serving a reasoning model refuses max_tokens: the remedy names the other field, and
  // token_field in the models file fixes it.
  const gw = createProvider('openai-compatible:gpt-5-mini', { baseUrl: server.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY } });
  const refused = await failure(gw);
  assert.match(refused.info.remedy!, /"token_field": "max_completion_tokens"/);
  const fixed = createProvider('openai-compatible:gpt-5-mini', { baseUrl: server.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY }, model: { spec: 'openai-compatible:gpt-5-mini', token_field: 'max_completion_tokens' } });
  assert.equal((await fixed.complete(request())).text, ANSWER);
});

test('item 6: batch — errors read, a failed batch planned (retry later / split / stop), a cancelled batch stays cancelled, org and project sent', async () => {
  assert.deepEqual(planFailedBatch([{ code: 'token_limit_exceeded', message: 'Enqueued token limit reached' }], 40), {
    action: 'retry_later',
    parts: 2,
    retryAfterMs: 600_000,
    code: 'token_limit_exceeded',
    message: 'Enqueued token limit reached',
  });
  assert.equal(planFailedBatch([{ code: 'max_file_size_exceeded', message: 'too big' }], 10).action, 'split');
  const stop = planFailedBatch([{ code: 'model_not_found', message: 'no such model', line: 3 }], 10);
  assert.equal(stop.action, 'stop');
  assert.match((stop as { message: string }).message, /input line 3/);

  const failing = await startFakeLlmServer({
    apiKey: KEY,
    batchPollsBeforeDone: 0,
    openaiBatchFailure: () => ({ code: 'token_limit_exceeded', message: 'Enqueued token limit reached for gpt-4o in organization org-x. Limit: 90,000 enqueued tokens. Please try again once some in_progress batches have been completed.' }),
  });
  try {
    const client = createBatchClient('openai:gpt-4o', { baseUrl: failing.openaiBaseUrl, env: { ...env, OPENAI_ORG_ID: 'org-test', OPENAI_PROJECT_ID: 'proj_test' } });
    const id = await client.submitBatch([request({ runId: 'a' }), request({ runId: 'b' })]);
    for (const r of failing.requests) {
      assert.equal(r.headers['openai-organization'], 'org-test', r.path);
      assert.equal(r.headers['openai-project'], 'proj_test', r.path);
    }
    const status = await client.pollBatch(id);
    assert.equal(status.state, 'failed');
    assert.deepEqual(status.errors?.map((e) => e.code), ['token_limit_exceeded']);
    assert.equal(status.failure?.action, 'retry_later');
    assert.equal((await client.fetchBatchResults(id)).size, 0, 'no item is turned into a result; the lifecycle resubmits per the plan');
  } finally {
    await failing.close();
  }

  const slow = await startFakeLlmServer({ apiKey: KEY, batchPollsBeforeDone: 5 });
  try {
    const client = createBatchClient('anthropic:claude-haiku-4-5', { baseUrl: slow.baseUrl, env });
    const id = await client.submitBatch([request({ runId: 'x' })]);
    const sdk = new (require('@anthropic-ai/sdk').Anthropic)({ apiKey: KEY, baseURL: slow.baseUrl, maxRetries: 0 });
    await sdk.messages.batches.cancel(id); // the user cancels, e.g. in the Console
    const status = await client.pollBatch(id);
    assert.equal(status.state, 'cancelled');
    assert.equal(status.cancelledByUser, true);
    const item = (await client.fetchBatchResults(id)).get('x');
    assert.ok(item instanceof ProviderError && item.info.code === 'batch_cancelled' && item.info.deterministic === true);
  } finally {
    await slow.close();
  }
});

test('item 10: structured output per provider; thinking and effort explicit and recorded; strict tool never forced with thinking', async () => {
  const o = createProvider('openai:gpt-5-mini', { baseUrl: server.openaiBaseUrl, env });
  server.script(() => ({ kind: 'json', content: ANSWER }));
  await o.complete(request());
  const ob = lastBody();
  assert.deepEqual(ob['response_format'], { type: 'json_schema', json_schema: { name: 'next_steps', schema, strict: true } });
  assert.equal(ob['reasoning_effort'], 'medium', 'reasoning effort is sent explicitly');
  assert.equal(o.settings!()['reasoning_effort'], 'medium');
  assert.equal(o.settings!()['token_field'], 'max_completion_tokens');

  // Adaptive-only model: the default becomes adaptive, with native JSON output (no forced tool).
  const adaptive = createProvider('anthropic:claude-adaptive-only', { baseUrl: server.baseUrl, env, model: { spec: 'anthropic:claude-adaptive-only', thinking: 'adaptive', effort: 'medium' } });
  assert.equal((await adaptive.complete(request())).text, ANSWER);
  assert.deepEqual(lastBody()['thinking'], { type: 'adaptive' });
  assert.deepEqual(lastBody()['output_config'], { effort: 'medium', format: { type: 'json_schema', schema } });
  assert.equal(adaptive.settings!()['thinking'], 'adaptive');
  assert.equal(adaptive.settings!()['effort'], 'medium');
  // Thinking disabled on a model that only thinks adaptively: the server's 400 comes back as a deterministic client error.
  const disabled = createProvider('anthropic:claude-adaptive-only', { baseUrl: server.baseUrl, env });
  const e = await failure(disabled);
  assert.equal(e.errorClass, 'client_error');
  assert.equal(e.info.deterministic, true);
  assert.match(e.message, /thinking\.type/);
  assert.ok(e.info.remedy);
  // Strict tool with thinking: tool_choice auto (a forced tool + thinking is a 400 on the real API).
  const tool = createProvider('anthropic:claude-opus-4-6', { baseUrl: server.baseUrl, env, model: { spec: 'anthropic:claude-opus-4-6', structured_output: 'strict_tool', thinking: 'adaptive' } });
  await tool.complete(request({ maxOutputTokens: 8000 }));
  assert.deepEqual(lastBody()['tool_choice'], { type: 'auto' });
  assert.equal(lastBody()['tools'][0].strict, true);
  const forced = createProvider('anthropic:claude-opus-4-6', { baseUrl: server.baseUrl, env, model: { spec: 'anthropic:claude-opus-4-6', structured_output: 'strict_tool', thinking: 'disabled' } });
  assert.equal((await forced.complete(request({ maxOutputTokens: 8000 }))).text, ANSWER);
  assert.deepEqual(lastBody()['tool_choice'], { type: 'tool', name: 'next_steps' });
  // Anthropic's Messages parameters (SDK 1.14) have no temperature: refused before anything is sent.
  assert.throws(() => createProvider('anthropic:claude-haiku-4-5', { baseUrl: server.baseUrl, env, model: { spec: 'anthropic:claude-haiku-4-5', temperature: 0 } }), InputError);
});

test('item 11: above the SDK non-streaming limit the request streams (no timeout override); below it, a timeout the SDK accepts', async () => {
  const p = createProvider('anthropic:claude-opus-4-6', { baseUrl: server.baseUrl, env });
  server.script(() => ({ kind: 'json', content: ANSWER, usage: { input: 30, output: 12, reasoning: 5 } }));
  // 64,000 > 21,333 (= 10 min × 128,000 / 60 min): the SDK would refuse it non-streaming.
  const streamed = await p.complete(request({ maxOutputTokens: 64_000, timeoutMs: 5000 }));
  assert.equal(lastBody()['stream'], true);
  assert.equal(lastBody()['max_tokens'], 64_000);
  assert.equal(streamed.text, ANSWER);
  assert.deepEqual(streamed.usage, { inputTokens: 30, outputTokens: 12, reasoningTokens: 5 });
  assert.equal(streamed.httpStatus, 200);
  await p.complete(request({ maxOutputTokens: 16_000 }));
  assert.equal(lastBody()['stream'], undefined, '16,000 tokens fit the SDK non-streaming limit');
});

test('item 13: Gemini OpenAI-compatible endpoint — anyOf with null instead of type arrays', async () => {
  assert.deepEqual(toGeminiSchema(schema), {
    type: 'object',
    properties: { recommended: { type: 'array', items: { type: 'string' } }, reason: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    required: ['recommended', 'reason'],
    additionalProperties: false,
  });
  assert.deepEqual(toGeminiSchema({ type: ['string', 'null'], enum: ['a', null] }), { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'null' }] });
  const gemini = await startFakeLlmServer({ apiKey: KEY, geminiDialect: true, handler: () => ({ kind: 'json', content: ANSWER }) });
  try {
    const plain = createProvider('openai-compatible:gemini-x', { baseUrl: gemini.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY } });
    const e = await failure(plain);
    assert.equal(e.errorClass, 'client_error');
    assert.match(e.message, /Proto field is not repeating/);
    const dialect = createProvider('openai-compatible:gemini-x', { baseUrl: gemini.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY }, model: { spec: 'openai-compatible:gemini-x', schema_dialect: 'gemini' } });
    assert.equal((await dialect.complete(request())).text, ANSWER);
    assert.equal(dialect.settings!()['schema_dialect'], 'gemini');
  } finally {
    await gemini.close();
  }
  // Gemini's real host selects the dialect by itself.
  const byHost = createProvider('openai-compatible:gemini-2.5-flash', { baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai', env: { OPENAI_COMPATIBLE_API_KEY: KEY } });
  assert.equal(byHost.settings!()['schema_dialect'], 'gemini');
});

test('item 14: cached and reasoning tokens recorded; cached input priced at its rate; dry-run estimate per model', async () => {
  const p = createProvider('openai:gpt-5-mini', { baseUrl: server.openaiBaseUrl, env });
  server.script(() => ({ kind: 'json', content: ANSWER, usage: { input: 2000, output: 700, cached: 1024, reasoning: 512 } }));
  const r = await p.complete(request());
  assert.deepEqual(r.usage, { inputTokens: 2000, outputTokens: 700, cachedInputTokens: 1024, reasoningTokens: 512 });
  const table = loadPriceTable();
  // gpt-5-mini in config/models.json: $0.25 input, $0.025 cached, $2 output per 1M tokens:
  // (976 × 0.25 + 1024 × 0.025 + 700 × 2) / 1e6 = (244 + 25.6 + 1400) / 1e6 = 0.0016696
  assert.deepEqual(estimateCost(table, 'openai:gpt-5-mini', r.usage!), { usd: 0.0016696 });
  // batch: half of that
  assert.deepEqual(estimateCost(table, 'openai:gpt-5-mini', r.usage!, { batch: true }), { usd: 0.0008348 });
  // No cached rate known (gpt-5.4): cached tokens at the input rate, with a note.
  const est = estimateCost(table, 'openai:gpt-5.4', { inputTokens: 1000, outputTokens: 0, cachedInputTokens: 400 });
  assert.equal(est.usd, 0.0025);
  assert.match(est.note!, /cached tokens priced at the input rate/);
  assert.equal(assumedOutputTokens(table, 'openai:gpt-5-mini'), 4000, 'reasoning model');
  assert.equal(assumedOutputTokens(table, 'openai:gpt-4o'), 800);
  assert.equal(assumedOutputTokens(table, 'openai:not-listed'), 1500);
});

// The pre-flight against this server's model rules is replayed end to end in test/collect/fake-server-replays.test.ts.

test('--models-file option module: parsed into params; an empty value is a usage error', () => {
  const { modelsFileParam, MODELS_FILE_OPTION } = require('../../../cli/commands/models-option') as typeof import('../../../cli/commands/models-option');
  assert.deepEqual(MODELS_FILE_OPTION, { 'models-file': { kind: 'path' } });
  assert.deepEqual(modelsFileParam({ 'models-file': 'models.json' }), { modelsFile: 'models.json' });
  assert.deepEqual(modelsFileParam({}), {});
  assert.throws(() => modelsFileParam({ 'models-file': ' ' }), /--models-file needs a file name/);
});
