/**
 * `kstbench collect --batch` through the built CLI (`npm run build` first) against the in-process fake
 * server: a complete run with the shipped price table's batch discount, a SIGKILL while the batches
 * run at the provider followed by a resume that polls them (nothing submitted twice), usage errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPriceTable } from '../../lib/collect/prices';
import { kstbench } from '../support/cli';
import { answerSchemaOf, startFakeLlmServer, type FakeCall, type FakeLlmServer } from '../support/fake-llm-server';
import { answerPosition1, readLines, tempDir, writeTinyDomains } from './helpers';

const ROOT = join(__dirname, '..', '..');
const KEY = 'sk-planted-CLIBATCH-0123456789abcdef';
const MODELS = ['openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku-latest'];
const CELLS = 2 * 8 * 2; // 2 models × 8 states × P0 × 2 orders

function builtCli(): string {
  assert.ok(existsSync(join(ROOT, 'dist', 'lib', 'collect', 'batch-mode.js')), 'run `npm run build` before this test');
  return join(ROOT, 'bin', 'kstbench.js');
}

function answer(call: FakeCall) {
  const { name, schema } = answerSchemaOf(call); // Anthropic's native JSON output carries no schema name
  const schemaName = name ?? (schema.properties?.prerequisites ? 'kst_next_steps_with_graph' : 'kst_next_steps');
  return { kind: 'json' as const, content: answerPosition1({ schemaName }) };
}

function args(domains: string, out: string, server: FakeLlmServer, pollSeconds: string): string[] {
  return [builtCli(), 'collect', '--domains', domains, '--models', MODELS.map((m) => `${m}@${server.baseUrl}`).join(','), '--conditions', 'P0', '--out', out, '--batch', '--no-preflight', '--poll-interval', pollSeconds, '--seed', '9'];
}

function run(argv: string[]) {
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

const batchCreates = (server: FakeLlmServer) =>
  server.requests.filter((r) => r.method === 'POST' && (/^\/(v1\/)?batches$/.test(r.path) || r.path === '/v1/messages/batches')).length;

function assertNoKey(dir: string): void {
  for (const f of readdirSync(dir)) assert.ok(!readFileSync(join(dir, f), 'utf8').includes(KEY), `${f} contains the planted key`);
}

test('collect --batch: submit, poll, collect; cost at the shipped batch prices; no key in any file', async () => {
  const server = await startFakeLlmServer({ apiKey: KEY, batchPollsBeforeDone: 2, handler: answer });
  const domains = writeTinyDomains();
  const out = tempDir();
  try {
    const r = run(args(domains, out, server, '0.02'));
    const { code } = await r.exited;
    assert.equal(code, 0, r.stderr());
    assert.match(r.stderr(), /batch mode: 2 batch\(es\) submitted by this run; 0 still open/);
    assert.equal(batchCreates(server), 2);
  } finally {
    await server.close();
  }
  const responses = readLines(join(out, 'responses.jsonl'));
  assert.equal(responses.length, CELLS);
  assert.ok(responses.every((x) => x.status === 'valid' && typeof x.batch_id === 'string'));
  // cost: reported usage × the shipped prices (config/models.json) × (1 − batch_discount)
  const prices = loadPriceTable(join(ROOT, 'config', 'models.json'));
  let expected = 0;
  for (const x of responses) {
    const p = prices.models[x.model]!;
    assert.ok(p.batch_discount !== undefined && p.batch_discount > 0, `${x.model} has a batch discount`);
    const usd = ((x.usage.inputTokens * p.input + x.usage.outputTokens * p.output) / 1e6) * (1 - p.batch_discount);
    assert.ok(Math.abs(x.cost_usd - usd) < 1e-8, `${x.cost_usd} vs ${usd}`);
    expected += usd;
  }
  const runJson = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
  assert.equal(runJson.status, 'complete');
  assert.ok(Math.abs(runJson.result.cost_usd_this_run - expected) < 1e-7);
  assert.equal(readLines(join(out, 'extracted.jsonl')).length, CELLS);
  assertNoKey(out);
});

test('SIGKILL while the batches run: re-running the same command polls the stored batch ids and submits nothing twice', async () => {
  const server = await startFakeLlmServer({ apiKey: KEY, batchPollsBeforeDone: 1, handler: answer });
  const domains = writeTinyDomains();
  const out = tempDir();
  const ledger = join(out, 'batches.jsonl');
  try {
    // A 30 s poll interval: the process submits both batches, polls once, then waits; it is killed there.
    const first = run(args(domains, out, server, '30'));
    const submittedBoth = async () => {
      for (;;) {
        if (existsSync(ledger) && readLines(ledger).filter((l) => l.type === 'submitted').length === 2) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await Promise.race([submittedBoth(), first.exited]);
    first.child.kill('SIGKILL');
    const killed = await first.exited;
    assert.equal(killed.signal, 'SIGKILL', first.stderr());
    assert.equal(batchCreates(server), 2);
    const stored = readLines(ledger).filter((l) => l.type === 'submitted').map((l) => l.batch_id);

    const second = run(args(domains, out, server, '0.02'));
    const { code } = await second.exited;
    assert.equal(code, 0, second.stderr());
    assert.equal(batchCreates(server), 2, 'no batch was submitted again');
    assert.match(second.stderr(), /0 batch\(es\) submitted by this run/);
    const responses = readLines(join(out, 'responses.jsonl'));
    assert.equal(responses.length, CELLS);
    assert.equal(new Set(responses.map((x) => x.run_id)).size, CELLS);
    assert.deepEqual([...new Set(responses.map((x) => x.batch_id))].sort(), [...stored].sort());
    const events = readLines(join(out, 'attempts.jsonl')).filter((a) => a.type === 'event');
    assert.ok(events.some((e) => e.event === 'previous_run_ended_without_status'));
    assertNoKey(out);
  } finally {
    await server.close();
  }
});

test('usage errors: --batch with a simulated model, --poll-interval without --batch or not a positive number', () => {
  const domains = writeTinyDomains();
  const out = tempDir();
  const simulated = kstbench(['collect', '--domains', domains, '--models', 'simulated:sim-a', '--out', out, '--batch']);
  assert.equal(simulated.code, 2, simulated.stderr);
  assert.match(simulated.stderr, /simulated:sim-a: --batch works with openai: and anthropic: models only \(provider batch APIs\)/);
  const noBatch = kstbench(['collect', '--domains', domains, '--models', 'openai:gpt-4o', '--out', out, '--poll-interval', '5']);
  assert.equal(noBatch.code, 2);
  assert.match(noBatch.stderr, /--poll-interval only applies with --batch/);
  const zero = kstbench(['collect', '--domains', domains, '--models', 'openai:gpt-4o', '--out', out, '--batch', '--poll-interval', '0']);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--poll-interval must be a number of seconds in \(0, 2147483\] \(Node's timer limit, 2\^31-1 ms\) \(e\.g\. --poll-interval 30\), got "0"/);
  const help = kstbench(['collect', '--help']);
  assert.equal(help.code, 0);
  for (const option of ['--batch', '--poll-interval S', '--states FILE', '--retry-missing']) assert.ok(help.stdout.includes(option), option);
  const dry = kstbench(['collect', '--domains', domains, '--models', 'openai:gpt-4o-mini', '--out', join(out, 'none'), '--batch', '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /batch prices: batch_discount from the price table applied/);
});
