/**
 * Both real providers, through their official SDKs, against the fake server: every fault must end
 * in the right error class / finish reason / refusal, with exactly one HTTP request per call
 * (SDK retries off), and the planted API key must never appear in any error or result.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlmServer, type FakeLlmServer, type FakePlan } from '../../support/fake-llm-server';
import { createProvider, ProviderError, type CompletionRequest, type Provider } from '../../../lib/collect/providers';
import { InputError } from '../../../lib/errors';

const KEY = 'sk-planted-SECRET-0123456789abcdef';
const env = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };
const schema = {
  type: 'object',
  properties: { recommended: { type: 'array', items: { type: 'integer' } } },
  required: ['recommended'],
  additionalProperties: false,
};
const request = (over: Partial<CompletionRequest> = {}): CompletionRequest => ({
  runId: 'run-0001',
  system: 'You are a tutor.',
  user: 'Which components should the learner study next?',
  schemaName: 'next_steps',
  jsonSchema: schema,
  maxOutputTokens: 256,
  timeoutMs: 3000,
  ...over,
});

let server: FakeLlmServer;
/** Everything thrown or returned in this file, checked for the key at the end. */
const seen: unknown[] = [];

before(async () => {
  server = await startFakeLlmServer({ apiKey: KEY });
});
after(async () => {
  await server.close();
});

function providers(): Array<[string, Provider]> {
  return [
    ['openai', createProvider('openai:gpt-test', { baseUrl: server.openaiBaseUrl, env })],
    ['anthropic', createProvider('anthropic:claude-test', { baseUrl: server.baseUrl, env })],
  ];
}

/** Runs one call under `plan` and checks that it made exactly one HTTP request. */
async function once(provider: Provider, plan: FakePlan, req = request()) {
  server.script(() => plan);
  const before = server.requests.length;
  const started = Date.now();
  try {
    const result = await provider.complete(req);
    seen.push(result);
    return { result, error: null as unknown, ms: Date.now() - started };
  } catch (error) {
    seen.push(error);
    return { result: null, error, ms: Date.now() - started };
  } finally {
    assert.equal(server.requests.length - before, 1, `${provider.provider} ${plan.kind}: exactly one HTTP request`);
  }
}

function assertProviderError(error: unknown, errorClass: string): ProviderError {
  assert.ok(error instanceof ProviderError, `expected ProviderError, got ${String(error)}`);
  assert.equal(error.errorClass, errorClass, error.message);
  return error;
}

describe('normal answers', () => {
  test('openai: content, finish reason, reported model version, usage, status and request id', async () => {
    const [, openai] = providers()[0]!;
    const { result } = await once(openai, { kind: 'json', content: '{"recommended":[2,5]}', model: 'gpt-test-2025-06-01', usage: { input: 321, output: 12 } });
    assert.deepEqual(result, {
      text: '{"recommended":[2,5]}',
      finishReason: 'stop',
      refusal: null,
      modelVersion: 'gpt-test-2025-06-01',
      usage: { inputTokens: 321, outputTokens: 12 },
      httpStatus: 200,
      requestId: `req_fake_${server.requests.length}`,
    });
    const sent = server.requests.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.headers['authorization'], `Bearer ${KEY}`);
    assert.equal(sent.headers['x-stainless-retry-count'], '0');
    assert.deepEqual(sent.body, {
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are a tutor.' },
        { role: 'user', content: 'Which components should the learner study next?' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'next_steps', schema, strict: true } },
      max_completion_tokens: 256,
    });
  });

  test('anthropic: native JSON-schema output, thinking set explicitly, usage and model version', async () => {
    const [, anthropic] = providers()[1]!;
    const { result } = await once(anthropic, { kind: 'json', content: '{"recommended":[3]}', model: 'claude-test-20250514', usage: { input: 400, output: 20 } });
    assert.deepEqual(result, {
      text: '{"recommended":[3]}',
      finishReason: 'end_turn',
      refusal: null,
      modelVersion: 'claude-test-20250514',
      usage: { inputTokens: 400, outputTokens: 20 },
      httpStatus: 200,
      requestId: `req_fake_${server.requests.length}`,
    });
    const sent = server.requests.at(-1)!;
    assert.equal(sent.path, '/v1/messages');
    assert.deepEqual(sent.body, {
      model: 'claude-test',
      max_tokens: 256,
      system: 'You are a tutor.',
      messages: [{ role: 'user', content: 'Which components should the learner study next?' }],
      thinking: { type: 'disabled' },
      output_config: { format: { type: 'json_schema', schema } },
    });
  });
});

describe('faults, per provider', () => {
  for (const index of [0, 1]) {
    const name = index === 0 ? 'openai' : 'anthropic';
    const get = () => providers()[index]![1];

    test(`${name}: 429 with retry-after → rate_limit with retryAfterMs`, async () => {
      const { error } = await once(get(), { kind: 'rate_limit', retryAfterSeconds: 7 });
      const e = assertProviderError(error, 'rate_limit');
      assert.equal(e.info.httpStatus, 429);
      assert.equal(e.info.retryAfterMs, 7000);
      const { error: error2 } = await once(get(), { kind: 'rate_limit', retryAfterMs: 1250 });
      assert.equal(assertProviderError(error2, 'rate_limit').info.retryAfterMs, 1250);
    });

    test(`${name}: 429 quota exhaustion → quota`, async () => {
      const { error } = await once(get(), { kind: 'quota' });
      assert.equal(assertProviderError(error, 'quota').info.httpStatus, 429);
    });

    for (const status of [500, 503, 529]) {
      test(`${name}: HTTP ${status} → server_error`, async () => {
        const { error } = await once(get(), { kind: 'server_error', status });
        assert.equal(assertProviderError(error, 'server_error').info.httpStatus, status);
      });
    }

    test(`${name}: 401 → auth; 400 → client_error`, async () => {
      assert.equal(assertProviderError((await once(get(), { kind: 'auth' })).error, 'auth').info.httpStatus, 401);
      assert.equal(assertProviderError((await once(get(), { kind: 'client_error', message: 'bad' })).error, 'client_error').info.httpStatus, 400);
    });

    test(`${name}: connection reset → connection`, async () => {
      assertProviderError((await once(get(), { kind: 'reset' })).error, 'connection');
    });

    test(`${name}: no headers before the timeout → timeout, without waiting for the server`, async () => {
      const { error, ms } = await once(get(), { kind: 'slow', delayMs: 5000 }, request({ timeoutMs: 300 }));
      assertProviderError(error, 'timeout');
      assert.ok(ms >= 250 && ms < 2000, `took ${ms} ms`);
    });

    test(`${name}: body stalls after the headers → timeout at the deadline`, async () => {
      const { error, ms } = await once(get(), { kind: 'stall', delayMs: 5000 }, request({ timeoutMs: 300 }));
      assertProviderError(error, 'timeout');
      assert.ok(ms >= 250 && ms < 2000, `took ${ms} ms`);
    });

    test(`${name}: a slow answer inside the timeout succeeds`, async () => {
      const { result } = await once(get(), { kind: 'slow', delayMs: 100, content: '{"recommended":[]}' }, request({ timeoutMs: 3000 }));
      assert.equal(result?.text, '{"recommended":[]}');
    });

    test(`${name}: truncated output → cut text and the provider's truncation reason`, async () => {
      // '{"recommended":[1,2,3]}' has 23 characters; the fake keeps the first ⌈23/2⌉ = 12.
      const { result } = await once(get(), { kind: 'truncated', content: '{"recommended":[1,2,3]}', usage: { input: 50, output: 256 } });
      assert.equal(result?.text, '{"recommende');
      assert.equal(result?.finishReason, index === 0 ? 'length' : 'max_tokens');
      assert.deepEqual(result?.usage, { inputTokens: 50, outputTokens: 256 });
    });

    test(`${name}: malformed JSON and JSON wrapped in prose come back as text for local validation`, async () => {
      const malformed = (await once(get(), { kind: 'malformed' })).result;
      assert.equal(malformed?.text, '{"answer": "unfinished');
      const prose = (await once(get(), { kind: 'prose', content: '{"recommended":[4]}' })).result;
      assert.equal(prose?.text, 'Sure! Here is my answer:\n{"recommended":[4]}\nLet me know if you need anything else.');
      assert.equal(prose?.refusal, null);
    });

    test(`${name}: refusal → refusal text, empty answer`, async () => {
      const { result } = await once(get(), { kind: 'refusal', message: 'I will not answer this.' });
      assert.equal(result?.refusal, 'I will not answer this.');
      assert.equal(result?.text, '');
      assert.equal(result?.finishReason, index === 0 ? 'stop' : 'refusal');
    });

    test(`${name}: caller abort → AbortError (not a transport error), one request`, async () => {
      const controller = new AbortController();
      server.script(() => ({ kind: 'slow', delayMs: 5000 }));
      const before = server.requests.length;
      const pending = get().complete(request({ timeoutMs: 4000 }), controller.signal);
      setTimeout(() => controller.abort(), 100);
      await assert.rejects(pending, (e: unknown) => {
        seen.push(e);
        return e instanceof Error && e.name === 'AbortError' && !(e instanceof ProviderError);
      });
      assert.equal(server.requests.length - before, 1);
    });

    test(`${name}: a wrong key → auth, and the server's echo of the key is redacted`, async () => {
      const wrongKey = 'sk-wrong-PLANTED-9876543210zyxw';
      const p =
        index === 0
          ? createProvider('openai:gpt-test', { baseUrl: server.openaiBaseUrl, env: { OPENAI_API_KEY: wrongKey } })
          : createProvider('anthropic:claude-test', { baseUrl: server.baseUrl, env: { ANTHROPIC_API_KEY: wrongKey } });
      const { error } = await once(p, { kind: 'json', content: '{}' });
      const e = assertProviderError(error, 'auth');
      assert.ok(!e.message.includes(wrongKey) && !JSON.stringify(e).includes(wrongKey) && !String(e.stack).includes(wrongKey), e.message);
      assert.match(e.message, /\[redacted\]/);
    });
  }
});

test('the collector can retry after a fault: a scripted 503 then an answer are two separate calls', async () => {
  const [, openai] = providers()[0]!;
  const start = server.calls;
  server.script(({ count }) => (count === start + 1 ? { kind: 'server_error', status: 503 } : { kind: 'json', content: '{"recommended":[1]}' }));
  await assert.rejects(openai.complete(request()), (e: unknown) => e instanceof ProviderError && e.errorClass === 'server_error');
  const ok = await openai.complete(request());
  assert.equal(ok.text, '{"recommended":[1]}');
  assert.equal(server.calls - start, 2);
});

test('openai-compatible: base URL required, one token field (max_tokens), placeholder key when none is set, never OPENAI_API_KEY', async () => {
  assert.throws(() => createProvider('openai-compatible:llama3.1:8b', { env: {} }), (e: unknown) => e instanceof InputError && /needs a URL/.test(e.message));
  const compat = createProvider('openai-compatible:llama3.1:8b', { baseUrl: server.openaiBaseUrl, env: { OPENAI_API_KEY: KEY } });
  assert.equal(compat.provider, 'openai-compatible');
  assert.equal(compat.model, 'llama3.1:8b');
  // This server requires KEY, so the placeholder is refused: proves what was sent — and that the
  // OpenAI key in the environment was not.
  server.script(() => ({ kind: 'json', content: '{}' }));
  await assert.rejects(compat.complete(request()), (e: unknown) => e instanceof ProviderError && e.errorClass === 'auth');
  assert.equal(server.requests.at(-1)!.headers['authorization'], 'Bearer no-key-needed');

  const keyed = createProvider('openai-compatible:llama3.1:8b', { baseUrl: server.openaiBaseUrl, env: { OPENAI_COMPATIBLE_API_KEY: KEY, OPENAI_API_KEY: 'sk-other-000000000' } });
  const result = await keyed.complete(request());
  assert.equal(result.text, '{}');
  const body = server.requests.at(-1)!.body as Record<string, unknown>;
  assert.equal(body['max_tokens'], 256);
  assert.equal('max_completion_tokens' in body, false, 'exactly one token field');
  assert.equal(body['model'], 'llama3.1:8b');
  // The user may say explicitly that the OpenAI key goes to this server.
  const explicit = createProvider('openai-compatible:llama3.1:8b', { baseUrl: server.openaiBaseUrl, env: { OPENAI_API_KEY: KEY }, model: { spec: 'openai-compatible:llama3.1:8b', api_key_env: 'OPENAI_API_KEY' } });
  assert.equal((await explicit.complete(request())).text, '{}');
  assert.equal(server.requests.at(-1)!.headers['authorization'], `Bearer ${KEY}`);
});

test('the OpenAI SDK also works with the bare base URL (no /v1)', async () => {
  const p = createProvider('openai:gpt-test', { baseUrl: server.baseUrl, env });
  server.script(() => ({ kind: 'json', content: '{"recommended":[9]}' }));
  assert.equal((await p.complete(request())).text, '{"recommended":[9]}');
  assert.equal(server.requests.at(-1)!.path, '/chat/completions');
});

describe('a redirect (3xx) is not followed', () => {
  // Neither API redirects its calls; a gateway may (http → https, a moved path). Followed, the SDK's
  // fetch dropped the key on the way to the other origin (the Fetch standard's cross-origin rule) and
  // the user was told the key had been refused; a 301/302 also turned the POST into a GET.
  for (const status of [301, 307]) {
    test(`HTTP ${status} to another address: no request there, a client_error naming where it points, the key nowhere`, async () => {
      const { createServer } = await import('node:http');
      const redirector = createServer((req, res) => {
        res.writeHead(status, { location: `${server.baseUrl}${req.url}?token=SECRET-IN-QUERY` });
        res.end();
      });
      await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
      const at = `http://127.0.0.1:${(redirector.address() as { port: number }).port}`;
      try {
        for (const p of [createProvider('openai:gpt-test', { baseUrl: `${at}/v1`, env }), createProvider('anthropic:claude-test', { baseUrl: at, env })]) {
          const before = server.requests.length;
          const error = await p.complete(request()).then(() => null, (e: unknown) => e);
          seen.push(error);
          assert.equal(server.requests.length, before, `${p.provider}: the redirect was followed`);
          const e = assertProviderError(error, 'client_error');
          assert.equal(e.info.httpStatus, status);
          assert.equal(e.info.deterministic, true);
          assert.match(e.message, new RegExp(`HTTP ${status}: redirected to ${server.baseUrl}/`));
          assert.match(e.info.remedy ?? '', /not followed.*base URL/);
          assert.ok(!JSON.stringify(e).includes('SECRET-IN-QUERY'), e.message);
        }
      } finally {
        await new Promise<void>((resolve) => redirector.close(() => resolve()));
      }
    });
  }

  test('a same-origin 308 (a trailing slash) is followed with the method, body and key kept (review3 L2)', async () => {
    const { createServer } = await import('node:http');
    const seenHere: Array<{ method?: string; url?: string; auth?: string; body: string }> = [];
    const slashing = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seenHere.push({ method: req.method, url: req.url, auth: req.headers['authorization'], body });
        if (!req.url!.endsWith('/')) {
          res.writeHead(308, { location: `${req.url}/` });
          return void res.end();
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model: 'gpt-test', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"recommended":[3]}', refusal: null } }] }));
      });
    });
    await new Promise<void>((resolve) => slashing.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(slashing.address() as { port: number }).port}`;
    try {
      const result = await createProvider('openai:gpt-test', { baseUrl: `${at}/v1`, env }).complete(request());
      seen.push(result);
      assert.equal(result.text, '{"recommended":[3]}');
      assert.deepEqual(seenHere.map((r) => [r.method, r.url, r.auth]), [
        ['POST', '/v1/chat/completions', `Bearer ${KEY}`],
        ['POST', '/v1/chat/completions/', `Bearer ${KEY}`],
      ]);
      assert.equal(seenHere[1]!.body, seenHere[0]!.body);
    } finally {
      await new Promise<void>((resolve) => slashing.close(() => resolve()));
    }
  });

  test('a same-origin 307 whose Location carries user:pass@ is not followed; the credentials reach no message (review4 M2)', async () => {
    const { createServer } = await import('node:http');
    const paths: string[] = [];
    const redirector = createServer((req, res) => {
      paths.push(req.url!);
      res.writeHead(307, { location: `http://gwuser:GWSECRET@127.0.0.1:${(redirector.address() as { port: number }).port}${req.url}/` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(redirector.address() as { port: number }).port}`;
    try {
      for (const p of [createProvider('openai:gpt-test', { baseUrl: `${at}/v1`, env }), createProvider('anthropic:claude-test', { baseUrl: at, env })]) {
        paths.length = 0;
        const error = await p.complete(request()).then(() => null, (e: unknown) => e);
        seen.push(error);
        assert.equal(paths.length, 1, `${p.provider}: the hop was sent (${paths.join(', ')})`);
        const e = assertProviderError(error, 'client_error');
        assert.equal(e.info.httpStatus, 307);
        assert.match(e.message, new RegExp(`HTTP 307: redirected to http://\\[redacted\\]@127\\.0\\.0\\.1:`));
        assert.ok(!JSON.stringify({ ...e, message: e.message }).includes('GWSECRET'), e.message);
      }
    } finally {
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });

  test('a same-origin 308 to another path is followed, with one note per provider (not per call) saying to update the base URL; a trailing slash gets none (review4 L5)', async () => {
    const { createServer } = await import('node:http');
    const moving = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url!.startsWith('/v1/')) {
          res.writeHead(308, { location: req.url!.replace('/v1/', '/v2/') });
          return void res.end();
        }
        if (req.url === '/slash/chat/completions') {
          res.writeHead(308, { location: `${req.url}/` });
          return void res.end();
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'c1', object: 'chat.completion', created: 0, model: 'gpt-test', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: '{"recommended":[3]}', refusal: null } }] }));
      });
    });
    await new Promise<void>((resolve) => moving.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(moving.address() as { port: number }).port}`;
    try {
      const notes: string[] = [];
      const p = createProvider('openai:gpt-test', { baseUrl: `${at}/v1`, env, onNote: (note) => notes.push(note) });
      for (let call = 0; call < 3; call += 1) assert.equal((await p.complete(request())).text, '{"recommended":[3]}');
      assert.deepEqual(notes, [`calls to ${at}/v1/chat/completions are redirected (same origin, followed) to ${at}/v2/chat/completions: each call makes two round trips until the base URL names the new address`]);
      const slashNotes: string[] = [];
      const slash = createProvider('openai:gpt-test', { baseUrl: `${at}/slash`, env, onNote: (note) => slashNotes.push(note) });
      assert.equal((await slash.complete(request())).text, '{"recommended":[3]}');
      assert.deepEqual(slashNotes, [], 'a trailing slash is the server\'s spelling: no base URL would save the hop');
    } finally {
      await new Promise<void>((resolve) => moving.close(() => resolve()));
    }
  });

  test('a same-origin 307 loop is followed 5 times, then comes back as a client_error saying it was followed (review4 L5)', async () => {
    const { createServer } = await import('node:http');
    let calls = 0;
    const looping = createServer((req, res) => {
      calls += 1;
      res.writeHead(307, { location: `${req.url}/` });
      res.end();
    });
    await new Promise<void>((resolve) => looping.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(looping.address() as { port: number }).port}`;
    try {
      for (const p of [createProvider('openai:gpt-test', { baseUrl: `${at}/v1`, env }), createProvider('anthropic:claude-test', { baseUrl: at, env })]) {
        calls = 0;
        const error = await p.complete(request()).then(() => null, (e: unknown) => e);
        seen.push(error);
        assert.equal(calls, 6, `${p.provider}: the first call and 5 hops`);
        const e = assertProviderError(error, 'client_error');
        assert.equal(e.info.httpStatus, 307);
        assert.match(e.info.remedy ?? '', /kept redirecting on its own origin \(followed 5 times, then given up\)/);
      }
    } finally {
      await new Promise<void>((resolve) => looping.close(() => resolve()));
    }
  });

  test('a relative Location is read against the request URL and masked like an absolute one (review3 M1)', async () => {
    const { createServer } = await import('node:http');
    const redirector = createServer((req, res) => {
      res.writeHead(302, { location: `/moved${req.url}?sig=SECRET-IN-QUERY` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const at = `http://127.0.0.1:${(redirector.address() as { port: number }).port}`;
    try {
      const cases = [
        [createProvider('openai:gpt-test', { baseUrl: `${at}/v1`, env }), `${at}/moved/v1/chat/completions?sig=[redacted]`],
        [createProvider('anthropic:claude-test', { baseUrl: at, env }), `${at}/moved/v1/messages?sig=[redacted]`],
      ] as const;
      for (const [p, shown] of cases) {
        const error = await p.complete(request()).then(() => null, (e: unknown) => e);
        seen.push(error);
        const e = assertProviderError(error, 'client_error');
        assert.ok(e.message.endsWith(`HTTP 302: redirected to ${shown}`), e.message);
        assert.ok(!JSON.stringify(e).includes('SECRET-IN-QUERY'), e.message);
      }
    } finally {
      await new Promise<void>((resolve) => redirector.close(() => resolve()));
    }
  });
});

test('the planted key never appears in any result or error of this file', () => {
  assert.ok(seen.length > 30, `checked ${seen.length} outcomes`);
  for (const item of seen) {
    const text = item instanceof Error ? `${item.message}\n${item.stack}\n${JSON.stringify(item)}` : JSON.stringify(item);
    assert.ok(!text.includes(KEY), text);
  }
});

test('the fake server\'s OpenAI error bodies have the documented shape: error.{message, type, param, code}', async () => {
  // https://platform.openai.com/docs/guides/error-codes; node_modules/openai/core/error.js reads
  // error.code, error.param and error.type of that object.
  const plans: FakePlan[] = [{ kind: 'rate_limit' }, { kind: 'quota' }, { kind: 'server_error' }, { kind: 'auth' }, { kind: 'client_error' }];
  for (const plan of plans) {
    server.script(() => plan);
    const res = await fetch(`${server.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(request()) });
    const body = (await res.json()) as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type'], `${plan.kind}: ${JSON.stringify(body)}`);
  }
  const unauthorised = await fetch(`${server.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' }, body: '{}' });
  assert.deepEqual(Object.keys(((await unauthorised.json()) as { error: object }).error).sort(), ['code', 'message', 'param', 'type']);
});

test('the fake server\'s Anthropic error bodies have the documented shape: type "error", error.{type, message}, request_id', async () => {
  // https://docs.claude.com/en/api/errors ("Error shapes").
  for (const plan of [{ kind: 'rate_limit' }, { kind: 'server_error', status: 529 }, { kind: 'auth' }, { kind: 'client_error' }] as FakePlan[]) {
    server.script(() => plan);
    const res = await fetch(`${server.baseUrl}/v1/messages`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-test', max_tokens: 10, messages: [] }) });
    const body = (await res.json()) as { type: string; error: Record<string, unknown>; request_id: unknown };
    assert.equal(body.type, 'error', JSON.stringify(body));
    assert.deepEqual(Object.keys(body.error).filter((k) => k !== 'details').sort(), ['message', 'type']);
    assert.equal(body.request_id, res.headers.get('request-id'), `${plan.kind}: ${JSON.stringify(body)}`);
  }
});
