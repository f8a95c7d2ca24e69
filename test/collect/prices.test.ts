import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import {
  ASSUMED_OUTPUT_TOKENS,
  assumedOutputTokens,
  estimateCost,
  estimateTokens,
  loadPriceTable,
  lookupPrice,
  noUsageNote,
  parsePriceTable,
  roundUsd,
  type PriceTable,
} from '../../lib/collect/prices';
import { promptFilteredResult } from '../../lib/collect/providers/openai-format';
import { tempDir } from './helpers';

/** A legacy price table (USD per 1M tokens), the form a user may supply with --prices. */
const TABLE: PriceTable = parsePriceTable(
  JSON.stringify({
    models: {
      'openai:gpt-4o': { input: 2.5, output: 10, cached_input: 1.25, batch_discount: 0.5 },
      'openai:o-think': { input: 1.25, output: 10, cached_input: 0.125, typical_output_tokens: 4000 },
      'anthropic:claude-x': { input: 3, output: 15 },
    },
    providers: { 'openai-compatible': { input: 0, output: 0 } },
  }),
  'prices.json',
);

test('cost worked by hand: 2,000 in (1,000 cached) + 500 out at $1.25 / $0.125 / $10 per 1M = $0.006375', () => {
  // (1000 × 1.25 + 1000 × 0.125 + 500 × 10) / 1e6 = (1250 + 125 + 5000) / 1e6
  assert.deepEqual(estimateCost(TABLE, 'openai:o-think', { inputTokens: 2000, cachedInputTokens: 1000, outputTokens: 500 }), { usd: 0.006375 });
});

test('batch discount halves the price; no cached tokens means every input token at the input rate', () => {
  // (10,000 × 2.5 + 2,000 × 10) / 1e6 = 0.045; batched: 0.045 × (1 − 0.5) = 0.0225
  assert.deepEqual(estimateCost(TABLE, 'openai:gpt-4o', { inputTokens: 10_000, outputTokens: 2_000 }), { usd: 0.045 });
  assert.deepEqual(estimateCost(TABLE, 'openai:gpt-4o', { inputTokens: 10_000, outputTokens: 2_000 }, { batch: true }), { usd: 0.0225 });
  // no batch_discount in the entry: batched costs the same
  assert.deepEqual(estimateCost(TABLE, 'anthropic:claude-x', { inputTokens: 1_000, outputTokens: 1_000 }, { batch: true }), { usd: 0.018 });
});

test('cached input without a cached rate is priced at the input rate, with a note; cached above input is clamped', () => {
  assert.deepEqual(estimateCost(TABLE, 'anthropic:claude-x', { inputTokens: 1_000, cachedInputTokens: 400, outputTokens: 0 }), {
    usd: 0.003,
    note: 'no cached-input price for anthropic:claude-x: cached tokens priced at the input rate',
  });
  // 5,000 "cached" of 1,000 input: all 1,000 at the cached $1.25 → 0.00125
  assert.deepEqual(estimateCost(TABLE, 'openai:gpt-4o', { inputTokens: 1_000, cachedInputTokens: 5_000, outputTokens: 0 }), { usd: 0.00125 });
});

test('lookup order: exact entry, then a dated snapshot\'s family, then the provider; unknown → null with a note', () => {
  assert.equal(lookupPrice(TABLE, 'openai:gpt-4o')?.input, 2.5);
  assert.equal(lookupPrice(TABLE, 'openai:gpt-4o-2024-08-06')?.input, 2.5, 'snapshot → family');
  assert.deepEqual(lookupPrice(TABLE, 'openai-compatible:llama3.1:8b'), { input: 0, output: 0 });
  assert.equal(lookupPrice(TABLE, 'anthropic:unknown'), null);
  assert.deepEqual(estimateCost(TABLE, 'anthropic:unknown', { inputTokens: 1, outputTokens: 1 }), { usd: null, note: 'no price for anthropic:unknown in the price table' });
});

test('assumed output tokens: the entry\'s typical_output_tokens, else 1,500', () => {
  assert.equal(assumedOutputTokens(TABLE, 'openai:o-think'), 4000);
  assert.equal(assumedOutputTokens(TABLE, 'openai:gpt-4o'), ASSUMED_OUTPUT_TOKENS);
  assert.equal(ASSUMED_OUTPUT_TOKENS, 1500);
  assert.equal(assumedOutputTokens(TABLE, 'anthropic:unknown'), 1500);
});

test('estimateTokens is ceil(characters / 4); roundUsd keeps 8 decimals', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('abcd'), 1);
  assert.equal(estimateTokens('abcde'), 2);
  assert.equal(estimateTokens('x'.repeat(4001)), 1001);
  assert.equal(roundUsd(0.1 + 0.2), 0.3);
  assert.equal(roundUsd(0.123456789), 0.12345679);
});

test('bad price files: not JSON, a negative price, an unknown field, an unreadable path — each an InputError naming the file', () => {
  assert.throws(() => parsePriceTable('{', 'p.json'), (e: unknown) => e instanceof InputError && /^p\.json:1: not valid JSON/.test(e.message));
  assert.throws(() => parsePriceTable(JSON.stringify({ models: { 'a:b': { input: -1, output: 1 } } }), 'p.json'), (e: unknown) => e instanceof InputError && e.message.startsWith('p.json: ') && /input/.test(e.message));
  assert.throws(() => parsePriceTable(JSON.stringify({ models: { 'a:b': { input: 1, output: 1, outptu: 2 } } }), 'p.json'), (e: unknown) => e instanceof InputError && /outptu/.test(e.message));
  const missing = join(tempDir(), 'absent.json');
  assert.throws(() => loadPriceTable(missing), (e: unknown) => e instanceof InputError && e.message === `${missing}: cannot read price table (ENOENT)`);
  const ok = join(tempDir(), 'p.json');
  writeFileSync(ok, JSON.stringify({ models: { 'x:y': { input: 1, output: 2 } } }));
  assert.deepEqual(loadPriceTable(ok).models, { 'x:y': { input: 1, output: 2 } });
});

test('the shipped catalogue prices: a dated gpt-4o snapshot costs the family\'s $2.50 per 1M input tokens', () => {
  const shipped = loadPriceTable();
  assert.deepEqual(estimateCost(shipped, 'openai:gpt-4o-2024-08-06', { inputTokens: 1e6, outputTokens: 0 }), { usd: 2.5 });
});

test('noUsageNote: a prompt the content filter refused is billed at an unknown amount; any other answer without usage says the provider reported none (review3 M4)', () => {
  assert.match(noUsageNote(promptFilteredResult(400, 'content_filter', 'req_1')!), /^prompt refused by the content filter \(HTTP 400\): billed/);
  const plain = { text: '{}', finishReason: 'stop', refusal: null, modelVersion: null, usage: null, httpStatus: 200, requestId: null };
  assert.equal(noUsageNote(plain), 'provider reported no token usage');
  assert.equal(noUsageNote({ ...plain, finishReason: 'content_filter' }), 'provider reported no token usage', 'a 200 content_filter answer is not a refused prompt');
});
