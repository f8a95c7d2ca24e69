import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { collectKst, type CollectParams } from '../../lib/collect/collect';
import { isOsError } from '../../lib/io/os-error';
import { collectPsi } from '../../lib/collect/psi-study';
import { finalStatus, missingNotRequested, pendingJobs } from '../../lib/collect/lifecycle';
import { readCompleted } from '../../lib/collect/store';
import type { Provider } from '../../lib/provider/contract';
import { KstFinalRecordSchema } from '../../lib/records/kst-final';
import { RunFileSchema } from '../../lib/records/run-file';
import { AttemptsFileLineSchema } from '../../lib/records/attempt';
import { answerPosition1, okResult, providerError, readLines, stubCollectParams, stubProvider, tempDir, writeTinyDomains } from './helpers';

/** Issue 9 (collector lifecycle): circuit breaker, failed status, rate control, design checks, OS errors. */

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'bin', 'kstbench.js');
const CELLS = 8 * 4 * 2;

function params(out: string, domainsDir: string, extra: Partial<CollectParams> = {}): CollectParams {
  return stubCollectParams(out, domainsDir, { concurrency: 1, maxRetries: 2, ...extra });
}

function deps(providers: Record<string, Provider>, extra: Record<string, unknown> = {}) {
  return {
    createProvider: (spec: string) => providers[spec]!,
    env: {},
    sleep: async () => {},
    ...extra,
  };
}

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT });
}

test('circuit breaker: 3 identical 404s stop the model; the run is failed (not complete) and resume requests those cells again', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const dead = stubProvider('openai:stub', () => {
    throw providerError('client_error', 'openai HTTP 404 model_not_found: The model `stub` does not exist', { httpStatus: 404, code: 'model_not_found' });
  });
  // --no-preflight: the breaker itself (with the pre-flight the first 404 already stops the run, below).
  const r = await collectKst(params(out, domainsDir, { noPreflight: true }), deps({ 'openai:stub': dead }));
  assert.equal(r.status, 'failed');
  assert.equal(dead.total(), 3, 'exactly threshold (3) requests, then the queue stops');
  assert.match(r.reason!, /stopped after 3 identical client_error failures/);
  assert.match(r.remedy!, /model name openai:stub/);
  assert.equal(readFileSync(join(out, 'responses.jsonl'), 'utf8'), '', 'no missing records: the cells stay re-requestable');
  const run = RunFileSchema.parse(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')));
  assert.equal(run.status, 'failed');
  assert.equal(run.result?.reason, r.reason);
  const events = readLines(join(out, 'attempts.jsonl')).filter((l) => l.type === 'event').map((l) => l.event);
  assert.ok(events.includes('circuit_open'));
  // fixed: the same command requests every cell
  const fixed = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const again = await collectKst(params(out, domainsDir, { noPreflight: true }), deps({ 'openai:stub': fixed }));
  assert.equal(again.status, 'complete');
  assert.equal(fixed.total(), CELLS);
});

test('every call fails (5xx after retries) → the run ends failed, not complete', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const broken = stubProvider('openai:stub', () => {
    throw providerError('server_error', 'openai HTTP 500', { httpStatus: 500 });
  });
  const r = await collectKst(params(out, domainsDir, { maxRetries: 0 }), deps({ 'openai:stub': broken }));
  assert.equal(r.status, 'failed');
  assert.equal(r.written.missing, CELLS);
  assert.match(r.reason!, /every one of the 64 cells finished by this run is missing/);
  assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).status, 'failed');
  // Re-running without --retry-missing requests nothing (every cell has its `missing` record), and
  // the collection still holds no answer: it stays failed, it does not turn `incomplete`.
  const idle = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const again = await collectKst(params(out, domainsDir, { maxRetries: 0 }), deps({ 'openai:stub': idle }));
  assert.equal(idle.total(), 0);
  assert.deepEqual([again.status, again.pending, again.written], ['failed', 0, {}]);
  assert.equal(again.reason, 'every one of the 64 cells is missing (no call has succeeded yet)');
  assert.match(again.remedy!, /--retry-missing/);
  assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).status, 'failed');
});

test('connection refused on every call: the pre-flight cell is retried with backoff, then the run stops failed with no record (the breaker does not count transport faults)', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const refused = stubProvider('openai:stub', () => {
    throw providerError('connection', 'connect ECONNREFUSED 127.0.0.1:9', { code: 'ECONNREFUSED' });
  });
  const r = await collectKst(params(out, domainsDir, { maxRetries: 1 }), deps({ 'openai:stub': refused }));
  assert.equal(r.status, 'failed');
  assert.equal(r.breakerTrips, undefined, 'no circuit breaker for connection failures');
  assert.match(r.reason!, /pre-flight: connection: retries exhausted after 2 attempts/);
  assert.equal(readFileSync(join(out, 'responses.jsonl'), 'utf8'), '');
  assert.equal(refused.total(), 2, 'the pre-flight cell only: 1 try + 1 retry');
  assert.equal(r.transportFaults, 2, 'counted apart');
});

test('cells that never reached a server are held, and the run says they were retried, not that retrying does not fix them', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const refused = stubProvider('openai:stub', () => {
    throw providerError('connection', 'connect ECONNREFUSED 127.0.0.1:9', { code: 'ECONNREFUSED' });
  });
  const r = await collectKst(params(out, domainsDir, { maxRetries: 1, noPreflight: true, conditions: ['P0'], orders: 1 }), deps({ 'openai:stub': refused }));
  assert.equal(r.status, 'failed');
  assert.match(r.reason!, /^8 cell\(s\) ended without a record after connection failures that never reached a server, retried until the retries ran out \(first: openai:stub: /);
  assert.match(r.reason!, /requested again on the next run$/);
  assert.equal(readFileSync(join(out, 'responses.jsonl'), 'utf8'), '');
});

test('--tpm in a run: a budget below one call is refused; a tight one spaces the calls by the minute window', async () => {
  const domainsDir = writeTinyDomains();
  const p = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  await assert.rejects(collectKst(params(tempDir(), domainsDir, { tokensPerMinute: 1000 }), deps({ 'openai:stub': p })), /--tpm 1000 is below the \d+ tokens one call reserves/);
  let t = 0;
  const out = tempDir();
  const r = await collectKst(
    params(out, domainsDir, { conditions: ['P0'], orders: 1, maxOutputTokens: 1000, tokensPerMinute: 2500 }),
    deps({ 'openai:stub': p }, { clockMs: () => t, sleep: async (ms: number) => { t += ms; } }),
  );
  assert.equal(r.status, 'complete');
  // 8 calls of ~1,1xx tokens each, 2 per minute → the last starts after 3 full windows
  assert.ok(t >= 3 * 60_000, `clock at ${t}`);
});

test('settings and cached/reasoning usage are recorded; the fingerprint holds the settings; records match the schemas', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  const base = stubProvider('openai:stub', (req) => ({ ...okResult(answerPosition1(req)), usage: { inputTokens: 1000, outputTokens: 200, cachedInputTokens: 800, reasoningTokens: 50 } as never }));
  const notes: string[] = [];
  const withHooks = Object.assign(base, {
    settings: () => ({ api: 'chat_completions', temperature: 0, reasoning_effort: 'low', max_output_tokens: 16000 }),
    notes: () => ['catalogue note', 'what is sent'],
  });
  const r = await collectKst(params(out, domainsDir, { conditions: ['P0'] }), deps({ 'openai:stub': withHooks }, { onNote: (_m: string, n: string) => notes.push(n) }));
  assert.equal(r.status, 'complete');
  assert.deepEqual(notes, ['catalogue note', 'what is sent'], 'printed once per model before the run');
  const records = readLines(join(out, 'responses.jsonl'));
  for (const rec of records) {
    KstFinalRecordSchema.parse(rec);
    assert.equal(rec.settings.reasoning_effort, 'low');
    assert.equal(rec.usage.cachedInputTokens, 800);
    assert.equal(rec.usage.reasoningTokens, 50);
  }
  for (const line of readLines(join(out, 'attempts.jsonl'))) AttemptsFileLineSchema.parse(line);
  const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  assert.equal(run.fingerprint.settings['openai:stub'].temperature, 0);
  // a changed setting is a different design: refused in the same directory
  const changed = Object.assign(stubProvider('openai:stub', (req) => okResult(answerPosition1(req))), { settings: () => ({ api: 'chat_completions', temperature: 1 }) });
  await assert.rejects(collectKst(params(out, domainsDir, { conditions: ['P0'] }), deps({ 'openai:stub': changed })), (err: Error) => {
    // One line naming each changed field of the model's settings, not the settings table as JSON.
    assert.match(err.message, /another design \(settings\.openai:stub\.temperature: 0 → 1; settings\.openai:stub\.reasoning_effort: "low" → \(none\);/);
    assert.doesNotMatch(err.message, /"api"|\n/, 'an unchanged setting is not shown; one line');
    return true;
  });
});

test('the pre-flight is the first real cell, sent alone after the lock and fingerprint checks: a refusal stops the run there, recorded; --no-preflight skips it', async () => {
  const domainsDir = writeTinyDomains();
  const out = join(tempDir(), 'fresh');
  const p = stubProvider('openai:stub', () => {
    throw providerError('client_error', "openai HTTP 400: max_tokens 16000 is above this model's 8192", { httpStatus: 400, param: 'max_tokens', remedy: 'pass --max-output-tokens 8192' } as never);
  });
  const r = await collectKst(params(out, domainsDir), deps({ 'openai:stub': p }));
  assert.equal(r.status, 'failed');
  assert.equal(p.total(), 1, 'one request, then nothing else is sent');
  assert.match(r.reason!, /openai:stub: pre-flight: client_error repeats on every identical request: openai HTTP 400: max_tokens 16000/);
  assert.equal(r.remedy, 'pass --max-output-tokens 8192');
  const attempts = readLines(join(out, 'attempts.jsonl')).filter((l) => l.type === 'attempt');
  assert.equal(attempts.length, 1);
  assert.equal(attempts[0].preflight, true, 'recorded in attempts.jsonl as the pre-flight');
  assert.equal(attempts[0].decision, 'preflight_stop');
  assert.equal(readFileSync(join(out, 'responses.jsonl'), 'utf8'), '', 'no record: the cell is requested again');
  // a second directory, after a fix: the pre-flight answer is kept as the cell's record (paid once)
  const ok = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  const out2 = tempDir();
  const fine = await collectKst(params(out2, domainsDir, { conditions: ['P0'] }), deps({ 'openai:stub': ok }));
  assert.equal(fine.status, 'complete');
  assert.equal(ok.total(), 16, 'no extra call for the pre-flight (8 states × 2 orders)');
  const lines = readLines(join(out2, 'attempts.jsonl')).filter((l) => l.type === 'attempt');
  assert.equal(lines.filter((l) => l.preflight === true).length, 1);
  assert.equal(fine.costUsd, 0.004 * 16, 'the pre-flight cell is in the cost');
  const skipped = await collectKst(params(tempDir(), domainsDir, { noPreflight: true, conditions: ['P0'] }), deps({ 'openai:stub': ok }));
  assert.equal(skipped.status, 'complete');
});

test('empty designs are usage errors (exit 2) and write nothing', () => {
  const domainsDir = writeTinyDomains();
  const emptyDomains = tempDir();
  writeFileSync(join(emptyDomains, 'README.txt'), 'no domains here');
  const cases: string[][] = [
    ['collect', '--domains', domainsDir, '--models', 'simulated:sim-a', '--conditions', ''],
    ['collect', '--domains', emptyDomains, '--models', 'simulated:sim-a'],
    ['psi', 'collect', '--models', 'simulated:sim-tutor-a', '--scenarios', ''],
  ];
  for (const args of cases) {
    const out = join(tempDir(), 'out');
    const r = cli([...args, '--out', out]);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /empty|no domain files/);
    assert.equal(existsSync(out), false, `${args.join(' ')} wrote ${out}`);
  }
});

test('duplicate PSI cells are refused at design time: a repeated scenario, two specs with one run-ID token', async () => {
  const base = { courseDir: join(ROOT, 'data', 'raw', 'psi'), round: 1 as const, seed: '1', concurrency: 1, maxOutputTokens: 100, timeoutMs: 1000 };
  const out = join(tempDir(), 'psi');
  await assert.rejects(collectPsi({ ...base, models: ['simulated:sim-tutor-a'], outDir: out, scenarios: ['S01', 'S01'] }), /--scenarios lists S01 twice/);
  await assert.rejects(
    collectPsi({ ...base, models: ['openai-compatible:llama3.1:8b', 'openai-compatible:llama3.1/8b'], baseUrl: 'http://127.0.0.1:9/v1', outDir: out }),
    /map to the same run-ID token openai-compatible_llama3.1_8b/,
  );
  assert.equal(existsSync(out), false);
  const r = cli(['psi', 'collect', '--models', 'simulated:sim-tutor-a', '--scenarios', 'S01,S01', '--out', out]);
  assert.equal(r.status, 2);
});

test('--timeout above Node\'s timer limit is refused at parse time', () => {
  const r = cli(['collect', '--domains', 'x', '--models', 'simulated:sim-a', '--out', join(tempDir(), 'o'), '--timeout', '2147484']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--timeout must be a whole number of seconds in \(0, 2147483\] \(Node's timer limit, 2\^31-1 ms\)/);
  const p = cli(['psi', 'collect', '--models', 'simulated:sim-tutor-a', '--out', join(tempDir(), 'o'), '--timeout', '3000000']);
  assert.equal(p.status, 2);
});

test('OS errors are one line naming the path, with the resume command: --out is a file, or under a file', () => {
  const domainsDir = writeTinyDomains();
  const file = join(tempDir(), 'not-a-dir');
  writeFileSync(file, 'x');
  const r = cli(['collect', '--domains', domainsDir, '--models', 'simulated:sim-a', '--conditions', 'P0', '--out', file]);
  assert.equal(r.status, 1, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, new RegExp(`cannot write ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*: (EEXIST|ENOTDIR) .*resume with: kstbench collect`));
  assert.doesNotMatch(r.stderr, /internal error|    at /);
  const under = cli(['collect', '--domains', domainsDir, '--models', 'simulated:sim-a', '--conditions', 'P0', '--out', join(file, 'sub')]);
  assert.equal(under.status, 1);
  assert.match(under.stderr, /ENOTDIR \(a path component is a file/);
});

test('a failure after run.json said running leaves run.json saying failed, with the reason', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  // extracted.jsonl is a non-empty directory: the final atomic rename onto it fails (EISDIR/ENOTEMPTY).
  mkdirSync(join(out, 'extracted.jsonl', 'x'), { recursive: true });
  const p = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  await assert.rejects(collectKst(params(out, domainsDir, { conditions: ['P0'] }), deps({ 'openai:stub': p })), (e: NodeJS.ErrnoException) => isOsError(e));
  const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  assert.equal(run.status, 'failed');
  assert.match(run.result.reason, /extracted\.jsonl/);
  assert.equal(readCompleted(join(out, 'responses.jsonl')).size, 16, 'the answers themselves are kept');
});

test('adaptive concurrency in a run: three 429s take 8 parallel calls down to 1; retry-after is waited', async () => {
  const domainsDir = writeTinyDomains();
  let inFlight = 0;
  let limited = 0;
  const startsAfter: number[] = [];
  const p: Provider = {
    provider: 'openai',
    model: 'stub',
    simulated: false,
    async complete(req) {
      inFlight += 1;
      if (limited >= 3) startsAfter.push(inFlight);
      await new Promise((r) => setTimeout(r, 10));
      inFlight -= 1;
      if (limited < 3) {
        limited += 1;
        throw providerError('rate_limit', 'openai HTTP 429 rate_limit_exceeded', { httpStatus: 429, retryAfterMs: 1500 });
      }
      return okResult(answerPosition1(req));
    },
  };
  const sleeps: number[] = [];
  const r = await collectKst(
    params(tempDir(), domainsDir, { concurrency: 8, noPreflight: true }),
    deps({ 'openai:stub': p }, { clockMs: () => 0, sleep: async (ms: number) => void sleeps.push(ms) }),
  );
  assert.equal(r.status, 'complete');
  assert.deepEqual(sleeps, [1500, 1500, 1500], 'each 429 waits its retry-after');
  // the calls started once the limit was down to 1 found no other call of the model in flight,
  // except those that had started before the third 429 and were still running
  const late = startsAfter.slice(8);
  assert.ok(late.length >= 50 && late.every((n) => n === 1), `in flight at start: ${startsAfter.join(',')}`);
});

test('pendingJobs: cells without a record, plus missing ones only under --retry-missing; valid and invalid ones never; design order kept', () => {
  const jobs = ['a', 'b', 'c', 'd', 'e'].map((runId) => ({ runId }));
  const completed = new Map<string, Record<string, unknown>>([
    ['b', { run_id: 'b', status: 'missing' }],
    ['c', { run_id: 'c', status: 'valid' }],
    ['d', { run_id: 'd', status: 'invalid' }],
  ]);
  assert.deepEqual(pendingJobs(jobs, completed).map((j) => j.runId), ['a', 'e']);
  assert.deepEqual(pendingJobs(jobs, completed, false).map((j) => j.runId), ['a', 'e']);
  assert.deepEqual(pendingJobs(jobs, completed, true).map((j) => j.runId), ['a', 'b', 'e']);
});

test('finalStatus: the first rule that holds decides (stop, breaker, deterministic, all missing, pending, some missing, complete)', () => {
  const none = { stop: null, trips: [], deterministicFailures: new Map(), written: {}, records: [{ status: 'valid' }, { status: 'valid' }], total: 2, cellsOfTrippedModels: 0 };
  const trip = { model: 'openai:m', count: 3, errorClass: 'client_error', message: 'HTTP 404', remedy: 'fix the name' } as never;
  const det = new Map([['r1', { model: 'openai:m', errorClass: 'client_error', message: 'bad', remedy: 'fix it' }]]) as never;
  assert.deepEqual(finalStatus(none), { status: 'complete' });
  assert.deepEqual(finalStatus({ ...none, stop: { status: 'quota_stopped', reason: 'q' }, trips: [trip] }), { status: 'quota_stopped', reason: 'q', remedy: undefined });
  const tripped = finalStatus({ ...none, trips: [trip], deterministicFailures: det, cellsOfTrippedModels: 5 });
  assert.equal(tripped.status, 'failed');
  assert.match(tripped.reason!, /^openai:m: stopped after 3 identical client_error failures \(HTTP 404\); its 5 remaining cell\(s\) keep no record$/);
  assert.equal(tripped.remedy, 'fix the name');
  const deterministic = finalStatus({ ...none, deterministicFailures: det, written: { missing: 2 } });
  assert.deepEqual([deterministic.status, deterministic.remedy], ['failed', 'fix it']);
  assert.match(deterministic.reason!, /^1 cell\(s\) ended without a record after a client_error failure/);
  const allMissing = finalStatus({ ...none, written: { missing: 2, valid: 0 }, records: [{ status: 'missing' }, { status: 'missing' }] });
  assert.deepEqual([allMissing.status, allMissing.reason], ['failed', 'every one of the 2 cells finished by this run is missing (no call succeeded)']);
  assert.deepEqual(finalStatus({ ...none, written: { valid: 1 }, records: [{ status: 'valid' }] }), { status: 'interrupted' });
  const stillAllMissing = finalStatus({ ...none, records: [{ status: 'missing' }, { status: 'missing' }] });
  assert.deepEqual([stillAllMissing.status, stillAllMissing.reason], ['failed', 'every one of the 2 cells is missing (no call has succeeded yet)']);
  const incomplete = finalStatus({ ...none, written: { valid: 1, missing: 1 }, records: [{ status: 'valid' }, { status: 'missing' }] });
  assert.deepEqual([incomplete.status, incomplete.reason], ['incomplete', '1 of 2 cell(s) are missing (no answer within the retry horizon)']);
});

test('a run.json that is not one is refused naming the file and the field (read through lib/io)', async () => {
  const domainsDir = writeTinyDomains();
  const out = tempDir();
  writeFileSync(join(out, 'run.json'), JSON.stringify({ fingerprint: {}, status: 'paused', started_at: null }));
  const stub = stubProvider('openai:stub', (req) => okResult(answerPosition1(req)));
  await assert.rejects(collectKst(params(out, domainsDir), deps({ 'openai:stub': stub })), (e: Error) => e.name === 'InputError' && e.message.startsWith(`${join(out, 'run.json')}: status: `));
  writeFileSync(join(out, 'run.json'), '{"fingerprint": {},\n oops');
  await assert.rejects(collectKst(params(out, domainsDir), deps({ 'openai:stub': stub })), (e: Error) => e.name === 'InputError' && e.message.startsWith(`${join(out, 'run.json')}:2: not valid JSON (`));
  assert.equal(stub.total(), 0, 'nothing was sent');
});

test('missingNotRequested: the recorded `missing` cells a run leaves alone, none with --retry-missing', () => {
  const jobs = [{ runId: 'a' }, { runId: 'b' }, { runId: 'c' }, { runId: 'd' }];
  const completed = new Map<string, Record<string, unknown>>([['a', { status: 'valid' }], ['b', { status: 'missing' }], ['c', { status: 'missing' }]]);
  assert.equal(missingNotRequested(jobs, completed), 2);
  assert.equal(missingNotRequested(jobs, completed, true), 0);
  // Together with pendingJobs every job is counted once: pending, missing left alone, or answered.
  assert.equal(pendingJobs(jobs, completed).length + missingNotRequested(jobs, completed) + 1, jobs.length);
});
