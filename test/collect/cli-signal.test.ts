/**
 * The built CLI (`npm run build` first) against the in-process fake LLM server: `psi collect` handles
 * SIGINT like `collect` (finishes in-flight calls, exit 130, resumes without repeating a cell), and a
 * model that answers every call with 404 ends the run with exit 4, the error and a fix — not exit 0.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeLlmServer } from '../support/fake-llm-server';
import { readLines, tempDir, writeTinyDomains } from './helpers';

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
