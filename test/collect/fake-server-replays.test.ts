/**
 * The first paid run, replayed against the fake OpenAI + Anthropic server on 127.0.0.1 through the
 * official SDKs (issue 18, issue 21 §6). Each test names the page or SDK file that documents the
 * behaviour it replays; what was checked only against documentation (no real API call) is exactly
 * that list.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectKst, dryRunKst, type CollectDeps, type CollectParams, type NoteKind } from '../../lib/collect/collect';
import { noteLine } from '../../cli/commands/collect';
import { collectPsi } from '../../lib/collect/psi-study';
import { storePaths } from '../../lib/collect/store';
import { createProvider } from '../../lib/collect/providers';
import { ProviderError } from '../../lib/provider/contract';
import { InputError } from '../../lib/errors';
import { startFakeLlmServer, type FakeHandler, type FakeLlmServer, type FakePlan } from '../support/fake-llm-server';
import { answerPosition1, readLines, tempDir, writeTinyDomains } from './helpers';
import { AZURE_PROMPT_CONTENT_FILTER_400 } from '../support/provider-errors';

const ROOT = join(__dirname, '..', '..');
const KEY = 'sk-planted-REPLAY-0123456789abcdef';
const env = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };
const MODELS = { openai: 'openai:gpt-test', anthropic: 'anthropic:claude-test' } as const;
const APIS = Object.keys(MODELS) as Array<keyof typeof MODELS>;
const ANSWER = answerPosition1({ schemaName: 'next_steps' });
const CELLS = 8; // tiny domains: 8 states × P0 × 1 order
const ok: FakePlan = { kind: 'json', content: ANSWER };

/** `plans` for this script's first calls (counted from when it is set), then `then`. */
function sequence(plans: FakePlan[], then: FakePlan): FakeHandler {
  let n = 0;
  return () => plans[n++] ?? then;
}

let server: FakeLlmServer;
let domainsDir: string;
before(async () => {
  server = await startFakeLlmServer({ apiKey: KEY, batchPollsBeforeDone: 0 });
  domainsDir = writeTinyDomains();
});
after(async () => {
  await server.close();
});

function params(out: string, model: string, extra: Partial<CollectParams> = {}): CollectParams {
  return {
    domainsDir,
    models: [`${model}@${server.baseUrl}${model.startsWith('openai') ? '/v1' : ''}`],
    outDir: out,
    conditions: ['P0'],
    orders: 1,
    concurrency: 2,
    maxOutputTokens: 512,
    timeoutMs: 5_000,
    maxRetries: 3,
    seed: '7',
    pollIntervalMs: 1,
    ...extra,
  };
}
const deps = (extra: Partial<CollectDeps> = {}): CollectDeps => ({ env, retryBaseDelayMs: 1, sleep: async () => {}, ...extra });
const attemptsOf = (out: string) => readLines(join(out, 'attempts.jsonl')).filter((l) => l.type === 'attempt');
const recordsOf = (out: string) => readLines(join(out, 'responses.jsonl'));

describe('finish reasons are outcomes: every answer cut off gives 0 scored records', () => {
  // OpenAI finish_reason "length" (node_modules/openai/resources/chat/completions/completions.d.ts
  // ChatCompletion.Choice.finish_reason); Anthropic stop_reason "max_tokens"
  // (node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts StopReason).
  const cut: FakePlan = { kind: 'truncated', content: ANSWER };
  for (const api of APIS) {
    test(`${api} live: the pre-flight cell is retried once with twice the allowance, then the run stops before any other cell`, async () => {
      server.script(() => cut);
      const before = server.calls;
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api]), deps());
      assert.equal(r.status, 'failed');
      assert.match(r.reason!, /pre-flight: the answer was cut off/);
      assert.equal(server.calls - before, 2, 'one cell, two attempts, nothing else sent');
      const lines = attemptsOf(out);
      assert.deepEqual(lines.map((l) => [l.preflight, l.decision, l.max_output_tokens ?? null, l.next_max_output_tokens ?? null]), [
        [true, 'retry_larger_allowance', null, 1024],
        [true, 'preflight_stop', 1024, null],
      ]);
      assert.equal(recordsOf(out).filter((x) => x.status === 'valid').length, 0);
    });

    test(`${api} live --no-preflight: each cell retried once with a larger allowance, then recorded invalid "truncated", none valid`, async () => {
      server.script(() => cut);
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api], { noPreflight: true }), deps());
      assert.equal(r.status, 'complete');
      const records = recordsOf(out);
      assert.equal(records.length, CELLS);
      assert.ok(records.every((x) => x.status === 'invalid' && x.reason === 'truncated' && x.max_output_tokens_used === 1024 && x.recommended === null));
    });

    test(`${api} batch: the pre-flight goes live before any batch, so a cut-off answer submits nothing`, async () => {
      server.script(() => cut);
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api], { batch: true }), deps({ createProvider: (spec, o) => createProvider(spec, { ...o, env }) }));
      assert.equal(r.status, 'failed');
      assert.deepEqual(r.batch?.submitted, [], 'no batch paid for');
      assert.equal(attemptsOf(out).filter((l) => l.preflight === true).length, 2);
    });

    test(`${api} batch --no-preflight: every item cut off is an invalid record, none valid`, async () => {
      server.script(() => cut);
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api], { batch: true, noPreflight: true }), deps());
      assert.equal(r.status, 'complete');
      const records = recordsOf(out);
      assert.equal(records.length, CELLS);
      assert.ok(records.every((x) => x.status === 'invalid' && x.reason === 'truncated'));
    });
  }

  test('PSI live and batch, OpenAI and Anthropic: cut-off, refused and filtered answers are invalid with their reason, never scored', async () => {
    const courseDir = join(__dirname, '..', '..', 'data', 'raw', 'psi');
    const psiParams = (out: string, model: string, extra = {}) => ({
      courseDir,
      models: [`${model}@${server.baseUrl}${model.startsWith('openai') ? '/v1' : ''}`],
      outDir: out,
      round: 1 as const,
      scenarios: ['S01'],
      seed: '1',
      concurrency: 1,
      maxOutputTokens: 4000,
      timeoutMs: 5_000,
      noPreflight: true,
      pollIntervalMs: 1,
      retryBaseDelayMs: 1,
      sleep: async () => {},
      ...extra,
    });
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      for (const api of APIS) {
        for (const batch of [false, true]) {
          server.script(() => ({ kind: 'truncated', content: '{"answer": "Good question! Let us look at how the CPU' }));
          const out = tempDir();
          const r = await collectPsi(psiParams(out, MODELS[api], { batch }));
          assert.equal(r.status, 'complete', `${api} batch=${batch}`);
          const records = readLines(join(out, 'round1.jsonl'));
          assert.equal(records.length, 2);
          assert.ok(records.every((x) => x.status === 'invalid' && x.reason === 'truncated' && x.scores === undefined), JSON.stringify(records[0]));
        }
        server.script(() => ({ kind: 'refusal' }));
        const out = tempDir();
        await collectPsi(psiParams(out, MODELS[api]));
        assert.ok(readLines(join(out, 'round1.jsonl')).every((x) => x.status === 'invalid' && x.reason === 'refusal' && x.scores === undefined));
        // A real model's text that is not the {"answer"} object is unreadable, not prose to score.
        server.script(() => ({ kind: 'malformed', content: 'Good question! The CPU runs your program.' }));
        const prose = tempDir();
        await collectPsi(psiParams(prose, MODELS[api]));
        assert.ok(readLines(join(prose, 'round1.jsonl')).every((x) => x.status === 'invalid' && x.reason === 'malformed_json'));
      }
    } finally {
      for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k];
    }
  });
});

describe('a prompt the content filter blocks (HTTP 400 content_filter) is an outcome of its cell', () => {
  // lib/provider/outcome.ts: a content filter is recorded invalid with reason content_filter, never
  // scored; a 400 with code content_filter (Azure OpenAI, see provider-errors.ts) is that filter
  // refusing the prompt, not a bad request of the model: held, three of them opened the breaker and
  // failed the run, and the next run asked again.
  test('openai-compatible: three filtered prompts are three invalid content_filter records, the run completes', async () => {
    server.script(sequence([AZURE_PROMPT_CONTENT_FILTER_400, AZURE_PROMPT_CONTENT_FILTER_400, AZURE_PROMPT_CONTENT_FILTER_400], ok));
    const out = tempDir();
    const r = await collectKst(params(out, 'openai:gpt-test', { noPreflight: true, concurrency: 1 }), deps());
    assert.equal(r.status, 'complete', r.reason);
    assert.equal(r.breakerTrips, undefined);
    const records = recordsOf(out);
    assert.equal(records.length, CELLS);
    const filtered = records.filter((x) => x.reason === 'content_filter');
    assert.equal(filtered.length, 3);
    assert.ok(filtered.every((x) => x.status === 'invalid' && x.recommended === null), JSON.stringify(filtered[0]));
    assert.equal(attemptsOf(out).length, CELLS, 'one attempt per cell: a filtered prompt is not retried');
  });

  test('a filtered prompt is billed at an unknown amount, and its attempt says so (review3 M4)', async () => {
    // Azure OpenAI bills a prompt its filter refuses with a 400 (lib/collect/prices.ts noUsageNote cites
    // the page), but the body reports no usage: the cost is unknown, not $0, and not "no usage reported".
    server.script(sequence([AZURE_PROMPT_CONTENT_FILTER_400], ok));
    const out = tempDir();
    const r = await collectKst(params(out, 'openai:gpt-5-mini', { noPreflight: true, concurrency: 1 }), deps());
    assert.equal(r.status, 'complete', r.reason);
    const [filtered, ...answered] = attemptsOf(out);
    assert.equal(filtered.http_status, 400);
    assert.equal(filtered.billed_estimate?.usd, null);
    assert.equal(filtered.billed_estimate?.basis, 'unknown');
    assert.match(filtered.billed_estimate?.note ?? '', /^prompt refused by the content filter \(HTTP 400\): billed .*amount is unknown$/);
    assert.ok(answered.every((l) => l.billed_estimate?.basis === 'reported_usage' && l.billed_estimate.usd > 0), JSON.stringify(answered[0]?.billed_estimate));
    assert.equal(r.costUsd, null, 'one billed attempt of unknown amount: the run total is unknown');
  });
});

test('a gateway that moved /v1 to /v2 (a same-origin 308) is followed; the run notes it once, naming the model (review4 L5)', async () => {
  const { createServer } = await import('node:http');
  // In front of the fake server: /v1/… answers 308 to /v2/…, which is passed on to the fake server's /v1/….
  const gateway = createServer((req, res) => {
    if (req.url!.startsWith('/v1/')) {
      res.writeHead(308, { location: req.url!.replace('/v1/', '/v2/') });
      return void res.end();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<string, string>;
      const answer = await fetch(`${server.baseUrl}${req.url!.replace('/v2/', '/v1/')}`, { method: req.method, headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const at = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
  try {
    server.script(() => ok);
    const out = tempDir();
    const notes: Array<[string, string, NoteKind]> = [];
    const r = await collectKst({ ...params(out, MODELS.openai), models: [`${MODELS.openai}@${at}/v1`] }, deps({ onNote: (model, note, kind) => notes.push([model, note, kind]) }));
    assert.equal(r.status, 'complete', r.reason);
    assert.equal(recordsOf(out).filter((x) => x.status === 'valid').length, CELLS);
    const moved = notes.filter(([, note]) => /redirected/.test(note));
    const note = `calls to ${at}/v1/chat/completions are redirected (same origin, followed) to ${at}/v2/chat/completions: each call makes two round trips until the base URL names the new address`;
    // Heard during a call (the pre-flight's or a later one), so a mid-run note, not a pre-flight one.
    assert.deepEqual(moved, [[MODELS.openai, note, 'call']]);
    assert.equal(noteLine('collect', ...moved[0]!), `kstbench collect: mid-run ${MODELS.openai}: ${note}\n`);
    // The model's settings, said before its first call, are its setup.
    assert.ok(notes.some(([model, , kind]) => model === MODELS.openai && kind === 'setup'), JSON.stringify(notes));
    // psi collect wires the same sink into its providers (lib/collect/psi-study.ts): its note is a mid-run call note too.
    const psiNotes: Array<[string, string, NoteKind]> = [];
    const saved = process.env['OPENAI_API_KEY'];
    process.env['OPENAI_API_KEY'] = KEY;
    try {
      const courseDir = join(ROOT, 'data', 'raw', 'psi');
      const psiOut = tempDir();
      const psi = { courseDir, models: [`${MODELS.openai}@${at}/v1`], outDir: psiOut, round: 1 as const, scenarios: ['S01'], seed: '1', concurrency: 1, maxOutputTokens: 4000, timeoutMs: 5_000, noPreflight: true, retryBaseDelayMs: 1, sleep: async () => {} };
      await collectPsi({ ...psi, onNote: (model, n, kind) => void psiNotes.push([model, n, kind]) });
      assert.deepEqual(psiNotes.filter(([, n]) => /redirected/.test(n)), [[MODELS.openai, note, 'call']]);
    } finally {
      if (saved === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = saved;
    }
  } finally {
    await new Promise<void>((resolve) => gateway.close(() => resolve()));
  }
});

describe('transport faults are transient', () => {
  for (const api of APIS) {
    test(`${api}: a body cut after its headers (undici "TypeError: terminated") is retried and the run completes with 0 missing`, async () => {
      // undici rejects response.json() with TypeError: terminated inside node_modules/openai/internal/parse.js
      // (and @anthropic-ai/sdk/internal/parse.js), after the SDK's own connection handling.
      server.script(sequence([{ kind: 'cut', content: ANSWER }, { kind: 'cut', content: ANSWER }], ok));
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api]), deps());
      assert.equal(r.status, 'complete');
      assert.equal(recordsOf(out).filter((x) => x.status === 'missing').length, 0);
      const faults = attemptsOf(out).filter((l) => l.outcome === 'error');
      assert.equal(faults.length, 2);
      assert.ok(faults.every((l) => l.error_class === 'connection' && l.decision === 'retry'), JSON.stringify(faults[0]));
      assert.equal(r.transportFaults, 2, 'counted apart from deterministic failures');
    });

    test(`${api}: a body cut after a 200 keeps its status and request id and is charged as billed; a reset before the headers is not`, async () => {
      // A non-streamed answer is sent once generated, so the 200 was billed though its body never
      // arrived; the header the request id comes from: x-request-id (OpenAI), request-id (Anthropic).
      const known = api === 'openai' ? 'openai:gpt-5-mini' : 'anthropic:claude-haiku-4-5';
      server.script(sequence([{ kind: 'cut', content: ANSWER }, { kind: 'reset' }], ok));
      const first = server.requests.length + 1;
      const out = tempDir();
      const r = await collectKst(params(out, known), deps());
      assert.equal(r.status, 'complete');
      const [cut, reset] = attemptsOf(out).filter((l) => l.outcome === 'error');
      assert.equal(cut.http_status, 200);
      assert.equal(cut.request_id, `req_fake_${first}`);
      assert.match(cut.message, /after HTTP 200, the body cut off/);
      assert.equal(cut.billed_estimate?.basis, 'assumed_cut_off_charge');
      assert.ok(cut.billed_estimate.usd > 0, JSON.stringify(cut.billed_estimate));
      assert.equal(reset.http_status, null);
      assert.equal(reset.billed_estimate, null, 'nothing came back: no charge assumed');
      const answered = attemptsOf(out).filter((l) => l.outcome !== 'error').reduce((sum, l) => sum + (l.billed_estimate?.usd ?? 0), 0);
      assert.ok(r.costUsd! > answered, `run cost ${r.costUsd} includes the cut answer's charge (answers alone ${answered})`);
    });

    test(`${api}: a cell whose every attempt is cut after a 200 ends missing, not held as never connected (the server answered; review3 L3)`, async () => {
      server.script(() => ({ kind: 'cut', content: ANSWER }));
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api], { noPreflight: true, concurrency: 1, maxRetries: 1 }), deps());
      const records = recordsOf(out);
      assert.equal(records.length, CELLS, r.reason);
      assert.ok(records.every((x) => x.status === 'missing'), JSON.stringify(records[0]));
      assert.doesNotMatch(r.reason ?? '', /never (reached|connected)/);
    });

    test(`${api}: every body cut after a 200 at the pre-flight stops the run there: 4 charged calls, not the whole design (review4 H1)`, async () => {
      const known = api === 'openai' ? 'openai:gpt-5-mini' : 'anthropic:claude-haiku-4-5';
      server.script(() => ({ kind: 'cut', content: ANSWER }));
      const before = server.calls;
      const out = tempDir();
      const r = await collectKst(params(out, known), deps());
      assert.equal(r.status, 'failed');
      assert.match(r.reason!, /: pre-flight: connection: retries exhausted after 4 attempts; the server answered but the body was cut off after its headers: .*after HTTP 200, the body cut off/);
      assert.equal(server.calls - before, 4, 'the pre-flight cell (maxRetries 3: 4 attempts), nothing else sent');
      const lines = attemptsOf(out);
      assert.deepEqual(lines.map((l) => [l.preflight, l.decision]), [[true, 'retry'], [true, 'retry'], [true, 'retry'], [true, 'preflight_stop']]);
      const charged = lines.map((l) => l.billed_estimate?.usd ?? 0);
      assert.ok(lines.every((l) => l.billed_estimate?.basis === 'assumed_cut_off_charge'), JSON.stringify(lines[0]));
      assert.ok(Math.abs(r.costUsd! - charged.reduce((a, b) => a + b, 0)) < 1e-9 && r.costUsd! > 0, `run cost ${r.costUsd} is the 4 cut attempts' charge`);
    });

    test(`${api}: after a pre-flight that answered, one cell whose every attempt is cut after a 200 ends missing and is charged; the others complete`, async () => {
      const known = api === 'openai' ? 'openai:gpt-5-mini' : 'anthropic:claude-haiku-4-5';
      const cut: FakePlan = { kind: 'cut', content: ANSWER };
      // concurrency 1: call 1 is the pre-flight, calls 2-5 the next cell's 4 attempts.
      server.script(sequence([ok, cut, cut, cut, cut], ok));
      const before = server.calls;
      const out = tempDir();
      const r = await collectKst(params(out, known, { concurrency: 1 }), deps());
      assert.equal(r.status, 'incomplete', r.reason);
      assert.match(r.reason!, /^1 of 8 cell\(s\) are missing/);
      assert.equal(server.calls - before, CELLS + 3, '7 cells answered once, the cut cell tried 4 times');
      const records = recordsOf(out);
      assert.deepEqual([records.filter((x) => x.status === 'missing').length, records.filter((x) => x.status === 'valid').length], [1, CELLS - 1]);
      const cuts = attemptsOf(out).filter((l) => l.outcome === 'error');
      assert.deepEqual(cuts.map((l) => l.decision), ['retry', 'retry', 'retry', 'give_up']);
      assert.ok(cuts.every((l) => l.preflight !== true && l.billed_estimate?.basis === 'assumed_cut_off_charge' && l.billed_estimate.usd > 0), JSON.stringify(cuts[0]));
      const answered = attemptsOf(out).filter((l) => l.outcome !== 'error').reduce((sum, l) => sum + (l.billed_estimate?.usd ?? 0), 0);
      assert.ok(r.costUsd! > answered, `run cost ${r.costUsd} includes the cut attempts' charge (answers alone ${answered})`);
    });

    test(`${api}: three dropped connections at the start still complete (no breaker for transport faults)`, async () => {
      // Both SDKs retry connection errors themselves (openai/client.js, @anthropic-ai/sdk/client.js
      // retryRequest on APIConnectionError); the collector, which owns retries, does the same.
      server.script(sequence([{ kind: 'reset' }, { kind: 'reset' }, { kind: 'reset' }], ok));
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api]), deps());
      assert.equal(r.status, 'complete');
      assert.equal(r.breakerTrips, undefined);
      assert.equal(recordsOf(out).filter((x) => x.status === 'valid').length, CELLS);
    });
  }
});

describe('a streamed Anthropic answer cut mid-stream (review3 L4)', () => {
  // Above the SDK's non-streaming limit (max_tokens > 21,333) the request streams; a cut after the
  // event-stream headers reaches us as AnthropicError('terminated') with the BodyCutOff as its cause
  // (@anthropic-ai/sdk/lib/MessageStream.js). After message_start the server was generating: charged as
  // a non-streamed cut is; before any event it never said it started: not charged, as a timeout then.
  const streamed = (extra: Partial<CollectParams> = {}) => params(tempDir(), 'anthropic:claude-haiku-4-5', { maxOutputTokens: 30_000, noPreflight: true, concurrency: 1, ...extra });
  test('cut after message_start: a connection failure with its 200 and request id, charged, retried', async () => {
    server.script(sequence([{ kind: 'cut', content: ANSWER }], ok));
    const first = server.requests.length + 1;
    const p = streamed();
    const r = await collectKst(p, deps());
    assert.equal(r.status, 'complete', r.reason);
    assert.equal(server.requests[first - 1]?.body && (server.requests[first - 1]!.body as { stream?: boolean }).stream, true, 'the request streamed');
    const [cut] = attemptsOf(p.outDir).filter((l) => l.outcome === 'error');
    assert.equal(cut.error_class, 'connection', cut.message);
    assert.equal(cut.http_status, 200);
    assert.equal(cut.request_id, `req_fake_${first}`);
    assert.equal(cut.decision, 'retry');
    assert.equal(cut.billed_estimate?.basis, 'assumed_cut_off_charge');
    assert.ok(cut.billed_estimate.usd > 0, JSON.stringify(cut.billed_estimate));
  });
  test('cut before the first event: a connection failure, not charged', async () => {
    server.script(sequence([{ kind: 'cut', content: ANSWER, beforeFirstEvent: true }], ok));
    const p = streamed();
    const r = await collectKst(p, deps());
    assert.equal(r.status, 'complete', r.reason);
    const [cut] = attemptsOf(p.outDir).filter((l) => l.outcome === 'error');
    assert.equal(cut.error_class, 'connection', cut.message);
    assert.equal(cut.http_status, 200);
    assert.equal(cut.billed_estimate, null);
  });
});

describe('the SDK variables kstbench ignores are named once before the run (review3 L9)', () => {
  // providers/sdk-env.ts keeps OPENAI_CUSTOM_HEADERS / ANTHROPIC_CUSTOM_HEADERS from the SDKs (they could
  // replace the key); a gateway that needs them then refuses the calls, and the note says why.
  test('OPENAI_CUSTOM_HEADERS set, two OpenAI models: one note naming it; ANTHROPIC_CUSTOM_HEADERS, with no Anthropic model, none', async () => {
    server.script(() => ok);
    const notes: Array<[string, string]> = [];
    const out = tempDir();
    const models = ['openai:gpt-test', 'openai:gpt-test-2'].map((m) => `${m}@${server.baseUrl}/v1`);
    const withHeaders = { ...env, OPENAI_CUSTOM_HEADERS: 'X-Gateway-Token: gw-1', ANTHROPIC_CUSTOM_HEADERS: 'X-Gateway-Token: gw-2' };
    const r = await collectKst(params(out, MODELS.openai, { models, noPreflight: true }), deps({ env: withHeaders, onNote: (m, n) => void notes.push([m, n]) }));
    assert.equal(r.status, 'complete', r.reason);
    const named = notes.filter(([, n]) => /CUSTOM_HEADERS/.test(n));
    assert.equal(named.length, 1, JSON.stringify(named));
    assert.equal(named[0]![0], 'environment');
    assert.match(named[0]![1], /^OPENAI_CUSTOM_HEADERS is set and is not sent: .*could replace the API key.*auth error/);
    assert.ok(!named[0]![1].includes('gw-1'), 'the value is never shown');
    const plain: Array<[string, string]> = [];
    await collectKst(params(tempDir(), MODELS.openai, { noPreflight: true }), deps({ onNote: (m, n) => void plain.push([m, n]) }));
    assert.equal(plain.filter(([, n]) => /CUSTOM_HEADERS/.test(n)).length, 0, 'nothing said when the variables are unset');
  });
});

describe('x-should-retry wins, both ways', () => {
  // node_modules/@anthropic-ai/sdk/client.js shouldRetry (x-should-retry true/false before the status
  // rules); node_modules/openai/client.js shouldRetry, the same.
  const conflict = (api: string): FakePlan => ({
    kind: 'error',
    status: 409,
    headers: { 'x-should-retry': 'true' },
    body: api === 'openai' ? { error: { message: 'conflict', type: 'invalid_request_error', code: null } } : { type: 'error', error: { type: 'invalid_request_error', message: 'conflict' } },
  });
  for (const api of APIS) {
    test(`${api}: a 409 (and a 400) with x-should-retry: true is retried`, async () => {
      server.script(sequence([conflict(api), { ...conflict(api), status: 400 } as FakePlan], ok));
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api]), deps());
      assert.equal(r.status, 'complete');
      assert.deepEqual(attemptsOf(out).slice(0, 3).map((l) => l.decision ?? 'answered'), ['retry', 'retry', 'answered']);
    });

    test(`${api}: a 409 with no x-should-retry is retried too (a lock timeout: both SDKs' shouldRetry retry 409), not held as deterministic`, async () => {
      const plain = { ...conflict(api), headers: {} } as FakePlan;
      server.script(sequence([plain, plain], ok));
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api]), deps());
      assert.equal(r.status, 'complete', r.reason);
      assert.equal(r.breakerTrips, undefined);
      assert.deepEqual(attemptsOf(out).slice(0, 3).map((l) => l.decision ?? 'answered'), ['retry', 'retry', 'answered']);
      assert.equal(recordsOf(out).filter((x) => x.status === 'valid').length, CELLS);
    });

    test(`${api}: a 409 with x-should-retry: false is not retried and is held like a 400 (no record, asked again next run), not ended missing (review3 M3)`, async () => {
      server.script(sequence([{ ...conflict(api), headers: { 'x-should-retry': 'false' } } as FakePlan], ok));
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api], { noPreflight: true, concurrency: 1 }), deps());
      const held = attemptsOf(out).filter((l) => l.outcome === 'error');
      assert.deepEqual(held.map((l) => [l.http_status, l.decision]), [[409, 'deterministic']]);
      assert.equal(recordsOf(out).filter((x) => x.status === 'missing').length, 0, 'no permanent missing record');
      assert.equal(recordsOf(out).length, CELLS - 1, 'the held cell stays pending');
      assert.match(r.reason ?? '', /requested again on the next run/);
    });

    test(`${api}: a 503 with x-should-retry: false is not retried, ends missing, and the breaker does not count it`, async () => {
      server.script(sequence([], { kind: 'error', status: 503, headers: { 'x-should-retry': 'false' }, body: { error: { message: 'busy', type: 'server_error' } } }));
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api], { noPreflight: true }), deps());
      assert.equal(attemptsOf(out).length, CELLS, 'one attempt per cell');
      assert.equal(r.breakerTrips, undefined);
      assert.equal(recordsOf(out).filter((x) => x.status === 'missing').length, CELLS);
      assert.equal(r.status, 'failed', 'every cell missing');
    });
  }

  test('retry-after is still honoured as the floor of the wait', async () => {
    server.script(sequence([{ kind: 'rate_limit', retryAfterSeconds: 3 }], ok));
    const waits: number[] = [];
    const out = tempDir();
    await collectKst(params(out, MODELS.openai), deps({ sleep: async (ms) => void waits.push(ms) }));
    assert.ok(waits.includes(3000), JSON.stringify(waits));
  });
});

describe('the pre-flight is small, late and recorded', () => {
  test('it appears in attempts.jsonl and in the cost; its answer is the cell\'s record (nothing paid twice)', async () => {
    server.script(() => ({ kind: 'json', content: ANSWER, usage: { input: 1000, output: 100 } }));
    const out = tempDir();
    const before = server.calls;
    const r = await collectKst(params(out, MODELS.openai), deps());
    assert.equal(server.calls - before, CELLS, 'no extra request');
    const lines = attemptsOf(out);
    assert.equal(lines[0].preflight, true);
    assert.equal(lines.filter((l) => l.preflight).length, 1);
    const billed = lines.reduce((s, l) => s + (l.billed_estimate?.usd ?? 0), 0);
    assert.ok(r.costUsd === null || Math.abs(r.costUsd - billed) < 1e-9, 'the run cost includes the pre-flight line');
    assert.equal(recordsOf(out).length, CELLS);
  });

  test('refused resumes and a locked-out collector spend nothing', async () => {
    server.script(() => ok);
    const out = tempDir();
    await collectKst(params(out, MODELS.openai, { conditions: ['P0'] }), deps());
    const calls = server.calls;
    for (const changed of [{ seed: '8' }, { maxOutputTokens: 256 }, { conditions: ['P1'] }]) {
      await assert.rejects(collectKst(params(out, MODELS.openai, changed), deps()), InputError, JSON.stringify(changed));
    }
    assert.equal(server.calls, calls, 'three refused resumes: no request');
    // Another live process holds the lock (a second collector on the same --out).
    const locked = tempDir();
    const holder = spawn(process.execPath, ['-e', `require(${JSON.stringify(join(ROOT, 'dist', 'lib', 'collect', 'store.js'))}).acquireLock(${JSON.stringify(storePaths(locked).lock)}); console.log('locked'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', (d: Buffer) => (d.toString().includes('locked') ? resolve() : undefined));
        holder.on('exit', () => reject(new Error('lock holder exited')));
      });
      await assert.rejects(collectKst(params(locked, MODELS.openai), deps()), /lock|another|running/i);
    } finally {
      holder.kill();
    }
    assert.equal(server.calls, calls, 'locked out: no request');
  });

  test('unknown or Responses-only model, a refused parameter, no server: one request, then failed with the fix; quota at the pre-flight is a quota stop', async () => {
    // validateOpenAI in test/support/fake-llm-server.ts cites the documented 404/400 bodies.
    const strict = await startFakeLlmServer({ apiKey: KEY, models: { 'gpt-4o': { refuseParams: ['reasoning_effort'] }, 'gpt-5-pro': { responsesOnly: true } } });
    try {
      strict.script(() => ok);
      const cases: Array<[string, RegExp]> = [
        ['openai:gpt-unknown', /config\/models\.json/],
        ['openai:gpt-5-pro', /Responses API/],
      ];
      for (const [spec, remedy] of cases) {
        const before = strict.calls;
        const out = tempDir();
        const r = await collectKst({ ...params(out, spec), models: [`${spec}@${strict.openaiBaseUrl}`] }, deps());
        assert.equal(r.status, 'failed', spec);
        assert.match(r.remedy ?? '', remedy, spec);
        assert.ok(strict.requests.length > 0 && strict.calls - before <= 1);
        assert.equal(attemptsOf(out).length, 1);
      }
      const nobody = await collectKst({ ...params(tempDir(), 'openai-compatible:m'), models: ['openai-compatible:m@http://127.0.0.1:9/v1'] }, deps());
      assert.equal(nobody.status, 'failed');
      assert.match(nobody.remedy ?? '', /server/);
      assert.match(nobody.reason ?? '', /pre-flight: connection/);
    } finally {
      await strict.close();
    }
    server.script(() => ({ kind: 'quota' }));
    const out = tempDir();
    const r = await collectKst(params(out, MODELS.anthropic), deps());
    assert.equal(r.status, 'quota_stopped', 'exit 3 in the CLI');
    assert.equal(attemptsOf(out).length, 1);
  });
});

describe('streaming has its own clock', () => {
  // Above 21,333 output tokens the Anthropic SDK refuses a non-streaming request
  // (calculateNonstreamingTimeout, node_modules/@anthropic-ai/sdk/client.js); such requests stream
  // (https://platform.claude.com/docs/en/build-with-claude/streaming).
  test('a slow stream is not cut at --timeout', async () => {
    server.script(() => ({ kind: 'slow_stream', gapMs: 60, content: ANSWER }));
    const out = tempDir();
    const r = await collectKst(params(out, MODELS.anthropic, { maxOutputTokens: 30_000, timeoutMs: 150, conditions: ['P0'], noPreflight: true }), deps());
    assert.equal(r.status, 'complete');
    assert.ok(recordsOf(out).every((x) => x.status === 'valid'));
    assert.equal(attemptsOf(out).filter((l) => l.outcome === 'error').length, 0, 'no attempt was cut');
  });

  test('a stream silent for longer than its idle timeout is a timeout the server said it started (billed)', async () => {
    server.script(() => ({ kind: 'slow_stream', gapMs: 400, content: ANSWER }));
    const provider = createProvider(MODELS.anthropic, { baseUrl: server.baseUrl, env });
    const req = { runId: 'r', system: 's', user: 'u', schemaName: 'next_steps', jsonSchema: { type: 'object' }, maxOutputTokens: 30_000, timeoutMs: 100, streamIdleMs: 150 };
    await assert.rejects(provider.complete(req), (e: unknown) => e instanceof ProviderError && e.errorClass === 'timeout' && e.info.started === true && /no stream event for/.test(e.message));
  });
});

describe('an error event inside a 200 stream', () => {
  // https://platform.claude.com/docs/en/build-with-claude/streaming#error-events: an overloaded_error
  // "would normally correspond to an HTTP 529"; the SDK throws an APIError with no status
  // (node_modules/@anthropic-ai/sdk/core/streaming.js, `sse.event === 'error'`), which read as
  // "unreadable response" before.
  const req = { runId: 'r', system: 's', user: 'u', schemaName: 'next_steps', jsonSchema: { type: 'object' }, maxOutputTokens: 30_000, timeoutMs: 2_000 };
  for (const [errorType, errorClass] of [['overloaded_error', 'server_error'], ['rate_limit_error', 'rate_limit'], ['invalid_request_error', 'client_error']] as const) {
    test(`${errorType} → ${errorClass}, named as the stream's error`, async () => {
      server.script(() => ({ kind: 'stream_error', errorType, message: `it said ${errorType}` }));
      const provider = createProvider(MODELS.anthropic, { baseUrl: server.baseUrl, env });
      const error = await provider.complete(req).then(() => null, (e: unknown) => e);
      assert.ok(error instanceof ProviderError, String(error));
      assert.equal(error.errorClass, errorClass, error.message);
      assert.equal(error.info.code, errorType);
      assert.equal(error.message, `anthropic stream error ${errorType}: it said ${errorType}`);
    });
  }

  test('the collector retries an overloaded stream and completes', async () => {
    server.script(sequence([{ kind: 'stream_error' }], ok));
    const out = tempDir();
    const r = await collectKst(params(out, MODELS.anthropic, { maxOutputTokens: 30_000, noPreflight: true }), deps());
    assert.equal(r.status, 'complete');
    const [failed] = attemptsOf(out).filter((l) => l.outcome === 'error');
    assert.deepEqual([failed.error_class, failed.error_code, failed.decision], ['server_error', 'overloaded_error', 'retry']);
  });
});

describe('a stream the server never started', () => {
  // The SDK's stream emits message_start first (node_modules/@anthropic-ai/sdk/lib/MessageStream.js);
  // with no event at all before the idle timeout, the request never began and is not billed.
  test('headers and then no event: a timeout with started false', async () => {
    server.script(() => ({ kind: 'silent_stream' }));
    const provider = createProvider(MODELS.anthropic, { baseUrl: server.baseUrl, env });
    const req = { runId: 'r', system: 's', user: 'u', schemaName: 'next_steps', jsonSchema: { type: 'object' }, maxOutputTokens: 30_000, timeoutMs: 100, streamIdleMs: 150 };
    await assert.rejects(provider.complete(req), (e: unknown) => e instanceof ProviderError && e.errorClass === 'timeout' && e.info.started === false);
  });
});

describe('collection edges (issue 21 §6)', () => {
  for (const api of APIS) {
    test(`${api}: a 10 MiB answer is an invalid record "response_too_large", read as a stream`, async () => {
      const huge = JSON.stringify({ recommendations: [{ position: 1, justification: 'x'.repeat(10 * 1024 * 1024) }], no_recommendation_reason: null });
      server.script(() => ({ kind: api === 'openai' ? 'chunked' : 'json', content: huge }));
      const out = tempDir();
      const r = await collectKst(params(out, MODELS[api], { conditions: ['P0'], orders: 1 }), deps());
      assert.equal(r.status, 'complete');
      const records = recordsOf(out);
      assert.ok(records.every((x) => x.status === 'invalid' && x.reason === 'response_too_large' && x.raw_text === ''), JSON.stringify(records[0]).slice(0, 300));
    });
  }

  test('an unknown simulated profile and a compatible model without a URL are refused before anything runs, dry runs included', () => {
    const out = join(tempDir(), 'never');
    for (const models of [['simulated:sim-unknown'], ['openai-compatible:llama3']]) {
      assert.throws(() => dryRunKst({ ...params(out, 'x'), models }), (e: unknown) => e instanceof InputError && e.message.includes(models[0]!));
    }
    assert.throws(() => readdirSync(out), /ENOENT/, 'nothing written');
  });

  test('a planted secret named only as a host\'s key variable, echoed in an answer, reaches no file', async () => {
    const SECRET = 'hunter2-planted-host-credential';
    const host = await startFakeLlmServer({ apiKey: SECRET });
    try {
      host.script(() => ({ kind: 'json', content: JSON.stringify({ recommendations: [{ position: 1, justification: `your key is ${SECRET}` }], no_recommendation_reason: null }) }));
      const out = tempDir();
      const r = await collectKst(
        { ...params(out, 'openai-compatible:m'), models: [`openai-compatible:m@${host.openaiBaseUrl}=LAB_GPU_CRED`] },
        deps({ env: { LAB_GPU_CRED: SECRET } }),
      );
      assert.equal(r.status, 'complete');
      assert.equal(host.requests[0]!.headers['authorization'], `Bearer ${SECRET}`, 'the key reached its own host');
      for (const name of readdirSync(out)) {
        const text = readFileSync(join(out, name), 'utf8');
        assert.ok(!text.includes(SECRET), `${name} holds the secret`);
      }
      assert.match(readFileSync(join(out, 'responses.jsonl'), 'utf8'), /\[REDACTED:LAB_GPU_CRED\]/);
    } finally {
      await host.close();
    }
  });
});

test('the dry run warns on retired and Responses-only models (config/models.json, from node_modules/@anthropic-ai/sdk/internal/data/deprecated-models.js)', () => {
  const report = dryRunKst({ ...params(join(tempDir(), 'never'), 'x'), models: ['anthropic:claude-sonnet-4-5', 'openai:gpt-5-pro', 'openai:gpt-4o'] });
  const text = report.warnings.join('\n');
  assert.match(text, /anthropic:claude-sonnet-4-5 (was retired on|retires) 2026-11-30/);
  assert.match(text, /openai:gpt-5-pro is served by the Responses API only/);
  assert.ok(!/openai:gpt-4o\b/.test(text), 'a current Chat Completions model gets no warning');
});
