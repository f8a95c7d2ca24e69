import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { collectKst, dryRunKst, formatDryRun, type CollectParams } from '../../lib/collect/collect';
import { attemptsWording, resumedWording } from '../../lib/collect/summary';
import { kstJobs } from '../../lib/collect/kst-study';
import { readCompleted } from '../../lib/collect/store';
import { loadDomainDir, presentationOrders } from '../../lib/kst';
import type { Provider } from '../../lib/provider/contract';
import { liveTransport } from '../../lib/collect/engine';
import type { Job, RunContext, Stop } from '../../lib/collect/lifecycle';
import { CircuitBreaker } from '../../lib/collect/circuit-breaker';
import { DEFAULT_RETRY_POLICY } from '../../lib/collect/retry';
import { storePaths } from '../../lib/collect/store';
import {
  answerPosition1,
  okResult,
  providerError,
  readLines,
  stubCollectParams,
  stubProvider,
  tempDir,
  writePrices,
  writeTinyDomains,
} from './helpers';

const DESIGN_PER_MODEL = 8 * 4 * 2; // 8 states (5 + 3) × 4 conditions × 2 orders

function params(out: string, domainsDir: string, extra: Partial<CollectParams> = {}): CollectParams {
  return stubCollectParams(out, domainsDir, { ...extra });
}

function deps(providers: Record<string, Provider>, extra: Record<string, unknown> = {}) {
  const sleeps: number[] = [];
  return {
    sleeps,
    deps: {
      createProvider: (spec: string) => {
        const p = providers[spec];
        if (!p) throw new Error(`no stub for ${spec}`);
        return p;
      },
      env: {},
      sleep: async (ms: number) => {
        sleeps.push(ms);
      },
      ...extra,
    },
  };
}

test('a complete run writes one final record per cell, canonical recommendations, extracted.jsonl and run.json', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const provider = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const { deps: d } = deps({ 'openai:stub': provider });
  const result = await collectKst(params(out, domainsDir), d);
  assert.equal(result.status, 'complete');
  assert.equal(result.total, DESIGN_PER_MODEL);
  assert.equal(provider.total(), DESIGN_PER_MODEL);
  const responses = readLines(join(out, 'responses.jsonl'));
  assert.equal(responses.length, DESIGN_PER_MODEL);
  assert.equal(new Set(responses.map((r) => r.run_id)).size, DESIGN_PER_MODEL);
  // position 1 of presentation k is presentationOrders(domain)[k-1].positions[0]
  const domains = loadDomainDir(domainsDir);
  const first = new Map(domains.flatMap((dom) => presentationOrders(dom, 2).map((p) => [`${dom.id}|${p.order}`, p.positions[0]!])));
  for (const r of responses) {
    assert.equal(r.status, 'valid', JSON.stringify(r));
    assert.deepEqual(r.recommended, [first.get(`${r.domain}|${r.order}`)]);
    assert.equal(r.attempts, 1);
    assert.equal(r.simulated, false);
    // 1000 in × $2/M + 200 out × $10/M = 0.002 + 0.002 = 0.004
    assert.equal(r.cost_usd, 0.004);
    assert.equal(r.prompt_sha256.length, 64);
    if (r.condition === 'P1') assert.deepEqual(r.prerequisites, []);
    assert.match(r.completed_at, /^\d{4}-\d\d-\d\dT/);
  }
  const extracted = readLines(join(out, 'extracted.jsonl'));
  assert.equal(extracted.length, DESIGN_PER_MODEL);
  assert.deepEqual(Object.keys(extracted[0]), ['run_id', 'model', 'domain', 'condition', 'order', 'state', 'recommended', 'status', 'simulated']);
  const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  assert.equal(run.status, 'complete');
  assert.equal(run.design.size, DESIGN_PER_MODEL);
  assert.equal(run.params.seed, '42');
  assert.deepEqual(run.design.states, { 'tiny-a': 5, 'tiny-b': 3 });
  assert.equal(result.costUsd, 0.004 * DESIGN_PER_MODEL);
  const attempts = readLines(join(out, 'attempts.jsonl')).filter((a) => a.type === 'attempt');
  assert.equal(attempts.length, DESIGN_PER_MODEL);
  assert.ok(attempts.every((a) => a.outcome === 'response' && typeof a.latency_ms === 'number'));
  assert.equal(existsSync(join(out, '.collect.lock')), false);
});

test('retry honours retry-after; invalid output is not retried; exhausted retries give a missing record', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const provider = stubProvider('openai:stub', (req, n) => {
    if (req.user.includes('Tiny B') && n <= 2) throw providerError('rate_limit', 'slow down', { httpStatus: 429, retryAfterMs: 7000 });
    if (req.schemaName.includes('graph')) return okResult('not json at all');
    if (req.runId.startsWith('tiny-a.P3')) throw providerError('server_error', 'boom', { httpStatus: 500 });
    return okResult(answerPosition1(req));
  });
  const { deps: d, sleeps } = deps({ 'openai:stub': provider });
  const result = await collectKst(params(out, domainsDir, { maxRetries: 2 }), d);
  assert.equal(result.status, 'incomplete', 'cells left missing after their retries: not complete (issue 18 item 6)');
  const responses = readLines(join(out, 'responses.jsonl'));
  const byId = new Map(responses.map((r) => [r.run_id, r]));
  assert.equal(byId.size, DESIGN_PER_MODEL);
  for (const r of responses) {
    const calls = provider.calls.get(r.run_id);
    if (r.domain === 'tiny-b') {
      assert.equal(calls, 3, 'two rate limits then an answer');
      assert.equal(r.attempts, 3);
    } else if (r.condition === 'P3') {
      assert.equal(r.status, 'missing');
      assert.equal(r.reason, 'server_error');
      assert.equal(calls, 3, '1 + maxRetries 2');
      assert.equal(r.recommended, null);
    }
    if (r.condition === 'P1') {
      assert.equal(r.status, 'invalid');
      assert.equal(r.reason, 'malformed_json');
      if (r.domain === 'tiny-a') assert.equal(calls, 1, 'invalid output is never retried');
    }
  }
  // tiny-b: 3 states × 4 conditions × 2 orders = 24 cells × 2 waits of exactly the 7000 ms retry-after
  assert.equal(sleeps.filter((s) => s === 7000).length, 48);
  // tiny-a P3: 5 states × 2 orders = 10 cells × 2 backoff waits (retry 1 in [500,1000), retry 2 in [1000,2000))
  const others = sleeps.filter((s) => s !== 7000);
  assert.equal(others.length, 20);
  assert.ok(others.every((s) => s >= 500 && s < 2000));
  const attempts = readLines(join(out, 'attempts.jsonl')).filter((a) => a.type === 'attempt');
  const rl = attempts.filter((a) => a.error_class === 'rate_limit');
  assert.equal(rl.length, 48);
  assert.ok(rl.every((a) => a.retry_after_ms === 7000 && a.next_delay_ms === 7000 && a.decision === 'retry' && a.http_status === 429));
  assert.equal(result.written.missing, 10);
});

test('quota stop: dispatch stops, status quota_stopped, and resuming completes without re-requesting finished cells', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const first = stubProvider('openai:stub', (req, _n, overall) => {
    if (overall === 20) throw providerError('quota', 'insufficient_quota', { httpStatus: 429, code: 'insufficient_quota' });
    return okResult(answerPosition1(req));
  });
  const r1 = await collectKst(params(out, domainsDir, { concurrency: 2 }), deps({ 'openai:stub': first }).deps);
  assert.equal(r1.status, 'quota_stopped');
  assert.match(r1.reason ?? '', /exhausted quota/);
  const done1 = new Set(readLines(join(out, 'responses.jsonl')).map((r) => r.run_id));
  // call 20 failed; with concurrency 2 at most one more call was in flight
  assert.ok(done1.size >= 19 && done1.size <= 20, `completed ${done1.size}`);
  assert.ok(first.total() <= 21);
  assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).status, 'quota_stopped');
  assert.equal(readLines(join(out, 'extracted.jsonl')).length, done1.size);

  const second = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const r2 = await collectKst(params(out, domainsDir, { concurrency: 2 }), deps({ 'openai:stub': second }).deps);
  assert.equal(r2.status, 'complete');
  assert.equal(r2.resumed, done1.size);
  assert.equal(second.total(), DESIGN_PER_MODEL - done1.size);
  for (const id of second.calls.keys()) assert.ok(!done1.has(id), `${id} was requested again`);
  const all = readLines(join(out, 'responses.jsonl'));
  assert.equal(all.length, DESIGN_PER_MODEL);
  assert.equal(new Set(all.map((r) => r.run_id)).size, DESIGN_PER_MODEL);

  // a third run makes no calls at all
  const third = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const r3 = await collectKst(params(out, domainsDir, { concurrency: 2 }), deps({ 'openai:stub': third }).deps);
  assert.equal(r3.status, 'complete');
  assert.equal(third.total(), 0);
});

test('a torn responses.jsonl tail is moved aside and logged; the cell is collected again', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const p1 = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  await collectKst(params(out, domainsDir), deps({ 'openai:stub': p1 }).deps);
  const file = join(out, 'responses.jsonl');
  const text = readFileSync(file, 'utf8');
  const lines = text.trimEnd().split('\n');
  const last = JSON.parse(lines.at(-1)!);
  // simulate a writer killed mid-line: drop the newline and half of the last record
  writeFileSync(file, `${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 100)}`);
  const p2 = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const r = await collectKst(params(out, domainsDir), deps({ 'openai:stub': p2 }).deps);
  assert.equal(r.status, 'complete');
  assert.deepEqual([...p2.calls.keys()], [last.run_id]);
  const torn = readLines(join(out, 'torn.jsonl'));
  assert.equal(torn.length, 1);
  assert.equal(torn[0].text, lines.at(-1)!.slice(0, 100));
  const events = readLines(join(out, 'attempts.jsonl')).filter((a) => a.type === 'event' && a.event === 'torn_tail_repaired');
  assert.equal(events.length, 1);
  assert.equal(events[0].file, 'responses.jsonl');
  assert.equal(readLines(file).length, DESIGN_PER_MODEL);
});

test('timeouts are retried and their assumed charge is counted in the cost', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const provider = stubProvider('openai:stub', (req, n) => {
    if (n === 1) throw providerError('timeout', 'no answer within 1000 ms');
    return okResult(answerPosition1(req));
  });
  await collectKst(params(out, domainsDir, { conditions: ['P0'] }), deps({ 'openai:stub': provider }).deps);
  const attempts = readLines(join(out, 'attempts.jsonl')).filter((a) => a.type === 'attempt' && a.error_class === 'timeout');
  assert.equal(attempts.length, 8 * 2);
  const responses = readLines(join(out, 'responses.jsonl'));
  for (const r of responses) {
    const t = attempts.find((a) => a.run_id === r.run_id);
    const inputTokens = Math.ceil((r.prompt.system.length + r.prompt.user.length) / 4);
    assert.equal(t.billed_estimate.input_tokens, inputTokens);
    assert.equal(t.billed_estimate.output_tokens, 1500);
    const billed = (inputTokens * 2 + 1500 * 10) / 1e6;
    assert.ok(Math.abs(r.cost_usd - (billed + 0.004)) < 1e-7, `${r.cost_usd} vs ${billed + 0.004}`);
  }
});

test('a timeout the server never started (a stream with no event) is retried and billed nothing', async () => {
  // A streamed request that sent no message_start was never begun by the server, so no token was
  // used; one that did start may be billed (lib/collect/README.md, "Streaming has its own clock").
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const provider = stubProvider('openai:stub', (req, n) => {
    if (n === 1) throw providerError('timeout', 'no stream event for 120 s', { started: false });
    return okResult(answerPosition1(req));
  });
  const r = await collectKst(params(out, domainsDir, { conditions: ['P0'] }), deps({ 'openai:stub': provider }).deps);
  assert.equal(r.status, 'complete');
  const attempts = readLines(join(out, 'attempts.jsonl')).filter((a) => a.type === 'attempt' && a.error_class === 'timeout');
  assert.equal(attempts.length, 8 * 2);
  assert.ok(attempts.every((a) => a.billed_estimate === null), 'no assumed charge for a request never started');
  for (const rec of readLines(join(out, 'responses.jsonl'))) assert.ok(Math.abs(rec.cost_usd - 0.004) < 1e-9, `only the answered attempt is billed: ${rec.cost_usd}`);
});

test('a changed design is refused in an existing directory', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const p = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  await collectKst(params(out, domainsDir, { conditions: ['P0'] }), deps({ 'openai:stub': p }).deps);
  await assert.rejects(
    collectKst(params(out, domainsDir, { conditions: ['P0'], seed: '43' }), deps({ 'openai:stub': p }).deps),
    (err: Error) => err.name === 'InputError' && /run\.json: this directory holds a run of another design \(seed: "42" → "43"\); resume with the same parameters or use a new --out directory$/.test(err.message),
  );
});

test('simulated calls are counted apart from API attempts; the dry run gives simulated models no tokens', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const real = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const sim = stubProvider('simulated:sim-a', (req) => okResult(answerPosition1(req)), true);
  const p = params(out, domainsDir, { conditions: ['P0'], models: ['openai:stub', 'simulated:sim-a'] });
  const dry = dryRunKst(p);
  const simLine = dry.models.find((l) => l.model === 'simulated:sim-a')!;
  const realLine = dry.models.find((l) => l.model === 'openai:stub')!;
  assert.deepEqual([simLine.simulated, simLine.calls, simLine.inputTokens, simLine.outputTokensAssumed], [true, 16, 0, 0]);
  assert.ok(realLine.inputTokens > 0 && !realLine.simulated);
  assert.deepEqual([dry.inputTokens, dry.outputTokensAssumed], [realLine.inputTokens, realLine.outputTokensAssumed], 'the totals are the real model\'s');
  const text = formatDryRun(dry);
  assert.match(text, /^Dry run: 16 API calls and 16 simulated \(no API\) \(32 cells in the design, 0 already complete\)/);
  assert.match(text, /simulated:sim-a +16 calls {2}simulated \(no API\): no tokens, no cost\n/);
  const r = await collectKst(p, deps({ 'openai:stub': real, 'simulated:sim-a': sim }).deps);
  assert.equal(r.status, 'complete');
  assert.deepEqual([r.attempts, r.simulatedAttempts], [32, 16]);
  assert.equal(attemptsWording(r), '16 API attempts, 16 simulated (no API)');
  assert.equal(attemptsWording({ attempts: 5, simulatedAttempts: 0 }), '5 API attempts');
});

test('simulated providers give byte-identical files whatever the concurrency and timing', async () => {
  const domainsDir = writeTinyDomains();
  const make = (seed: number) => {
    let x = seed;
    return stubProvider(
      'simulated:sim-test',
      async (req) => {
        x = (x * 1103515245 + 12345) % 2 ** 31; // different, arbitrary delays per run
        await new Promise((r) => setTimeout(r, x % 7));
        return { ...okResult(answerPosition1(req), { inputTokens: 10, outputTokens: 5 }), requestId: null, httpStatus: null };
      },
      true,
    );
  };
  const a = tempDir();
  const b = tempDir();
  await collectKst(params(a, domainsDir, { models: ['simulated:sim-test'], concurrency: 4 }), deps({ 'simulated:sim-test': make(1) }).deps);
  await collectKst(params(b, domainsDir, { models: ['simulated:sim-test'], concurrency: 1 }), deps({ 'simulated:sim-test': make(99) }).deps);
  for (const f of ['attempts.jsonl', 'responses.jsonl', 'extracted.jsonl']) {
    assert.equal(readFileSync(join(a, f), 'utf8'), readFileSync(join(b, f), 'utf8'), f);
  }
  const runA = JSON.parse(readFileSync(join(a, 'run.json'), 'utf8'));
  assert.equal(runA.started_at, null);
  assert.equal(runA.deterministic, true);
  const responses = readLines(join(a, 'responses.jsonl'));
  assert.ok(responses.every((r) => r.completed_at === null && r.simulated === true && r.cost_usd === 0));
  // committed in design order
  const jobs = kstJobs(loadDomainDir(domainsDir), { models: ['simulated:sim-test'], conditions: ['P0', 'P1', 'P2', 'P3'], orders: 2, seed: '42' });
  assert.deepEqual(responses.map((r) => r.run_id), jobs.map((j) => j.runId));
});

test('an auth failure stops the run with status failed and no final record for the cell', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const p = stubProvider('openai:stub', () => {
    throw providerError('auth', 'Incorrect API key provided', { httpStatus: 401 });
  });
  const r = await collectKst(params(out, domainsDir, { concurrency: 1 }), deps({ 'openai:stub': p }).deps);
  assert.equal(r.status, 'failed');
  assert.equal(p.total(), 1);
  assert.equal(readFileSync(join(out, 'responses.jsonl'), 'utf8'), '');
});

test('secrets from the environment never reach the files', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const secret = 'sk-test-SECRET123';
  const p = stubProvider('openai:stub', (req, n) => {
    if (n === 1) throw providerError('server_error', `upstream echoed key ${secret}`, { httpStatus: 502 });
    return okResult(answerPosition1(req).replace('first listed component', `see ${secret}`));
  });
  const { deps: d } = deps({ 'openai:stub': p });
  await collectKst(params(out, domainsDir, { conditions: ['P0'], baseUrl: `http://proxy.test/?k=${secret}` }), { ...d, env: { OPENAI_API_KEY: secret } });
  for (const f of readdirSync(out)) {
    const text = readFileSync(join(out, f), 'utf8');
    assert.ok(!text.includes(secret), `${f} contains the secret`);
  }
  assert.ok(readFileSync(join(out, 'attempts.jsonl'), 'utf8').includes('[REDACTED:OPENAI_API_KEY]'));
});

test('dry run counts pending calls and prompt tokens, and writes nothing', () => {
  const domainsDir = writeTinyDomains();
  const out = join(tempDir(), 'not-created');
  const report = dryRunKst(params(out, domainsDir, { models: ['openai:stub', 'openai:unpriced'] }));
  assert.equal(report.calls, 2 * DESIGN_PER_MODEL);
  assert.equal(report.alreadyComplete, 0);
  const jobs = kstJobs(loadDomainDir(domainsDir), { models: ['openai:stub'], conditions: ['P0', 'P1', 'P2', 'P3'], orders: 2, seed: '42' });
  const input = jobs.reduce((s, j) => {
    const r = j.request();
    return s + Math.ceil((r.system.length + r.user.length) / 4);
  }, 0);
  const stub = report.models.find((m) => m.model === 'openai:stub')!;
  assert.equal(stub.inputTokens, input);
  assert.equal(stub.outputTokensAssumed, 1500 * DESIGN_PER_MODEL);
  assert.ok(Math.abs(stub.costUsd! - (input * 2 + 1500 * DESIGN_PER_MODEL * 10) / 1e6) < 1e-7);
  assert.ok(Math.abs(stub.costUpperBoundUsd! - (input * 2 + 16000 * DESIGN_PER_MODEL * 10) / 1e6) < 1e-7);
  const unpriced = report.models.find((m) => m.model === 'openai:unpriced')!;
  assert.equal(unpriced.costUsd, null);
  assert.match(unpriced.note ?? '', /no price for openai:unpriced/);
  assert.equal(report.costUsd, null);
  assert.equal(existsSync(out), false);
});

test('--retry-missing requests missing cells again; the new records supersede the old; extracted.jsonl and resume agree', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const failing = stubProvider('openai:stub', (req) => {
    if (req.runId.startsWith('tiny-b.')) throw providerError('server_error', 'boom', { httpStatus: 500 });
    return okResult(answerPosition1(req));
  });
  const p = (extra: Partial<CollectParams> = {}) => params(out, domainsDir, { conditions: ['P0'], maxRetries: 0, ...extra });
  await collectKst(p(), deps({ 'openai:stub': failing }).deps);
  const first = readLines(join(out, 'responses.jsonl'));
  const missing = first.filter((r) => r.status === 'missing').map((r) => r.run_id);
  assert.equal(missing.length, 3 * 2); // tiny-b: 3 states × 2 orders
  // without the option, missing cells are not requested again, and the summary counts them apart from the done ones
  const idle = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const plain = await collectKst(p(), deps({ 'openai:stub': idle }).deps);
  assert.equal(plain.status, 'incomplete');
  assert.equal(idle.total(), 0);
  assert.deepEqual([plain.resumed, plain.resumedMissing], [16, missing.length]);
  assert.equal(resumedWording(plain), '10 already complete, 6 missing from an earlier run (--retry-missing requests them)');
  // the dry run sees them as pending only with the option, and as missing (not complete) without it
  const dry = dryRunKst(p());
  assert.deepEqual([dry.calls, dry.alreadyComplete, dry.alreadyMissing], [0, 10, missing.length]);
  assert.match(formatDryRun(dry), /^Dry run: 0 calls \(16 cells in the design, 10 already complete, 6 missing \(--retry-missing requests them\)\)\./);
  const dryRetry = dryRunKst(p({ retryMissing: true }));
  assert.deepEqual([dryRetry.calls, dryRetry.alreadyComplete, dryRetry.alreadyMissing], [missing.length, 10, 0]);

  const healed = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const r = await collectKst(p({ retryMissing: true }), deps({ 'openai:stub': healed }).deps);
  assert.equal(r.status, 'complete');
  assert.deepEqual([...healed.calls.keys()].sort(), [...missing].sort());
  assert.equal(r.resumed, 16 - missing.length);
  assert.equal(r.resumedMissing, 0, 'with --retry-missing the missing cells are requested, not resumed');
  assert.deepEqual(r.written, { valid: missing.length });
  const lines = readLines(join(out, 'responses.jsonl'));
  assert.equal(lines.length, 16 + missing.length, 'old records stay in the file (append-only)');
  const winners = [...readCompleted(join(out, 'responses.jsonl')).values()];
  assert.equal(winners.length, 16);
  assert.ok(winners.every((w) => w.status === 'valid'));
  assert.ok(winners.filter((w) => missing.includes(w.run_id as string)).every((w) => w.supersedes_missing === true));
  const extracted = readLines(join(out, 'extracted.jsonl'));
  assert.deepEqual(extracted.map((e) => e.run_id), winners.map((w) => w.run_id));
  assert.ok(extracted.every((e) => e.status === 'valid'));
  // nothing left to retry
  const none = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  await collectKst(p({ retryMissing: true }), deps({ 'openai:stub': none }).deps);
  assert.equal(none.total(), 0);
});

/**
 * A RunContext around a store whose writes stay pending until `release()`: the live transport alone,
 * without the lifecycle's files, so a slow disk can be simulated exactly.
 */
function slowStoreContext(jobs: ReadonlyArray<Job<unknown>>) {
  const held: Array<() => void> = [];
  let released = false;
  const slowAppend = () =>
    new Promise<void>((resolve) => {
      if (released) resolve();
      else held.push(resolve);
    });
  const completed = new Map<string, Record<string, unknown>>();
  let stop: Stop | null = null;
  const controller = new AbortController();
  const ctx = {
    paths: storePaths(tempDir()),
    deterministic: false,
    policy: { ...DEFAULT_RETRY_POLICY },
    jobsById: new Map(jobs.map((j) => [j.runId, j])),
    pending: jobs,
    completed,
    attemptsLog: { append: slowAppend },
    responsesLog: { append: slowAppend },
    breaker: new CircuitBreaker(),
    redact: (s: string) => s,
    stopSignal: controller.signal,
    get stopped() {
      return stop;
    },
    requestStop(s: Stop) {
      stop ??= s;
      controller.abort();
    },
    stamp: () => null,
    event: async () => {},
    sleep: async () => {},
    clockMs: () => 0,
    requestFor: (job: Job<unknown>) => ({ ...job.request(), runId: job.runId, maxOutputTokens: 100, timeoutMs: 1000 }),
    costOf: () => ({ usd: 0 }),
    finalFor: (job: Job<unknown>) => ({ run_id: job.runId, status: 'valid' }),
    checkAttempt: () => {},
    countFinal: (r: Record<string, unknown>) => completed.set(r.run_id as string, r),
    countAttempts: () => {},
    addCost: () => {},
    deterministicFailure: async () => null,
    cellUnfinished: () => {},
    countTransportFault: () => {},
  } as unknown as RunContext<unknown>;
  return {
    ctx,
    completed,
    release() {
      released = true;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

test('back-pressure: with the disk stalled, at most 2 × concurrency cells are answered and not yet written', { timeout: 60_000 }, async () => {
  const concurrency = 3;
  const jobs: Array<Job<unknown>> = Array.from({ length: 40 }, (_, i) => ({
    runId: `cell-${i}`,
    model: 'openai:stub',
    request: () => ({ system: 's', user: 'u', schemaName: 'kst_next_steps', schema: {} }) as never,
    meta: null,
  }));
  const provider = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const store = slowStoreContext(jobs);
  const transport = liveTransport({ providerFor: () => provider, concurrency, preflight: false } as never);
  const run = transport.run(store.ctx);
  // Let the workers run as far as they can while nothing reaches the disk.
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  const answeredWhileStalled = provider.total();
  assert.ok(answeredWhileStalled > 0, 'the workers started');
  assert.ok(answeredWhileStalled <= 2 * concurrency, `${answeredWhileStalled} calls answered while the disk was stalled (limit ${2 * concurrency})`);
  assert.equal(store.completed.size, 0, 'no final record is queued before its attempt lines are on disk');
  store.release();
  await run;
  assert.equal(provider.total(), jobs.length, 'every cell is sent once the disk moves again');
  assert.equal(store.completed.size, jobs.length);
});
