/** The KST study's design (collect.ts): its fingerprint and run.json facts. (The shared wiring: runner tests; whole runs: engine, lifecycle, batch-mode tests.) */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectKst, dryRunKst, prepareKstDesign, type CollectParams } from '../../lib/collect/collect';
import { okResult, stubProvider, tempDir, writeTinyDomains } from './helpers';

function params(over: Partial<CollectParams> = {}): CollectParams {
  return { domainsDir: writeTinyDomains(), models: ['simulated:sim-a'], outDir: tempDir(), conditions: ['P0', 'P1'], orders: 2, concurrency: 4, maxOutputTokens: 100, timeoutMs: 1000, maxRetries: 5, seed: '7', ...over };
}

test('prepareKstDesign: the design size and states per domain; options not given are not recorded', () => {
  const prepared = prepareKstDesign(params());
  assert.equal(prepared.jobs.length, 8 * 2 * 2, '8 states × 2 conditions × 2 orders × 1 model');
  const design = prepared.runInfo['design'] as Record<string, unknown>;
  assert.deepEqual(design['states'], { 'tiny-a': 5, 'tiny-b': 3 });
  // The committed corpus data/raw/kst/ was made without --states, --tpm, --retry-horizon, --no-preflight:
  // its fingerprint and run.json have none of these keys, and must stay valid (resume) and byte-identical.
  assert.deepEqual(Object.keys(prepared.fingerprint), ['study', 'models', 'conditions', 'orders', 'seed', 'max_output_tokens', 'domains']);
  assert.deepEqual(Object.keys(prepared.runInfo['params'] as object), ['domains', 'models', 'conditions', 'orders', 'concurrency', 'base_url', 'max_output_tokens', 'timeout_ms', 'max_retries', 'seed']);
});

test('prepareKstDesign: --states, --tpm, --retry-horizon and --no-preflight are recorded when given', () => {
  const p = params();
  const states = join(tempDir(), 'states.json');
  writeFileSync(states, JSON.stringify({ 'tiny-a': [[], ['A']] }));
  const prepared = prepareKstDesign({ ...p, statesFile: states, tokensPerMinute: 1000, retryHorizonMs: 60_000, noPreflight: true });
  assert.equal(prepared.jobs.length, (2 + 3) * 2 * 2, 'tiny-a sampled to 2 states, tiny-b all 3');
  assert.match(String(prepared.fingerprint['states_sha256']), /^[0-9a-f]{64}$/);
  const recorded = prepared.runInfo['params'] as Record<string, unknown>;
  assert.equal(recorded['states_file'], states);
  assert.equal(recorded['tpm'], 1000);
  assert.equal(recorded['retry_horizon_ms'], 60_000);
  assert.equal(recorded['preflight'], false);
});

test('a prompt over a model\'s context window is refused by --dry-run and by a live run before its first call, naming the model, the cell and the flags', () => {
  // The tiny domains' longest prompt (P3) is a few hundred tokens: a window of 50 (--models-file) is too small.
  const dir = tempDir();
  const modelsFile = join(dir, 'models.json');
  writeFileSync(modelsFile, JSON.stringify({ models: [{ spec: 'openai:gpt-5-mini', context_window: 50 }] }));
  const p = params({ models: ['openai:gpt-5-mini', 'simulated:sim-a'], modelsFile, outDir: join(dir, 'out') });
  const refusal = /^--models: openai:gpt-5-mini: the longest prompt of the design, cell tiny-[ab]\.P[01]\.o[12]\.[0-9a-f]{12}, is about \d+ tokens \(prompt characters \/ 4\), over the model's context window of 50 \(--models-file, else config\/models\.json\); leave out the condition or domain it comes from \(--conditions, --states, --domains\), or use a model with a larger window$/;
  assert.throws(() => dryRunKst(p), (err: Error) => err.name === 'InputError' && refusal.test(err.message));
  const stub = stubProvider('openai:gpt-5-mini', () => okResult('{}'));
  return assert
    .rejects(collectKst(p, { createProvider: () => stub, env: { OPENAI_API_KEY: 'sk-test-not-a-key' } }), (err: Error) => refusal.test(err.message))
    .then(() => {
      assert.equal(stub.total(), 0, 'no call was sent');
      assert.ok(!existsSync(p.outDir) || readdirSync(p.outDir).length === 0, 'nothing was written');
      // A window that takes every prompt: the dry run prices the design as before.
      writeFileSync(modelsFile, JSON.stringify({ models: [{ spec: 'openai:gpt-5-mini', context_window: 100000 }] }));
      assert.equal(dryRunKst(p).calls, 2 * 8 * 2 * 2);
    });
});

test('a long dry run says its planned count first, then each tenth of its prompts; a small one says nothing', () => {
  const p = params({ models: ['openai:gpt-5-mini', 'simulated:sim-a'] });
  const lines: string[] = [];
  // 64 cells, 32 of them the real model's prompts (the simulated respondent's are not built).
  const report = dryRunKst(p, { onLine: (line) => lines.push(line), longPlanCells: 64 });
  assert.equal(lines[0], 'dry run: 64 cells in the design; building their prompts to estimate the tokens');
  assert.deepEqual(lines.slice(1), [4, 8, 12, 16, 20, 24, 28, 32].map((n) => `dry run: ${n} of 32 prompts estimated`));
  // The report is the same with or without the lines.
  assert.deepEqual(report, dryRunKst(p));
  const quiet: string[] = [];
  dryRunKst(p, { onLine: (line) => quiet.push(line), longPlanCells: 65 });
  assert.deepEqual(quiet, [], 'below the threshold nothing is printed');
});
