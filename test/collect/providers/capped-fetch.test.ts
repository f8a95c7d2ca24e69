import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyCutOffIn, BodyCutOff, cappedFetch, MAX_RESPONSE_BYTES, ResponseTooLarge, tooLargeIn } from '../../../lib/collect/providers/capped-fetch';

/** A stand-in fetch answering `chunks` as a streamed body, with the headers given. */
function fakeFetch(chunks: Uint8Array[], headers: Record<string, string> = {}): { fetch: typeof fetch; pulled: () => number; cancelled: () => boolean } {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[pulled++];
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
    cancel() {
      cancelled = true;
    },
  });
  const fetchLike = (async () => new Response(body, { status: 200, headers })) as unknown as typeof fetch;
  return { fetch: fetchLike, pulled: () => pulled, cancelled: () => cancelled };
}

const bytes = (n: number, fill = 0x61): Uint8Array => new Uint8Array(n).fill(fill);

test('the documented cap is 8 MiB', () => {
  assert.equal(MAX_RESPONSE_BYTES, 8 * 1024 * 1024);
});

test('a body within the cap passes through unchanged, status and headers kept', async () => {
  const server = fakeFetch([bytes(4), bytes(6, 0x62)], { 'x-request-id': 'req_1' });
  const res = await cappedFetch(10, server.fetch)('http://127.0.0.1/');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-request-id'), 'req_1');
  assert.equal(await res.text(), 'aaaabbbbbb');
});

test('a body one byte past the cap fails with ResponseTooLarge and is not read further', async () => {
  const server = fakeFetch([bytes(6), bytes(5), bytes(1000), bytes(1000)]);
  const res = await cappedFetch(10, server.fetch)('http://127.0.0.1/');
  await assert.rejects(res.text(), (err: unknown) => err instanceof ResponseTooLarge && err.limitBytes === 10 && err.seenBytes === 11);
  // A stream pulls one chunk ahead of its reader, so at most one chunk past the crossing one is read.
  assert.ok(server.pulled() <= 3, `stops at the chunk that crosses the cap (read ${server.pulled()} of 4)`);
  assert.equal(server.cancelled(), true, 'the rest of the body is cancelled');
});

test('a declared content-length above the cap fails before any byte is read', async () => {
  const server = fakeFetch([bytes(5)], { 'content-length': '11' });
  await assert.rejects(cappedFetch(10, server.fetch)('http://127.0.0.1/'), (err: unknown) => err instanceof ResponseTooLarge && err.seenBytes === 11);
  assert.ok(server.pulled() <= 1, 'at most the chunk a stream pulls ahead');
  assert.equal(server.cancelled(), true, 'the body is cancelled');
});

test('tooLargeIn finds the error through the causes an SDK wraps it in, and nothing else', () => {
  const inner = new ResponseTooLarge(10, 12);
  const wrapped = new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: inner }) });
  assert.equal(tooLargeIn(wrapped), inner);
  assert.equal(tooLargeIn(new Error('other', { cause: new Error('deeper') })), null);
  assert.equal(tooLargeIn('not an error'), null);
});

test('a body the transport cuts becomes BodyCutOff with the status and request id of its headers; any other stream error passes as it is', async () => {
  const failing = (error: unknown, headers: Record<string, string>) =>
    (async () => new Response(new ReadableStream<Uint8Array>({ pull: (c) => c.error(error) }), { status: 200, headers })) as unknown as typeof fetch;
  const terminated = new TypeError('terminated');
  const cut = await cappedFetch(10, failing(terminated, { 'request-id': 'req_9' }))('http://127.0.0.1/');
  const err = await cut.text().then(() => null, (e: unknown) => e);
  assert.ok(err instanceof BodyCutOff && err instanceof TypeError, String(err));
  assert.equal(err.message, 'terminated', 'still what classify.ts isTransportFault knows');
  assert.deepEqual([err.status, err.requestId, err.cause], [200, 'req_9', terminated]);
  assert.equal(bodyCutOffIn(new Error('wrapped', { cause: err })), err);
  const abort = new DOMException('aborted', 'AbortError');
  const aborted = await cappedFetch(10, failing(abort, {}))('http://127.0.0.1/');
  assert.equal(await aborted.text().then(() => null, (e: unknown) => e), abort, 'the deadline\'s abort is not a cut body');
});

test('a POST follows no redirect (the 3xx comes back as it is); a GET (a batch download) still may', async () => {
  const seen: Array<RequestInit['redirect']> = [];
  const recording = (async (_input: unknown, init?: RequestInit) => {
    seen.push(init?.redirect);
    return new Response('{}', { status: 200 });
  }) as unknown as typeof fetch;
  await cappedFetch(10, recording)('http://127.0.0.1/v1/chat/completions', { method: 'POST', body: '{}' });
  await cappedFetch(10, recording)('http://127.0.0.1/v1/files/f/content', { method: 'GET' });
  await cappedFetch(10, recording)('http://127.0.0.1/v1/batches/b');
  assert.deepEqual(seen, ['manual', undefined, undefined]);
});

test('a POST follows a same-origin 307/308 (method, body and key kept), and no other redirect: the key goes to no other address (review3 L2, review4 L2)', async () => {
  const script = (answers: Record<string, [number, string | null]>) => {
    const calls: Array<[string, string | undefined, unknown, string | null]> = [];
    const fake = (async (input: unknown, init?: RequestInit) => {
      const url = String(input);
      calls.push([url, init?.method, init?.body, new Headers(init?.headers).get('authorization')]);
      const [status, location] = answers[url] ?? [200, null];
      return new Response(status === 200 ? '{"ok":true}' : null, { status, headers: location ? { location } : {} });
    }) as unknown as typeof fetch;
    return { calls, fake };
  };
  const post = { method: 'POST', body: '{"model":"m"}', headers: { authorization: 'Bearer k' } };
  // A trailing slash added by the same server: followed, the POST and its body sent again there.
  const slash = script({ 'http://gw.test/v1/chat/completions': [308, '/v1/chat/completions/'] });
  const followed = await cappedFetch(100, slash.fake)('http://gw.test/v1/chat/completions', post);
  assert.equal(followed.status, 200);
  assert.deepEqual(slash.calls, [
    ['http://gw.test/v1/chat/completions', 'POST', post.body, 'Bearer k'],
    ['http://gw.test/v1/chat/completions/', 'POST', post.body, 'Bearer k'],
  ]);
  // Another origin, or a 301/302/303 (which would turn the POST into a GET): the 3xx comes back as it is.
  // A same-origin Location with user info (review4 M2): fetch would refuse to build it, quoting the credentials.
  for (const [status, location] of [[307, 'https://elsewhere.test/v1/chat/completions'], [302, '/v2/chat/completions'], [301, '/v2/chat/completions'], [308, 'http://gwuser:GWSECRET@gw.test/v1/chat/completions/'], [307, 'http://gwuser@gw.test/v1/chat/completions/']] as const) {
    const s = script({ 'http://gw.test/v1/chat/completions': [status, location] });
    const res = await cappedFetch(100, s.fake)('http://gw.test/v1/chat/completions', post);
    assert.equal(res.status, status, `${status} ${location}`);
    assert.deepEqual(s.calls.map((c) => c[0]), ['http://gw.test/v1/chat/completions'], `${status} ${location}: not followed, the key sent nowhere else`);
  }
  // A loop on the same origin stops after a few hops and comes back as the 3xx.
  const loop = script({ 'http://gw.test/a': [307, '/b'], 'http://gw.test/b': [307, '/a'] });
  assert.equal((await cappedFetch(100, loop.fake)('http://gw.test/a', post)).status, 307);
  assert.equal(loop.calls.length, 6);
});
