import { test } from 'node:test';
// Every test here has a timeout: a cancelled batch that is not held would loop forever (issue 22).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { collectKst, type CollectParams } from '../../lib/collect/collect';
import type { BatchStatus, BatchTransport } from '../../lib/collect/batch-transport';
import { readLedger } from '../../lib/collect/batch-ledger';
import { collectPsi, dryRunPsi } from '../../lib/collect/psi-study';
import type { CompletionRequest, CompletionResult, ProviderError } from '../../lib/provider/contract';
import { answerPosition1, okResult, readLines, stubCollectParams, tempDir, writeTinyDomains } from './helpers';

/**
 * The batch transport through the BatchTransport interface (an in-memory provider): a batch that
 * failed as a whole is split, never turned into missing records; a batch cancelled at the provider
 * stays cancelled until --resubmit-cancelled; psi collect runs in batch mode and dry-runs.
 */

const CELLS = 8 * 4 * 2;

type Plan = (requests: readonly CompletionRequest[], n: number) => { state: BatchStatus['state']; answer: (r: CompletionRequest) => CompletionResult | null };

let batchCounter = 0;

function memoryBatches(plan: Plan) {
  const batches = new Map<string, { requests: readonly CompletionRequest[]; state: BatchStatus['state']; answer: (r: CompletionRequest) => CompletionResult | null }>();
  const sizes: number[] = [];
  const client: BatchTransport = {
    provider: 'openai',
    model: 'stub',
    async submitBatch(requests) {
      sizes.push(requests.length);
      batchCounter += 1;
      const id = `batch_${batchCounter}`;
      batches.set(id, { requests, ...plan(requests, batches.size + 1) });
      return id;
    },
    async pollBatch(batchId) {
      const b = batches.get(batchId)!;
      return {
        batchId,
        state: b.state,
        done: true,
        providerStatus: b.state,
        counts: { total: b.requests.length, succeeded: 0, failed: 0, pending: 0 },
        ...(b.state === 'failed' ? { errors: [{ code: 'token_limit_exceeded', message: 'Enqueued token limit reached' }] } : {}),
      };
    },
    async fetchBatchResults(batchId) {
      const b = batches.get(batchId)!;
      const results = new Map<string, CompletionResult | ProviderError>();
      for (const r of b.requests) {
        const a = b.answer(r);
        if (a) results.set(r.runId, a);
      }
      return results;
    },
  };
  return { client, sizes };
}

function params(out: string, domainsDir: string, extra: Partial<CollectParams> = {}): CollectParams {
  return stubCollectParams(out, domainsDir, { concurrency: 1, maxRetries: 2, batch: true, noPreflight: true, pollIntervalMs: 1, ...extra });
}

const ok = (r: CompletionRequest) => okResult(answerPosition1(r));

test('a batch that failed as a whole (token_limit_exceeded) is split into halves, not turned into missing records', { timeout: 60_000 }, async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  // batches of more than 16 requests fail; smaller ones succeed
  const { client, sizes } = memoryBatches((requests) => (requests.length > 16 ? { state: 'failed', answer: () => null } : { state: 'completed', answer: ok }));
  const r = await collectKst(params(out, domainsDir), { createBatchClient: () => client, sleep: async () => {} });
  assert.equal(r.status, 'complete', r.reason);
  // 64 fails → halves of 32 fail → quarters of 16 succeed
  assert.deepEqual(sizes, [64, 32, 32, 16, 16, 16, 16]);
  const records = readLines(join(out, 'responses.jsonl'));
  assert.equal(records.length, CELLS);
  assert.ok(records.every((x) => x.status === 'valid'));
  const splitLines = readLines(join(out, 'attempts.jsonl')).filter((a) => a.decision === 'split_into_smaller_batches');
  assert.ok(splitLines.length >= CELLS);
  assert.match(splitLines[0].message, /token_limit_exceeded: Enqueued token limit reached/);
});

test('a batch cancelled at the provider stays cancelled: no resubmission until --resubmit-cancelled', { timeout: 60_000 }, async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const first = memoryBatches(() => ({ state: 'cancelled', answer: (r) => (r.runId.startsWith('tiny-a.') ? ok(r) : null) }));
  const r1 = await collectKst(params(out, domainsDir), { createBatchClient: () => first.client, sleep: async () => {} });
  assert.equal(r1.status, 'interrupted');
  assert.match(r1.reason!, /24 cell\(s\) of batches cancelled at the provider were not sent again/);
  assert.deepEqual(first.sizes, [CELLS], 'cancelled cells were not resubmitted automatically');
  // the same command again: still held
  const second = memoryBatches(() => ({ state: 'completed', answer: ok }));
  const r2 = await collectKst(params(out, domainsDir), { createBatchClient: () => second.client, sleep: async () => {} });
  assert.equal(r2.status, 'interrupted');
  assert.deepEqual(second.sizes, []);
  // asked again explicitly: sent and completed
  const r3 = await collectKst(params(out, domainsDir, { resubmitCancelled: true }), { createBatchClient: () => second.client, sleep: async () => {} });
  assert.equal(r3.status, 'complete', r3.reason);
  assert.deepEqual(second.sizes, [24]);
  assert.equal(readLedger(join(out, 'batches.jsonl')).submitted.length, 2);
});

test('psi collect --batch and --dry-run: the same lifecycle as kstbench collect', { timeout: 60_000 }, async () => {
  const out = tempDir();
  const base = {
    courseDir: join(__dirname, '..', '..', 'data', 'raw', 'psi'),
    models: ['openai:stub'],
    outDir: out,
    round: 1 as const,
    scenarios: ['S01', 'S02'],
    seed: '1',
    concurrency: 1,
    maxOutputTokens: 100,
    timeoutMs: 1000,
  };
  const dry = dryRunPsi({ ...base, batch: true });
  assert.equal(dry.calls, 4, '2 scenarios × 2 variants × 1 model');
  assert.equal(dry.batch, true);
  const { client, sizes } = memoryBatches(() => ({ state: 'completed', answer: () => okResult(JSON.stringify({ answer: 'Try printing the value of x first.' })) }));
  const r = await collectPsi({ ...base, batch: true, noPreflight: true, pollIntervalMs: 1, createBatchClient: () => client, sleep: async () => {} });
  assert.equal(r.status, 'complete', r.reason);
  assert.deepEqual(sizes, [4]);
  const records = readLines(r.outFile);
  assert.equal(records.length, 4);
  assert.ok(records.every((x) => x.status === 'valid' && typeof x.batch_id === 'string'));
  assert.equal(dryRunPsi({ ...base, batch: true }).calls, 0, 'nothing pending after the run');
});

test("the provider's plan for a failed batch: retry_later waits and resubmits in parts; stop fails the run with the remedy and no records", async () => {
  const domainsDir = writeTinyDomains();
  // retry_later: the first batch is refused for enqueued tokens; resubmitted in 2 parts after 10 min
  {
    const out = tempDir();
    const { client, sizes } = memoryBatches((_r, n) => (n === 1 ? { state: 'failed', answer: () => null } : { state: 'completed', answer: ok }));
    const poll = client.pollBatch.bind(client);
    client.pollBatch = async (id) => {
      const s = await poll(id);
      return s.state === 'failed' ? { ...s, failure: { action: 'retry_later', parts: 2, retryAfterMs: 600_000, code: 'token_limit_exceeded', message: 'Enqueued token limit reached' } } : s;
    };
    let t = 0;
    const waits: number[] = [];
    const r = await collectKst(params(out, domainsDir), {
      createBatchClient: () => client,
      clockMs: () => t,
      sleep: async (ms: number) => {
        waits.push(ms);
        t += ms;
      },
    });
    assert.equal(r.status, 'complete', r.reason);
    assert.deepEqual(sizes.slice(0, 3), [64, 32, 32]);
    assert.ok(t >= 600_000, `resubmitted after ${t} ms`);
    assert.equal(readLines(join(out, 'responses.jsonl')).length, CELLS);
  }
  // stop: the batch input itself was refused
  {
    const out = tempDir();
    const { client, sizes } = memoryBatches(() => ({ state: 'failed', answer: () => null }));
    const poll = client.pollBatch.bind(client);
    client.pollBatch = async (id) => ({ ...(await poll(id)), failure: { action: 'stop', code: 'model_not_found', message: 'The model stub does not exist (input line 1)', remedy: 'fix the model name' } });
    const r = await collectKst(params(out, domainsDir), { createBatchClient: () => client, sleep: async () => {} });
    assert.equal(r.status, 'failed');
    assert.match(r.reason!, /was refused: model_not_found/);
    assert.equal(r.remedy, 'fix the model name');
    assert.deepEqual(sizes, [64], 'not resubmitted');
    assert.equal(readLines(join(out, 'responses.jsonl')).length, 0, 'no missing records');
  }
});

test('cancelled items that come back as batch_cancelled errors are held too (not resubmitted, not counted by the breaker)', { timeout: 60_000 }, async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const { batchItemNotRun } = await import('../../lib/collect/providers/classify');
  const first = memoryBatches(() => ({ state: 'cancelled', answer: (r) => (r.runId.startsWith('tiny-a.') ? ok(r) : (batchItemNotRun('anthropic', 'canceled', 'the batch was canceled') as never)) }));
  const r = await collectKst(params(out, domainsDir), { createBatchClient: () => first.client, sleep: async () => {} });
  assert.equal(r.status, 'interrupted', r.reason);
  assert.equal(r.breakerTrips, undefined);
  assert.deepEqual(first.sizes, [CELLS]);
  assert.equal(readLines(join(out, 'responses.jsonl')).length, 40);
});
