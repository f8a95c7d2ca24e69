/**
 * End-to-end tests of the built CLI (`npm run build` first) against the in-process fake LLM server:
 * the kill test (SIGKILL at seeded random points, resume each time), a quota stop with exit code 3 and
 * its resume, and a planted API key that must not reach any file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { kstJobs } from '../../lib/collect/kst-study';
import { readCompleted } from '../../lib/collect/store';
import { loadDomainDir } from '../../lib/kst';
import { startFakeLlmServer, type FakeHandler } from '../support/fake-llm-server';
import { answerPosition1, readLines, tempDir, writeFreeDomain, writeTinyDomains } from './helpers';

const ROOT = join(__dirname, '..', '..');
const SECRET = 'sk-test-SECRET123';
const MODEL = 'openai-compatible:fake-model';

function builtCli(): string {
  const bin = join(ROOT, 'bin', 'kstbench.js');
  assert.ok(existsSync(join(ROOT, 'dist', 'cli', 'commands', 'collect.js')), 'run `npm run build` before this test');
  return bin;
}

function cliArgs(domains: string, out: string, baseUrl: string, extra: string[] = []): string[] {
  return [builtCli(), 'collect', '--domains', domains, '--models', MODEL, '--base-url', baseUrl, '--out', out, '--concurrency', '4', '--timeout', '30', '--seed', '5', ...extra];
}

function spawnCli(args: string[]) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, OPENAI_API_KEY: SECRET, OPENAI_COMPATIBLE_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stderr: () => stderr };
}

/**
 * tiny-a (3 components, 5 states) plus a free domain of `free` components. tiny-b is left out: with 2
 * components its two presentation orders may coincide, and then two cells share one prompt text.
 */
function killDomains(free: number): string {
  const dir = writeTinyDomains();
  rmSync(join(dir, 'tiny-b.json'));
  if (free > 0) writeFreeDomain(dir, 'free', free);
  return dir;
}

/** Maps each prompt's user text to its run ID (one model, and no two cells share a prompt here). */
function runIdsByPrompt(domainsDir: string): Map<string, string> {
  const jobs = kstJobs(loadDomainDir(domainsDir), { models: [MODEL], conditions: ['P0', 'P1', 'P2', 'P3'], orders: 2, seed: '5' });
  return new Map(jobs.map((j) => [j.request().user, j.runId]));
}

function assertNoSecret(dir: string): void {
  for (const f of readdirSync(dir)) {
    assert.ok(!readFileSync(join(dir, f), 'utf8').includes(SECRET), `${f} contains the planted API key`);
  }
}

test('kill test: SIGKILL at seeded random points, resume each time; one final record per cell, no cell requested after completion', async (t) => {
  const domains = killDomains(4); // 5 + 16 states
  const byPrompt = runIdsByPrompt(domains);
  const cells = byPrompt.size;
  assert.equal(cells, (5 + 16) * 4 * 2);
  const requests = new Map<string, number>();
  let completed = new Set<string>();
  const violations: string[] = [];
  let notifyRequest: (() => void) | null = null;
  const handler: FakeHandler = ({ body }) => {
    const runId = byPrompt.get(body.messages[1].content);
    if (!runId) return { kind: 'client_error', message: 'unknown prompt' };
    requests.set(runId, (requests.get(runId) ?? 0) + 1);
    if (completed.has(runId)) violations.push(runId);
    notifyRequest?.();
    return { kind: 'slow', delayMs: 40, content: answerPosition1({ schemaName: body.response_format.json_schema.name }) };
  };
  const server = await startFakeLlmServer({ handler });
  const out = tempDir();
  const rng = seedrandom('kill-test-1');
  const kills = 5;
  try {
    for (let k = 0; k < kills; k++) {
      // Kill at a seeded random point: when the run's n-th request arrives (the first is the model's
      // pre-flight), plus up to 40 ms, so calls are in flight and answers half-written. Counted in
      // requests, not in time, the kills land mid-run however fast the machine is (a clock let a fast
      // run finish the design): a run completes at most 26 + 4 cells (40 ms answers, concurrency 4),
      // five runs at most 150 of the 168.
      let seen = 0;
      const stopAt = 3 + Math.floor(rng() * 24);
      const reached = new Promise<void>((resolve) => (notifyRequest = () => { if (++seen === stopAt) resolve(); }));
      const run = spawnCli(cliArgs(domains, out, server.openaiBaseUrl));
      await Promise.race([reached, run.exited]);
      notifyRequest = null;
      await new Promise((r) => setTimeout(r, Math.floor(rng() * 40)));
      run.child.kill('SIGKILL');
      const { signal, code } = await run.exited;
      assert.ok(signal === 'SIGKILL' || code === 0, `run ${k}: ${signal} ${code} ${run.stderr()}`);
      completed = new Set(readCompleted(join(out, 'responses.jsonl'), { tolerateTornTail: true }).keys());
    }
    const before = completed.size;
    const final = spawnCli(cliArgs(domains, out, server.openaiBaseUrl));
    const { code } = await final.exited;
    assert.equal(code, 0, final.stderr());
    assert.ok(before > 0 && before < cells, `kills should land mid-run (had ${before} of ${cells} before the last run)`);
  } finally {
    await server.close();
  }
  // every cell exactly one final record
  const responses = readLines(join(out, 'responses.jsonl'));
  assert.equal(responses.length, cells);
  assert.equal(new Set(responses.map((r) => r.run_id)).size, cells);
  assert.ok(responses.every((r) => r.status === 'valid'));
  // completed cells were never requested again
  assert.deepEqual(violations, []);
  const total = [...requests.values()].reduce((a, b) => a + b, 0);
  t.diagnostic(`${cells} cells, ${kills} kills, ${total} server requests, torn.jsonl ${existsSync(join(out, 'torn.jsonl')) ? 'present' : 'absent'}`);
  // a kill loses at most 2 × concurrency calls: 4 in flight + 4 answered but not yet on disk
  assert.ok(total <= cells + kills * 2 * 4, `${total} requests for ${cells} cells`);
  // attempts.jsonl is whole (every line parses; a torn tail would have been moved to torn.jsonl)
  const attemptsText = readFileSync(join(out, 'attempts.jsonl'), 'utf8');
  assert.ok(attemptsText.endsWith('\n'));
  const attempts = attemptsText.trimEnd().split('\n').map((l) => JSON.parse(l));
  const responded = attempts.filter((a) => a.type === 'attempt' && a.outcome === 'response');
  assert.ok(responded.length >= cells);
  if (existsSync(join(out, 'torn.jsonl'))) readLines(join(out, 'torn.jsonl'));
  assert.equal(readLines(join(out, 'extracted.jsonl')).length, cells);
  assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).status, 'complete');
  assertNoSecret(out);
});

test('quota stop: exit code 3 with the resume command; re-running it completes without repeating cells', async () => {
  const domains = killDomains(0);
  const byPrompt = runIdsByPrompt(domains);
  assert.equal(byPrompt.size, 5 * 4 * 2);
  const seen = new Map<string, number>();
  let quota = true;
  const server = await startFakeLlmServer({
    handler: ({ body, count }) => {
      const runId = byPrompt.get(body.messages[1].content)!;
      seen.set(runId, (seen.get(runId) ?? 0) + 1);
      if (quota && count > 12) return { kind: 'quota' };
      return { kind: 'json', content: answerPosition1({ schemaName: body.response_format.json_schema.name }) };
    },
  });
  const out = tempDir();
  try {
    const first = spawnCli(cliArgs(domains, out, server.openaiBaseUrl));
    const r1 = await first.exited;
    assert.equal(r1.code, 3, first.stderr());
    assert.match(first.stderr(), /QUOTA STOP/);
    assert.match(first.stderr(), /re-running the same command:\n  kstbench collect --domains /);
    assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).status, 'quota_stopped');
    const done1 = new Set(readLines(join(out, 'responses.jsonl')).map((r) => r.run_id));
    assert.ok(done1.size >= 12 - 4 && done1.size <= 12, `${done1.size} completed before the stop`);
    quota = false;
    seen.clear();
    const second = spawnCli(cliArgs(domains, out, server.openaiBaseUrl));
    const r2 = await second.exited;
    assert.equal(r2.code, 0, second.stderr());
    for (const id of done1) assert.equal(seen.get(id), undefined, `${id} requested again`);
    assert.equal(seen.size, byPrompt.size - done1.size);
    assert.equal(readLines(join(out, 'responses.jsonl')).length, byPrompt.size);
    assertNoSecret(out);
  } finally {
    await server.close();
  }
});

test('dry run through the CLI prints the estimate and creates nothing', async () => {
  const domains = writeTinyDomains();
  const out = join(tempDir(), 'absent');
  const run = spawnCli([builtCli(), 'collect', '--domains', domains, '--models', 'openai:gpt-4o-mini', '--out', out, '--dry-run']);
  let stdout = '';
  run.child.stdout.on('data', (d) => (stdout += String(d)));
  const { code } = await run.exited;
  assert.equal(code, 0, run.stderr());
  assert.match(stdout, /Dry run: 64 calls \(64 cells in the design, 0 already complete\)/);
  assert.equal(existsSync(out), false);
});
