/**
 * Batch mode (`collect --batch`) against the fake OpenAI + Anthropic server through the official SDKs:
 * submit → poll → fetch, results matched by custom_id although the server returns them reversed,
 * follow-up batches for failed/expired items, a stop right after submission resumed by polling the
 * stored batch id, the batch discount in the cost, and a planted key that must reach no file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectKst, dryRunKst, type CollectParams } from '../../lib/collect/collect';
import { customIdFor, openBatches, readLedger } from '../../lib/collect/batch-ledger';
import { kstJobs } from '../../lib/collect/kst-study';
import { createBatchClient } from '../../lib/collect/providers';
import type { BatchClient } from '../../lib/collect/providers/batch';
import { readCompleted } from '../../lib/collect/store';
import { cancelledCells, loggedBatchItems } from '../../lib/collect/batch-mode';
import { errorAttemptLine, responseAttemptLine } from '../../lib/collect/attempt-line';
import { InputError } from '../../lib/errors';
import type { BatchTransport } from '../../lib/collect/batch-transport';
import { ProviderError, type CompletionRequest, type CompletionResult } from '../../lib/provider/contract';
import { loadDomainDir, presentationOrders } from '../../lib/kst';
import { answerSchemaOf, startFakeLlmServer, type FakeCall, type FakeLlmServer, type FakePlan } from '../support/fake-llm-server';
import { answerPosition1, okResult, readLines, stubCollectParams, tempDir, writeTinyDomains } from './helpers';

const KEY = 'sk-planted-BATCHMODE-0123456789abcdef';
const OPENAI = 'openai:gpt-test';
const ANTHROPIC = 'anthropic:claude-test';
const CONDITIONS = ['P0', 'P1'];
const CELLS_PER_MODEL = 8 * 2 * 2; // 8 states (5 + 3) × 2 conditions × 2 orders
const POLL_MS = 250;

let server: FakeLlmServer;
before(async () => {
  server = await startFakeLlmServer({ apiKey: KEY, batchPollsBeforeDone: 1 });
});
after(async () => {
  await server.close();
});

function writeBatchPrices(dir: string): string {
  const file = join(dir, 'prices.json');
  writeFileSync(
    file,
    JSON.stringify({
      models: {
        [OPENAI]: { input: 2, output: 10, batch_discount: 0.5 },
        [ANTHROPIC]: { input: 3, output: 15, batch_discount: 0.5 },
      },
    }),
  );
  return file;
}

function params(out: string, domainsDir: string, extra: Partial<CollectParams> = {}): CollectParams {
  return {
    domainsDir,
    // Each model routed to the fake server with spec@URL: a run mixing providers sends --base-url to
    // neither (lib/collect/providers/endpoints.ts), and no test may reach a real API host.
    models: [OPENAI, ANTHROPIC].map((m) => `${m}@${server.baseUrl}`),
    outDir: out,
    conditions: CONDITIONS,
    orders: 2,
    concurrency: 1,
    baseUrl: server.baseUrl, // for the one-model runs below (a single real provider takes --base-url)
    maxOutputTokens: 512,
    timeoutMs: 10_000,
    maxRetries: 2,
    seed: '42',
    pricesFile: writeBatchPrices(tempDir()),
    batch: true,
    // The batch mechanics; the live pre-flight before a batch is replayed in fake-server-replays.test.ts.
    noPreflight: true,
    pollIntervalMs: POLL_MS,
    ...extra,
  };
}

function deps(extra: Record<string, unknown> = {}) {
  const sleeps: number[] = [];
  return {
    sleeps,
    deps: {
      env: { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY },
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
      ...extra,
    },
  };
}

/** custom_id (either provider) → run ID, and run ID → its 1-based position in the model's design order. */
function designIndex(domainsDir: string) {
  const jobs = kstJobs(loadDomainDir(domainsDir), { models: [OPENAI, ANTHROPIC], conditions: CONDITIONS, orders: 2, seed: '42' });
  const byCustomId = new Map<string, string>();
  const position = new Map<string, number>();
  for (const model of [OPENAI, ANTHROPIC]) {
    const ofModel = jobs.filter((j) => j.model === model);
    ofModel.forEach((j, i) => position.set(j.runId, i + 1));
    const provider = model.startsWith('openai') ? 'openai' : 'anthropic';
    for (const j of ofModel) byCustomId.set(customIdFor(provider, j.runId), j.runId);
  }
  return { jobs, byCustomId, position };
}

function schemaName(call: FakeCall): string {
  const { name, schema } = answerSchemaOf(call); // Anthropic's native JSON output carries no schema name
  return name ?? (schema.properties?.prerequisites ? 'kst_next_steps_with_graph' : 'kst_next_steps');
}

/**
 * Answers every item with position 1 and tags it through the reported usage: input tokens = the cell's
 * position in its model's design order, output tokens = 7. A record matched to the wrong result would
 * carry another cell's tag.
 */
function taggedAnswer(index: ReturnType<typeof designIndex>, call: FakeCall): FakePlan {
  const runId = index.byCustomId.get(call.customId ?? '');
  if (!runId) return { kind: 'client_error', message: `unexpected custom_id ${call.customId}` };
  return { kind: 'json', content: answerPosition1({ schemaName: schemaName(call) }), usage: { input: index.position.get(runId)!, output: 7 } };
}

function countRequests(from: number, method: string, path: RegExp): number {
  return server.requests.slice(from).filter((r) => r.method === method && path.test(r.path)).length;
}

function assertNoKey(dir: string): void {
  for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), 'utf8').includes(KEY), `${f} contains the planted key`);
}

test('submit → poll → fetch for both providers: unordered results matched by custom_id, batch-discounted cost, ledger and audit lines', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const index = designIndex(domainsDir);
  server.script((call) => taggedAnswer(index, call));
  const from = server.requests.length;
  const { deps: d, sleeps } = deps();
  const result = await collectKst(params(out, domainsDir), d);
  assert.equal(result.status, 'complete', result.reason);
  assert.equal(result.total, 2 * CELLS_PER_MODEL);
  assert.equal(result.batch?.submitted.length, 2);
  assert.deepEqual(result.batch?.open, []);
  // one upload + one batch for OpenAI, one message batch for Anthropic; nothing live
  assert.equal(countRequests(from, 'POST', /^\/(v1\/)?files$/), 1);
  assert.equal(countRequests(from, 'POST', /^\/(v1\/)?batches$/), 1);
  assert.equal(countRequests(from, 'POST', /^\/v1\/messages\/batches$/), 1);
  assert.equal(countRequests(from, 'POST', /chat\/completions$|^\/v1\/messages$/), 0);
  // each batch: one poll "in progress", one "ended"; the run slept the poll interval in between
  assert.ok(sleeps.length >= 1 && sleeps.every((s) => s === POLL_MS), JSON.stringify(sleeps));

  const domains = loadDomainDir(domainsDir);
  const first = new Map(domains.flatMap((dom) => presentationOrders(dom, 2).map((p) => [`${dom.id}|${p.order}`, p.positions[0]!])));
  const responses = readLines(join(out, 'responses.jsonl'));
  assert.equal(responses.length, 2 * CELLS_PER_MODEL);
  assert.equal(new Set(responses.map((r) => r.run_id)).size, 2 * CELLS_PER_MODEL);
  const ledger = readLedger(join(out, 'batches.jsonl'));
  const batchOf = new Map(ledger.submitted.map((b) => [b.model, b.batch_id]));
  let expectedCost = 0;
  for (const r of responses) {
    assert.equal(r.status, 'valid', JSON.stringify(r));
    assert.deepEqual(r.recommended, [first.get(`${r.domain}|${r.order}`)]);
    // the usage tag proves the result was matched to this cell
    assert.deepEqual(r.usage, { inputTokens: index.position.get(r.run_id), outputTokens: 7 });
    assert.equal(r.batch_id, batchOf.get(r.model));
    if (r.model === ANTHROPIC) {
      assert.equal(r.custom_id, r.run_id.replace(/\./g, '_'));
      assert.match(r.custom_id, /^[A-Za-z0-9_-]{1,64}$/);
    } else assert.equal(r.custom_id, r.run_id);
    const [pin, pout] = r.model === OPENAI ? [2, 10] : [3, 15];
    const cost = ((r.usage.inputTokens * pin + 7 * pout) / 1e6) * 0.5; // batch_discount 0.5
    assert.ok(Math.abs(r.cost_usd - cost) < 1e-8, `${r.cost_usd} vs ${cost}`);
    expectedCost += cost;
    assert.equal(r.attempts, 1);
    assert.equal(r.simulated, false);
  }
  assert.ok(Math.abs(result.costUsd! - expectedCost) < 1e-7, `${result.costUsd} vs ${expectedCost}`);
  // records of each batch are written in submission (= design) order, not in the reversed result order
  const openaiOrder = responses.filter((r) => r.model === OPENAI).map((r) => r.run_id);
  assert.deepEqual(openaiOrder, index.jobs.filter((j) => j.model === OPENAI).map((j) => j.runId));

  assert.equal(ledger.submitted.length, 2);
  assert.equal(ledger.collected.size, 2);
  assert.deepEqual(openBatches(ledger), []);
  const attempts = readLines(join(out, 'attempts.jsonl'));
  const itemLines = attempts.filter((a) => a.type === 'attempt');
  assert.equal(itemLines.length, 2 * CELLS_PER_MODEL);
  assert.ok(itemLines.every((a) => a.outcome === 'response' && a.batch_id && a.billed_estimate.basis === 'reported_usage_batch_price'));
  const events = attempts.filter((a) => a.type === 'event').map((a) => a.event);
  assert.equal(events.filter((e) => e === 'batch_submitted').length, 2);
  assert.equal(events.filter((e) => e === 'batch_collected').length, 2);
  assert.ok(events.filter((e) => e === 'batch_poll').length >= 4);
  assert.equal(readLines(join(out, 'extracted.jsonl')).length, 2 * CELLS_PER_MODEL);
  const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  assert.equal(run.status, 'complete');
  assert.equal(run.params.batch, true);
  assert.equal(run.params.poll_interval_ms, POLL_MS);
  assert.deepEqual(run.result.open_batches, []);
  assertNoKey(out);

  // a second run has nothing to do: no submission, no poll
  const again = server.requests.length;
  const r2 = await collectKst(params(out, domainsDir), deps().deps);
  assert.equal(r2.status, 'complete');
  assert.equal(server.requests.length, again);
});

test('failed and expired items go into follow-up batches up to --max-retries, then get missing records; a client error keeps no record and fails the run', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const index = designIndex(domainsDir);
  const seen = new Map<string, number>();
  // Among the OpenAI cells: tiny-b P0 → 529 on the first try only; tiny-b P1 → always expired; one tiny-a P1 o2 cell → 400.
  const rejected = index.jobs.filter((j) => j.model === OPENAI && j.runId.startsWith('tiny-a.P1.o2.')).map((j) => j.runId).sort()[0]!;
  server.script((call) => {
    const runId = index.byCustomId.get(call.customId ?? '')!;
    const n = (seen.get(runId) ?? 0) + 1;
    seen.set(runId, n);
    if (runId.startsWith('tiny-b.P0.') && n === 1) return { kind: 'server_error', status: 529 };
    if (runId.startsWith('tiny-b.P1.')) return { kind: 'expired' };
    if (runId === rejected) return { kind: 'client_error', status: 400, message: 'bad item' };
    return taggedAnswer(index, call);
  });
  const result = await collectKst(params(out, domainsDir, { models: [OPENAI], maxRetries: 2 }), deps().deps);
  // The 400 is deterministic: that cell keeps no record (it is requested again next run) and the run is not complete.
  assert.equal(result.status, 'failed', result.reason);
  assert.match(result.reason ?? '', /1 cell\(s\) ended without a record after a client_error/);
  assert.equal(result.pending, 1);
  const responses = readLines(join(out, 'responses.jsonl'));
  assert.equal(responses.length, CELLS_PER_MODEL - 1);
  assert.ok(!responses.some((r) => r.run_id === rejected));
  const ledger = readLedger(join(out, 'batches.jsonl'));
  // batch 1: all 32; batch 2: the 6 tiny-b P0 + 6 tiny-b P1 cells (3 states × 2 orders each); batch 3: the 6 expired again
  assert.deepEqual(ledger.submitted.map((b) => b.items.length), [CELLS_PER_MODEL, 12, 6]);
  assert.ok(ledger.submitted[1]!.items.every((it) => it.attempt === 2));
  assert.ok(ledger.submitted[2]!.items.every((it) => it.attempt === 3 && it.run_id.startsWith('tiny-b.P1.')));
  for (const r of responses) {
    if (r.run_id.startsWith('tiny-b.P0.')) {
      assert.equal(r.status, 'valid');
      assert.equal(r.attempts, 2);
      assert.equal(r.batch_id, ledger.submitted[1]!.batch_id);
      assert.equal(seen.get(r.run_id), 2);
    } else if (r.run_id.startsWith('tiny-b.P1.')) {
      assert.equal(r.status, 'missing');
      assert.equal(r.reason, 'timeout');
      assert.equal(r.attempts, 3, '1 + maxRetries 2');
      assert.equal(r.cost_usd, 0);
      assert.equal(seen.get(r.run_id), 3);
    } else {
      assert.equal(r.status, 'valid');
      assert.equal(seen.get(r.run_id), 1);
    }
  }
  const items = readLines(join(out, 'attempts.jsonl')).filter((a) => a.type === 'attempt');
  assert.equal(items.length, CELLS_PER_MODEL + 12 + 6);
  const expired = items.filter((a) => a.error_class === 'timeout');
  assert.equal(expired.length, 18);
  assert.deepEqual(
    [...new Set(expired.map((a) => a.decision))].sort(),
    ['give_up', 'retry_in_next_batch'],
  );
  assert.ok(expired.every((a) => a.error_code === 'batch_expired' && a.billed_estimate.usd === 0));
  assert.equal(result.written.missing, 6);
  assert.equal(seen.get(rejected), 1, 'a deterministic failure is not sent again in a follow-up batch');
  assert.equal(items.filter((a) => a.run_id === rejected)[0]!.decision, 'deterministic');
});

test('a stop right after submission is resumed by polling the stored batch ids; nothing is submitted twice; a live run is refused meanwhile', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const index = designIndex(domainsDir);
  server.script((call) => taggedAnswer(index, call));
  // "crash" after submission: the interrupt fires as soon as the provider accepted the first batch
  const interrupt = new AbortController();
  const stopAfterSubmit = (spec: string, options: Parameters<typeof createBatchClient>[1]): BatchClient => {
    const real = createBatchClient(spec, options);
    return {
      ...real,
      provider: real.provider,
      model: real.model,
      submitBatch: async (requests) => {
        const id = await real.submitBatch(requests);
        interrupt.abort();
        return id;
      },
      pollBatch: (id) => real.pollBatch(id),
      fetchBatchResults: (id) => real.fetchBatchResults(id),
    };
  };
  const from = server.requests.length;
  const r1 = await collectKst(params(out, domainsDir), deps({ createBatchClient: stopAfterSubmit, interrupt: interrupt.signal }).deps);
  assert.equal(r1.status, 'interrupted');
  assert.equal(r1.batch?.submitted.length, 1, 'the stop came before the second model was submitted');
  assert.deepEqual(r1.batch?.open, r1.batch?.submitted);
  const stored = r1.batch!.open[0]!;
  assert.equal(readFileSync(join(out, 'responses.jsonl'), 'utf8'), '');
  assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).result.open_batches[0], stored);

  // a live run would request the batched cells a second time: refused
  await assert.rejects(collectKst(params(out, domainsDir, { batch: false }), deps().deps), (e: Error) => e.name === 'InputError' && e.message.includes(stored));

  const before = server.requests.length;
  const r2 = await collectKst(params(out, domainsDir), deps().deps);
  assert.equal(r2.status, 'complete', r2.reason);
  // the stored batch was polled, not submitted again; only the other model's batch is new
  assert.ok(server.requests.slice(before).some((r) => r.method === 'GET' && r.path.endsWith(`/${stored}`)));
  assert.equal(countRequests(from, 'POST', /^\/(v1\/)?batches$|^\/v1\/messages\/batches$/), 2);
  assert.equal(r2.batch?.submitted.length, 1);
  assert.notEqual(r2.batch?.submitted[0], stored);
  const responses = readLines(join(out, 'responses.jsonl'));
  assert.equal(responses.length, 2 * CELLS_PER_MODEL);
  assert.equal(new Set(responses.map((r) => r.run_id)).size, 2 * CELLS_PER_MODEL);
  // each cell was asked of a model exactly once
  const ledger = readLedger(join(out, 'batches.jsonl'));
  const submittedIds = ledger.submitted.flatMap((b) => b.items.map((it) => it.run_id));
  assert.equal(submittedIds.length, 2 * CELLS_PER_MODEL);
  assert.equal(new Set(submittedIds).size, 2 * CELLS_PER_MODEL);
  const events = readLines(join(out, 'attempts.jsonl')).filter((a) => a.type === 'event');
  const start2 = events.filter((e) => e.event === 'run_start')[1];
  assert.deepEqual(start2.open_batches, [stored]);
});

test('a submission cut off before the batch id was stored is logged as unconfirmed and its cells are sent again', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const index = designIndex(domainsDir);
  server.script((call) => taggedAnswer(index, call));
  writeFileSync(join(out, 'batches.jsonl'), JSON.stringify({ type: 'submitting', seq: 1, model: OPENAI, requests: CELLS_PER_MODEL, at: 't' }) + '\n');
  const r = await collectKst(params(out, domainsDir, { models: [OPENAI] }), deps().deps);
  assert.equal(r.status, 'complete');
  const unconfirmed = readLines(join(out, 'attempts.jsonl')).filter((a) => a.event === 'batch_submission_unconfirmed');
  assert.equal(unconfirmed.length, 1);
  assert.equal(unconfirmed[0].requests, CELLS_PER_MODEL);
  assert.equal(readLedger(join(out, 'batches.jsonl')).submitted[0]!.seq, 2);
});

test('a rejected key: the run fails resumably, the echoed key reaches no file', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const wrong = 'sk-planted-WRONG-9876543210fedcba';
  const r = await collectKst(params(out, domainsDir, { models: [OPENAI] }), deps({ env: { OPENAI_API_KEY: wrong } }).deps);
  assert.equal(r.status, 'failed');
  assert.match(r.reason ?? '', /authentication failed/);
  for (const f of readdirSync(out)) assert.ok(!readFileSync(join(out, f), 'utf8').includes(wrong), `${f} contains the rejected key`);
  const failed = readLines(join(out, 'attempts.jsonl')).filter((a) => a.event === 'batch_call_failed');
  assert.equal(failed.length, 1);
  assert.equal(failed[0].error_class, 'auth');
  assert.equal(failed[0].op, 'submit');
  // the submission never happened, so no batch is open and a later run starts afresh
  assert.deepEqual(openBatches(readLedger(join(out, 'batches.jsonl'))), []);
  assert.equal(readLedger(join(out, 'batches.jsonl')).unconfirmed.length, 0, 'a refused submission created no batch');
});

test('--batch refuses simulated and openai-compatible models; dry run applies the batch discount', () => {
  const domainsDir = writeTinyDomains();
  const out = join(tempDir(), 'absent');
  assert.throws(() => dryRunKst(params(out, domainsDir, { models: ['simulated:sim-a'] })), (e: Error) => e.name === 'InputError' && /--batch works with openai: and anthropic: models only/.test(e.message));
  const live = dryRunKst(params(out, domainsDir, { batch: false }));
  const batched = dryRunKst(params(out, domainsDir));
  assert.equal(batched.batch, true);
  assert.equal(batched.calls, live.calls);
  for (let i = 0; i < live.models.length; i++) {
    assert.ok(Math.abs(batched.models[i]!.costUsd! - live.models[i]!.costUsd! * 0.5) < 1e-7);
    assert.ok(Math.abs(batched.models[i]!.costUpperBoundUsd! - live.models[i]!.costUpperBoundUsd! * 0.5) < 1e-7);
  }
});

test('--retry-missing in batch mode: missing cells are submitted again and their new records supersede the old ones', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const index = designIndex(domainsDir);
  server.script((call) => {
    const runId = index.byCustomId.get(call.customId ?? '')!;
    return runId.startsWith('tiny-b.') ? { kind: 'server_error', status: 500 } : taggedAnswer(index, call);
  });
  await collectKst(params(out, domainsDir, { models: [OPENAI], maxRetries: 0 }), deps().deps);
  const missing = readLines(join(out, 'responses.jsonl')).filter((r) => r.status === 'missing').map((r) => r.run_id);
  assert.equal(missing.length, 12);
  server.script((call) => taggedAnswer(index, call));
  const r = await collectKst(params(out, domainsDir, { models: [OPENAI], retryMissing: true }), deps().deps);
  assert.equal(r.status, 'complete');
  const ledger = readLedger(join(out, 'batches.jsonl'));
  assert.deepEqual(ledger.submitted.at(-1)!.items.map((it) => it.run_id).sort(), [...missing].sort());
  assert.ok(ledger.submitted.at(-1)!.items.every((it) => it.attempt === 1));
  const winners = readCompleted(join(out, 'responses.jsonl'));
  assert.equal(winners.size, CELLS_PER_MODEL);
  assert.ok([...winners.values()].every((w) => w.status === 'valid'));
  assert.ok(missing.every((id) => winners.get(id)!.supersedes_missing === true));
  const extracted = readLines(join(out, 'extracted.jsonl'));
  assert.deepEqual(extracted.map((e) => e.run_id), [...winners.keys()]);
  assert.ok(extracted.every((e) => e.status === 'valid'));
});

/** An in-memory batch client whose every batch ends cancelled, answering only tiny-a cells; it refuses a third submission (so a run that keeps resubmitting ends instead of looping). */
function cancellingClient() {
  const sizes: number[] = [];
  const batches = new Map<string, readonly CompletionRequest[]>();
  const client: BatchTransport = {
    provider: 'openai',
    model: 'stub',
    async submitBatch(requests) {
      sizes.push(requests.length);
      if (sizes.length > 2) throw new ProviderError('test client: a cancelled batch was resubmitted', 'client_error', { deterministic: true });
      const id = `cancel_${sizes.length}_${Math.random().toString(36).slice(2)}`;
      batches.set(id, requests);
      return id;
    },
    async pollBatch(batchId) {
      const n = batches.get(batchId)!.length;
      return { batchId, state: 'cancelled', done: true, providerStatus: 'cancelled', counts: { total: n, succeeded: 0, failed: 0, pending: n } };
    },
    async fetchBatchResults(batchId) {
      const results = new Map<string, CompletionResult | ProviderError>();
      for (const r of batches.get(batchId)!) if (r.runId.startsWith('tiny-a.')) results.set(r.runId, okResult(answerPosition1(r)));
      return results;
    },
  };
  return { client, sizes };
}

test('a batch cancelled at the provider holds its unanswered cells: not resubmitted in this run nor the next, and the run is not complete', { timeout: 60_000 }, async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const run = (client: BatchTransport) =>
    collectKst(stubCollectParams(out, domainsDir, { concurrency: 1, maxRetries: 2, batch: true, noPreflight: true, pollIntervalMs: 1 }), { createBatchClient: () => client, sleep: async () => {} });
  const first = cancellingClient();
  const r1 = await run(first.client);
  assert.deepEqual(first.sizes, [64], 'the cancelled cells were not sent again in the same run');
  assert.equal(r1.status, 'interrupted', r1.reason);
  assert.equal(r1.written.valid, 40);
  assert.equal(r1.pending, 24);
  assert.deepEqual(r1.batch?.open, [], 'the cancelled batch itself is collected, not left open to be polled again');
  const held = readLines(join(out, 'attempts.jsonl')).filter((a) => a.decision === 'held_cancelled');
  assert.equal(held.length, 24);
  const second = cancellingClient();
  const r2 = await run(second.client);
  assert.deepEqual(second.sizes, [], 'nor by the next run without --resubmit-cancelled');
  assert.equal(r2.status, 'interrupted');
  assert.match(r2.reason!, /24 cell\(s\) of batches cancelled/);
});

test('cancelledCells: the cells a cancelled batch listed, until a later batch sends them again', () => {
  const submitted = (seq: number, batchId: string, runIds: string[]) =>
    ({ type: 'submitted', seq, batch_id: batchId, model: OPENAI, provider: 'openai', submitted_at: null, items: runIds.map((r) => ({ run_id: r, custom_id: r, attempt: 1 })) }) as never;
  const ledger = {
    submitted: [submitted(1, 'b1', ['x', 'y', 'z']), submitted(2, 'b2', ['y'])],
    collected: new Map([['b1', { type: 'collected', batch_id: 'b1', cancelled: ['x', 'y'] }]]),
  } as never;
  assert.deepEqual([...cancelledCells(ledger)], ['x']);
});

test('loggedBatchItems keys the logged batch items only, and names the file and line of a line off its schema', () => {
  const dir = tempDir();
  const file = join(dir, 'attempts.jsonl');
  const base = { model: OPENAI, attempt: 1, started_at: null, ended_at: null, latency_ms: null };
  const result = { text: '{}', finishReason: 'stop', refusal: null, modelVersion: null, usage: null, httpStatus: 200, requestId: 'q' };
  const lines = [
    { type: 'event', event: 'run_start', at: null },
    responseAttemptLine({ ...base, run_id: 'live-1' }, result, null),
    responseAttemptLine({ ...base, run_id: 'r1', batch_id: 'batch_a', custom_id: 'c1' }, result, null),
    errorAttemptLine({ ...base, run_id: 'r2', batch_id: 'batch_a', custom_id: 'c2' }, { errorClass: 'server_error', message: 'HTTP 500' }, null, 'retry', 0),
    { type: 'event', event: 'batch_poll', at: null, batch_id: 'batch_b' },
  ];
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  assert.deepEqual([...loggedBatchItems(file)].sort(), ['batch_a|r1', 'batch_a|r2']);
  assert.equal(loggedBatchItems(join(dir, 'absent.jsonl')).size, 0);
  // An attempt line with a batch id but no run id is corruption, not a line to skip.
  writeFileSync(file, `${JSON.stringify(lines[2])}\n${JSON.stringify({ type: 'attempt', batch_id: 'batch_a' })}\n`);
  assert.throws(
    () => loggedBatchItems(file),
    (err: unknown) => err instanceof InputError && err.message.startsWith(`${file}:2: `) && !err.message.includes('\n'),
  );
});
