/**
 * The built CLI (`npm run build` first) against the in-process fake LLM server: `psi collect` handles
 * SIGINT like `collect` (finishes in-flight calls, exit 130, resumes without repeating a cell), and a
 * model that answers every call with 404 ends the run with exit 4, the error and a fix — not exit 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuTicks } from '../support/cli';
import { startFakeLlmServer } from '../support/fake-llm-server';
import { readLines, tempDir, writeFreeDomain, writeTinyDomains } from './helpers';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'kstbench.js');

function run(args: string[], onStderr?: (text: string, kill: (signal: NodeJS.Signals) => void) => void) {
  assert.ok(existsSync(join(ROOT, 'dist', 'cli', 'commands', 'psi-collect.js')), 'run `npm run build` before this test');
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, OPENAI_COMPATIBLE_API_KEY: 'placeholder-key' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => {
    stderr += String(d);
    onStderr?.(stderr, (s) => child.kill(s));
  });
  return new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr, stdout })));
}

test('psi collect: SIGINT finishes the call in flight, exits 130 with run.json interrupted; the same command resumes', { timeout: 120_000 }, async () => {
  const server = await startFakeLlmServer({ handler: () => ({ kind: 'slow', delayMs: 150, content: JSON.stringify({ answer: 'Print x before the loop to see its value.' }) }) });
  try {
    const out = tempDir();
    const args = ['psi', 'collect', '--models', 'openai-compatible:fake-tutor', '--base-url', server.openaiBaseUrl, '--out', out,
      '--scenarios', 'S01,S02,S03,S04,S05', '--concurrency', '1', '--timeout', '30', '--no-preflight'];
    let sent = false;
    const first = await run(args, (text, kill) => {
      // the non-TTY progress prints a line per 10 % step: interrupt after the first cell is done
      if (!sent && /\] [1-9]\d*\/10 /.test(text)) {
        sent = true;
        kill('SIGINT');
      }
    });
    assert.equal(first.code, 130, first.stderr);
    assert.match(first.stderr, /SIGINT received, finishing in-flight calls/);
    const store = join(out, 'runs', 'round1');
    assert.equal(JSON.parse(readFileSync(join(store, 'run.json'), 'utf8')).status, 'interrupted');
    const done = readLines(join(store, 'responses.jsonl')).length;
    assert.ok(done >= 1 && done < 10, `${done} cells before the stop`);
    const callsBefore = server.calls;
    const second = await run(args);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(server.calls - callsBefore, 10 - done, 'only the cells without a record are requested');
    const ids = readLines(join(store, 'responses.jsonl')).map((r) => r.run_id);
    assert.equal(new Set(ids).size, 10);
    assert.equal(readLines(join(out, 'round1.jsonl')).length, 10);
  } finally {
    await server.close();
  }
});

test('collect: a model answering 404 on every call → exit 4 with the error and a fix after 3 calls; its cells keep no record', { timeout: 120_000 }, async () => {
  const server = await startFakeLlmServer({ handler: () => ({ kind: 'client_error', status: 404, message: 'The model `gone-model` does not exist' }) });
  try {
    const out = tempDir();
    const r = await run(['collect', '--domains', writeTinyDomains(), '--models', 'openai-compatible:gone-model', '--base-url', server.openaiBaseUrl,
      '--out', out, '--concurrency', '1', '--timeout', '30', '--no-preflight']);
    assert.equal(r.code, 4, r.stderr);
    assert.equal(server.calls, 3);
    assert.match(r.stderr, /FAILED: openai-compatible:gone-model: stopped after 3 identical client_error failures/);
    assert.match(r.stderr, /fix: .*check the name against config\/models.json/);
    assert.match(r.stderr, /resume with .*\n  kstbench collect /);
    assert.equal(readFileSync(join(out, 'responses.jsonl'), 'utf8'), '');
    assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).status, 'failed');
  } finally {
    await server.close();
  }
});


/**
 * Starts the CLI, sends SIGINT once it is well into its synchronous work (1.5 s of CPU; start-up takes
 * a fraction of that), and reports the exit code and how long after the signal it came.
 */
async function interruptWhenBusy(args: string[], cwd: string): Promise<{ code: number | null; ms: number; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  while (cpuTicks(child.pid!) < 150) {
    assert.ok(Date.now() < deadline, `the work never started: ${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const sent = Date.now();
  child.kill('SIGINT');
  const code = await exited;
  return { code, ms: Date.now() - sent, stderr };
}

// The largest design under MAX_DESIGN_CELLS (lib/collect/caps.ts): 2^14 states × 4 conditions × 30 orders
// = 1,966,080 cells, about 13 s of synchronous planning. (A design over the cap is refused at once.)
test('collect: SIGINT while planning a huge design (2^14 states × 4 conditions × 30 orders) exits 130 within 2 s and writes nothing', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(join(ROOT, 'dist', 'cli', 'command-worker.js')), 'run `npm run build` before this test');
  const dir = tempDir();
  writeFreeDomain(join(dir, 'domains'), 'wide', 14);
  const out = join(dir, 'out');
  const { code, ms, stderr } = await interruptWhenBusy([BIN, 'collect', '--domains', join(dir, 'domains'), '--models', 'simulated:sim-a', '--out', out, '--orders', '30'], dir);
  assert.equal(code, 130, stderr);
  assert.match(stderr, /kstbench collect: stopped by SIGINT during synchronous work \(no answer within 500 ms\); no temporary file was left; resume with: kstbench collect /);
  assert.ok(ms < 2000, `exited ${ms} ms after SIGINT`);
  assert.equal(existsSync(out), false, 'nothing was written');
  assert.deepEqual(readdirSync(dir).sort(), ['domains']);
});

test('psi collect: a second SIGINT while the call in flight is still running stops at once (exit 130, the resume command printed)', { timeout: 120_000 }, async () => {
  const server = await startFakeLlmServer({ handler: (call) => ({ kind: 'slow', delayMs: call.count === 1 ? 10 : 5000, content: JSON.stringify({ answer: 'Print x before the loop to see its value.' }) }) });
  try {
    const out = tempDir();
    const args = ['psi', 'collect', '--models', 'openai-compatible:fake-tutor', '--base-url', server.openaiBaseUrl, '--out', out,
      '--scenarios', 'S01,S02,S03,S04,S05', '--concurrency', '1', '--timeout', '30', '--no-preflight'];
    let sent = 0;
    let secondAt = 0;
    const r = await run(args, (text, kill) => {
      if (sent === 0 && /\] [1-9]\d*\/10 /.test(text)) {
        sent = 1;
        kill('SIGINT');
      } else if (sent === 1 && /SIGINT received, finishing in-flight calls/.test(text)) {
        sent = 2;
        secondAt = Date.now();
        kill('SIGINT');
      }
    });
    const ms = Date.now() - secondAt;
    assert.equal(sent, 2, r.stderr);
    assert.equal(r.code, 130, r.stderr);
    // A file the command was staging at that instant is removed and counted in the message, so
    // the clause varies with timing; what must hold is that none is left behind.
    assert.match(r.stderr, /kstbench psi collect: second SIGINT, exiting now \((no temporary file was left|removed \d+ temporary files?); resume with: kstbench psi collect --models /);
    assert.deepEqual(readdirSync(out).filter((f) => f.endsWith('.tmp')), [], 'a temporary sibling was left in --out');
    assert.ok(ms < 2500, `exited ${ms} ms after the second SIGINT (the call in flight takes 5 s)`);
  } finally {
    await server.close();
  }
});

test('study plan: SIGINT during its simulation (long synchronous work) exits 130 within 2 s and writes no plan', { timeout: 120_000 }, async () => {
  assert.ok(existsSync(join(ROOT, 'dist', 'cli', 'command-worker.js')), 'run `npm run build` before this test');
  const dir = tempDir();
  // A study of the example fractions domain: the plan simulates, it reads no responses.
  const study = join(dir, 'study');
  const init = spawnSync(process.execPath, [BIN, 'study', 'init', study, '--domains', join(ROOT, 'data', 'examples', 'fractions.json'), '--models', 'simulated:sim-a'], { cwd: dir, encoding: 'utf8' });
  assert.equal(init.status, 0, init.stderr);
  const before = readdirSync(study).sort();
  const { code, ms, stderr } = await interruptWhenBusy([BIN, 'study', 'plan', study, '--rates', 'P0=0.3,P1=0.35,P2=0.8,P3=0.95', '--studies', '100000', '--no-figure'], dir);
  assert.equal(code, 130, stderr);
  assert.ok(ms < 2000, `exited ${ms} ms after SIGINT`);
  assert.deepEqual(readdirSync(study).sort(), before, 'the plan wrote nothing');
});
