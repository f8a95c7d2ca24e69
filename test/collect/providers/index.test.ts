/** The provider registry (providers/index.ts): createProvider for every provider kind, and the SDKs loaded only when used. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { createProvider, ProviderError, type CompletionRequest } from '../../../lib/collect/providers';
import { InputError } from '../../../lib/errors';
import { loadPsiCourse } from '../../../lib/psi/schema';
import { RUN_TYPESCRIPT } from '../../support/typescript';

const ROOT = join(__dirname, '..', '..', '..');

const request = (over: Partial<CompletionRequest> = {}): CompletionRequest => ({
  runId: 'run-9',
  system: 's',
  user: 'u',
  schemaName: 'answer',
  jsonSchema: { type: 'object' },
  maxOutputTokens: 64,
  timeoutMs: 1000,
  ...over,
});

test('a missing API key is an InputError naming the variable', () => {
  assert.throws(() => createProvider('openai:gpt-x', { env: {} }), (e: unknown) => e instanceof InputError && /OPENAI_API_KEY/.test(e.message));
  assert.throws(() => createProvider('anthropic:claude-x', { env: { OPENAI_API_KEY: 'sk-x-123456' } }), (e: unknown) => e instanceof InputError && /ANTHROPIC_API_KEY/.test(e.message));
  assert.throws(() => createProvider('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: '   ' } }), (e: unknown) => e instanceof InputError && /ANTHROPIC_API_KEY/.test(e.message));
});

test('base URL rules: required for openai-compatible, must be http(s)', () => {
  assert.throws(() => createProvider('openai-compatible:llama3', { env: {} }), (e: unknown) => e instanceof InputError && /--base-url/.test(e.message));
  assert.throws(() => createProvider('openai:gpt-x', { baseUrl: 'not a url', env: { OPENAI_API_KEY: 'k' } }), InputError);
  assert.throws(() => createProvider('openai:gpt-x', { baseUrl: 'ftp://host/v1', env: { OPENAI_API_KEY: 'k' } }), InputError);
  const p = createProvider('openai:gpt-x', { baseUrl: 'http://127.0.0.1:9/v1/', env: { OPENAI_API_KEY: 'k' } });
  assert.deepEqual([p.provider, p.model, p.simulated], ['openai', 'gpt-x', false]);
});

test('simulated: the KST respondent, and a PSI tutor only when given the course it answers from', () => {
  const p = createProvider('simulated:sim-a');
  assert.deepEqual([p.provider, p.model, p.simulated], ['simulated', 'sim-a', true]);
  const course = loadPsiCourse(join(ROOT, 'data/raw/psi'));
  const tutor = createProvider('simulated:sim-tutor-b', { psiCourse: course });
  assert.deepEqual([tutor.provider, tutor.model, tutor.simulated], ['simulated', 'sim-tutor-b', true]);
  assert.throws(
    () => createProvider('simulated:sim-tutor-b'),
    (e: unknown) => e instanceof InputError && /unknown simulated profile .*sim-tutor-\* are the simulated PSI tutors, used by `kstbench psi collect`/.test(e.message),
  );
  assert.throws(() => createProvider('simulated:sim-z'), (e: unknown) => e instanceof InputError && /simulated:sim-z: unknown simulated profile \(available: sim-a, /.test(e.message));
});

test('bad requests are refused before any HTTP request (InputError naming the run)', async () => {
  // Port 9 (discard) is never contacted: validation comes first.
  const p = createProvider('openai:gpt-x', { baseUrl: 'http://127.0.0.1:9/v1', env: { OPENAI_API_KEY: 'k' } });
  for (const bad of [
    request({ schemaName: 'has space' }),
    request({ jsonSchema: { type: 'array' } }),
    request({ maxOutputTokens: 0 }),
    request({ timeoutMs: 1.5 }),
    // above Node's largest timer (2^31 − 1 ms) a setTimeout fires after 1 ms: refused (issue 9 item 2)
    request({ timeoutMs: 2_147_484_000 }),
  ]) {
    await assert.rejects(p.complete(bad), (e: unknown) => e instanceof InputError && e.message.includes('run-9'));
  }
});

/** A localhost port with nothing listening: bound once by us, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('connection refused → connection', async () => {
  const p = createProvider('anthropic:claude-x', { baseUrl: `http://127.0.0.1:${await closedPort()}`, env: { ANTHROPIC_API_KEY: 'sk-ant-planted-1234567' } });
  await assert.rejects(p.complete(request()), (e: unknown) => {
    assert.ok(e instanceof ProviderError, String(e));
    assert.equal(e.errorClass, 'connection');
    assert.equal(e.info.code, 'ECONNREFUSED', 'the system code tells "nothing listens" from a dropped connection');
    assert.match(e.info.remedy!, /start the server or correct the base URL/);
    assert.ok(!e.message.includes('sk-ant-planted-1234567'));
    return true;
  });
});

test('SDKs load lazily: the providers index pulls in neither; an openai provider pulls in only openai', () => {
  const script = `
    const loaded = (part) => Object.keys(require.cache).some((k) => k.includes(part));
    const { createProvider } = require('./lib/collect/providers');
    const before = [loaded('/node_modules/openai/'), loaded('/node_modules/@anthropic-ai/')];
    createProvider('openai:gpt-x', { env: { OPENAI_API_KEY: 'k' } });
    const after = [loaded('/node_modules/openai/'), loaded('/node_modules/@anthropic-ai/')];
    process.stdout.write(JSON.stringify({ before, after }));
  `;
  const run = spawnSync(process.execPath, [...RUN_TYPESCRIPT, '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { before: [false, false], after: [true, false] });
});

test('fake-llm-server-main runs as its own process with a fixed plan and stops on SIGTERM', async () => {
  const plan = JSON.stringify([{ kind: 'rate_limit', retryAfterSeconds: 1 }, { kind: 'json', content: '{"recommended":[7]}' }]);
  const child = spawn(process.execPath, [...RUN_TYPESCRIPT, 'test/support/fake-llm-server-main.ts', '--plan', plan], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`fake server exited early (${code})`)));
    });
    assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    const p = createProvider('openai:gpt-x', { baseUrl: `${baseUrl}/v1`, env: { OPENAI_API_KEY: 'k' } });
    await assert.rejects(p.complete(request()), (e: unknown) => e instanceof ProviderError && e.errorClass === 'rate_limit' && e.info.retryAfterMs === 1000);
    assert.equal((await p.complete(request())).text, '{"recommended":[7]}');
    assert.equal((await p.complete(request())).text, '{"recommended":[7]}', 'the last plan repeats');
  } finally {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  }
});
