/**
 * The collection runner both studies share (lib/collect/runner.ts): the wiring steps around the engine
 * and the batch transport, the --tpm floor, settings, retry policy, and the KST and PSI collections
 * going through the same steps. (Whole runs of each transport: engine, lifecycle, batch-mode tests.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import type { Job } from '../../lib/collect/engine';
import type { BatchTransport } from '../../lib/collect/batch-transport';
import { collectKst, type CollectParams } from '../../lib/collect/collect';
import { collectPsi } from '../../lib/collect/psi-study';
import {
  checkNoOpenBatches,
  checkTokenBudget,
  modelSettings,
  outputCapOf,
  retryPolicyFor,
  runStudyCollection,
  type StudyCollection,
} from '../../lib/collect/runner';
import { loadPriceTable } from '../../lib/collect/prices';
import { resolveModelTargets } from '../../lib/collect/providers/endpoints';
import type { Provider } from '../../lib/provider/contract';
import { answerPosition1, okResult, tempDir, writeTinyDomains } from './helpers';

const job = (runId: string, model: string, system: string, user: string): Job<unknown> => ({
  runId,
  model,
  meta: {},
  request: () => ({ system, user, schemaName: 'a', jsonSchema: { type: 'object' } }),
});

test('--tpm floor worked by hand: ceil(8 characters / 4) = 2 prompt tokens + 100 output = 102 reserved by the largest call', () => {
  const jobs = [job('a', 'm', 'ab', 'cd'), job('b', 'm', 'abcd', 'efgh')]; // 1 + 100 and 2 + 100
  assert.doesNotThrow(() => checkTokenBudget(jobs, 100, 102));
  assert.doesNotThrow(() => checkTokenBudget(jobs, 100, undefined), 'no --tpm: no check');
  assert.throws(
    () => checkTokenBudget(jobs, 100, 101),
    (e: unknown) => e instanceof InputError && e.message === '--tpm 101 is below the 102 tokens one call reserves (prompt estimate + --max-output-tokens 100); raise --tpm or lower --max-output-tokens',
  );
});

test('modelSettings: only models that report settings; null when none does', () => {
  assert.equal(modelSettings(['simulated:sim-a'], () => undefined), null);
  assert.deepEqual(modelSettings(['a', 'b'], (m) => (m === 'b' ? { api: 'messages' } : undefined)), { b: { api: 'messages' } });
});

test('retryPolicyFor: the retry horizon is also the quota threshold; the backoff base only when a test sets it', () => {
  assert.deepEqual(retryPolicyFor({ maxRetries: 5 }, {}), { maxRetries: 5 });
  assert.deepEqual(retryPolicyFor({ maxRetries: 2, retryHorizonMs: 60_000 }, { retryBaseDelayMs: 1 }), { maxRetries: 2, baseDelayMs: 1, retryHorizonMs: 60_000, quotaThresholdMs: 60_000 });
});

test('outputCapOf: the output cap the settings name, null when absent or not a positive integer', () => {
  assert.equal(outputCapOf({ output_cap: 16384 }), 16384);
  assert.equal(outputCapOf({ output_cap: null }), null);
  assert.equal(outputCapOf({ output_cap: 0 }), null);
  assert.equal(outputCapOf(undefined), null);
});

/** A ledger with one submitted, uncollected batch. */
function writeOpenLedger(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const submitted = { type: 'submitted', seq: 1, batch_id: 'batch_open', model: 'openai:stub', provider: 'openai', submitted_at: null, items: [{ run_id: 'r1', custom_id: 'r1', attempt: 1 }] };
  writeFileSync(join(dir, 'batches.jsonl'), `${JSON.stringify(submitted)}\n`);
}

test('checkNoOpenBatches: a ledger with an uncollected batch refuses a live run, naming the file and the batch', () => {
  const dir = tempDir();
  assert.doesNotThrow(() => checkNoOpenBatches(dir), 'no ledger: nothing open');
  writeOpenLedger(dir);
  assert.throws(() => checkNoOpenBatches(dir), (e: unknown) => e instanceof InputError && e.where.item === 'batch_open' && e.message.startsWith(`${join(dir, 'batches.jsonl')}: 1 batch(es)`));
});

/** A study of two cells on two models, recording what the runner asked of it. */
function fakeStudy(storeDir: string, calls: string[], over: Partial<StudyCollection<unknown>> = {}): StudyCollection<unknown> {
  const provider = (spec: string): Provider => ({
    provider: 'openai',
    model: spec,
    simulated: true,
    complete: async () => okResult('{"answer": "x"}'),
    settings: () => ({ api: 'chat', output_cap: 64 }),
  });
  return {
    storeDir,
    jobs: [job('cell-1', 'openai:m1', 's', 'u'), job('cell-2', 'openai:m2', 's', 'u')],
    prices: loadPriceTable(),
    fingerprint: { study: 'fake' },
    runInfo: (run) => {
      calls.push(`runInfo ${JSON.stringify(run)}`);
      return { study: 'fake' };
    },
    handler: (isSimulated) => ({ finalRecord: (j) => ({ run_id: j.runId, status: 'valid', simulated: isSimulated(j.model) }) }),
    finalize: (records) => calls.push(`finalize ${records.length}`),
    createProvider: (spec) => {
      calls.push(`provider ${spec}`);
      return provider(spec);
    },
    createBatchClient: (spec) => {
      calls.push(`batch client ${spec}`);
      return {} as BatchTransport;
    },
    ...over,
  };
}

const dispatch = { models: ['openai:m1', 'openai:m2'], concurrency: 2, maxOutputTokens: 10, timeoutMs: 1000, maxRetries: 0, seed: '1' };
const targets = resolveModelTargets(dispatch.models, {});

test('the runner builds every provider before anything is written, then runs the engine with the settings in the fingerprint', async () => {
  const dir = join(tempDir(), 'store');
  const calls: string[] = [];
  const result = await runStudyCollection(fakeStudy(dir, calls), dispatch, targets, { env: {} });
  assert.equal(result.status, 'complete');
  assert.equal(result.deterministic, true);
  assert.deepEqual(calls, [
    'provider openai:m1',
    'provider openai:m2',
    `runInfo ${JSON.stringify({ deterministic: true, batch: false, settings: { 'openai:m1': { api: 'chat', output_cap: 64 }, 'openai:m2': { api: 'chat', output_cap: 64 } } })}`,
    'finalize 2',
  ]);
  const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { fingerprint: Record<string, unknown> };
  assert.deepEqual(Object.keys(run.fingerprint), ['study', 'settings']);

  // A provider that cannot be built (a missing key) fails before the store exists.
  const failing = join(tempDir(), 'store');
  const missingKey = fakeStudy(failing, [], {
    createProvider: (spec) => {
      if (spec === 'openai:m2') throw new InputError('openai:m2: OPENAI_API_KEY is not set');
      return fakeStudy(failing, []).createProvider(spec);
    },
  });
  await assert.rejects(runStudyCollection(missingKey, dispatch, targets, { env: {} }), /OPENAI_API_KEY is not set/);
  assert.equal(existsSync(failing), false, 'nothing written');
});

test('the runner refuses --tpm below one call and a live run over open batches, before any provider is called', async () => {
  const calls: string[] = [];
  const dir = tempDir();
  await assert.rejects(runStudyCollection(fakeStudy(dir, calls), { ...dispatch, tokensPerMinute: 5 }, targets, { env: {} }), /--tpm 5 is below/);
  assert.deepEqual(readdirSync(dir), [], '--tpm refusal writes nothing');
  writeOpenLedger(dir);
  calls.length = 0;
  await assert.rejects(runStudyCollection(fakeStudy(dir, calls), dispatch, targets, { env: {} }), /not collected yet/);
  assert.deepEqual(calls, [], 'no provider built');
});

test('--batch: a model without a batch API is refused before any batch client is built', async () => {
  const calls: string[] = [];
  const models = ['openai:m1', 'simulated:sim-a'];
  await assert.rejects(
    runStudyCollection(fakeStudy(tempDir(), calls), { ...dispatch, models, batch: true }, resolveModelTargets(models, {}), { env: {} }),
    (e: unknown) => e instanceof InputError && e.where.item === 'simulated:sim-a',
  );
  assert.deepEqual(calls, []);
});

test('both studies go through the same runner: each refuses a live run in a store with open batches', async () => {
  const kstOut = tempDir();
  writeOpenLedger(kstOut);
  const kst: CollectParams = {
    domainsDir: writeTinyDomains(),
    models: ['simulated:sim-a'],
    outDir: kstOut,
    conditions: ['P0'],
    orders: 1,
    concurrency: 1,
    maxOutputTokens: 100,
    timeoutMs: 1000,
    maxRetries: 0,
    seed: '1',
  };
  await assert.rejects(collectKst(kst, { createProvider: () => ({ provider: 'simulated', model: 'x', simulated: true, complete: async (r) => okResult(answerPosition1(r)) }) }), /not collected yet/);
  const psiOut = tempDir();
  writeOpenLedger(join(psiOut, 'runs', 'round1'));
  const psi = { courseDir: join(__dirname, '..', '..', 'data', 'raw', 'psi'), models: ['simulated:sim-tutor-a'], outDir: psiOut, round: 1 as const, scenarios: ['S01'], seed: '1', concurrency: 1, maxOutputTokens: 100, timeoutMs: 1000 };
  await assert.rejects(collectPsi(psi), /not collected yet/);
  assert.equal(existsSync(join(psiOut, 'round1.jsonl')), false);
});
