/**
 * A `fetch` for the SDKs that reads every response body as a stream with a byte cap, so an answer of
 * hundreds of MB never becomes one string (V8 refuses strings above 2^29 − 24 characters, and the
 * process would hold it all first). Past the cap the body is cancelled and `ResponseTooLarge` is
 * raised; the providers turn it into a result the collector records `invalid` with reason
 * `response_too_large` (lib/provider/outcome.ts). Both SDKs take a `fetch` option
 * (node_modules/openai/client.d.ts `ClientOptions.fetch`, node_modules/@anthropic-ai/sdk/client.d.ts).
 *
 * It also follows no redirect of a POST (`redirect: 'manual'`): neither API redirects its calls, and a
 * followed one went to an address the user never gave — with the key dropped on a change of origin
 * (the Fetch standard), so the user was told the key was refused, and a 301/302 turned the POST into
 * a GET. The 3xx reaches the SDK as an HTTP error instead, which classify.ts names (where it points,
 * the fix). Only a 307/308 to the same origin is followed (`postFollowingSameOrigin`): it keeps the
 * method, the body and the key, and goes nowhere the user did not name (a server that adds a trailing
 * slash). A GET (a batch's results or output file) still follows any: a download may be served
 * from elsewhere, and the key does not go along to another origin.
 */

import { redactUrl } from './endpoints';

/** The documented cap on one response body: 8 MiB (a KST or PSI answer is a few kB). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge';
  constructor(
    readonly limitBytes: number,
    readonly seenBytes: number,
  ) {
    super(`response body above ${limitBytes} bytes (at least ${seenBytes}): not read further`);
  }
}

/**
 * A body the connection cut after its headers (undici's `TypeError: terminated`, kept as the cause),
 * with what the headers said: the status (a 200 means the answer was complete at the server — a
 * non-streamed answer is sent once generated — so the call is billed) and the request id
 * (`x-request-id`, OpenAI; `request-id`, Anthropic), which the bare TypeError lost.
 */
export class BodyCutOff extends TypeError {
  override readonly name = 'BodyCutOff';
  constructor(
    cause: unknown,
    readonly status: number,
    readonly requestId: string | null,
  ) {
    super('terminated', { cause });
  }
}

/** The first error of class `kind` in `err` or its causes (the SDKs wrap fetch errors, up to a few deep), else null. */
function inCauses<T extends Error>(err: unknown, kind: abstract new (...args: never[]) => T): T | null {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e instanceof Error; depth += 1) {
    if (e instanceof kind) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** The BodyCutOff in `err` or its causes (the SDKs may wrap it), else null. */
export function bodyCutOffIn(err: unknown): BodyCutOff | null {
  return inCauses(err, BodyCutOff);
}

/** The ResponseTooLarge in `err` or its causes (the SDKs wrap fetch errors), else null. */
export function tooLargeIn(err: unknown): ResponseTooLarge | null {
  return inCauses(err, ResponseTooLarge);
}

/** Same-origin 307/308 hops a POST follows at most (the Fetch standard's limit is 20; a server needs one). */
export const MAX_SAME_ORIGIN_HOPS = 5;

/**
 * Where a POST answered `status` with `location` from `from` is sent next: a same-origin 307/308's
 * target, else null (the answer goes back to the SDK as it is). A Location with user info is not
 * followed either: fetch refuses to build that request and its error would quote the credentials; as
 * a 3xx, classify.ts shows the Location masked (review4 M2).
 * @example
 * sameOriginHopTarget(308, '/v1/chat/completions/', 'http://gw.test/v1/chat/completions'); // => 'http://gw.test/v1/chat/completions/'
 * sameOriginHopTarget(302, '/v1/chat/completions/', 'http://gw.test/v1/chat/completions'); // => null
 */
export function sameOriginHopTarget(status: number, location: string | null | undefined, from: string): string | null {
  if ((status !== 307 && status !== 308) || location === null || location === undefined) return null;
  try {
    const next = new URL(location, from);
    if (next.username !== '' || next.password !== '') return null;
    return next.origin === new URL(from).origin ? next.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Sends a non-GET with `redirect: 'manual'` and follows only same-origin 307/308 hops (see the module
 * comment). A `Request` input, or a body that cannot be sent twice (a stream), is not re-sent.
 */
async function postFollowingSameOrigin(base: typeof fetch, input: Parameters<typeof fetch>[0], init: RequestInit | undefined, onHop: (from: string, to: string) => void): Promise<Response> {
  const manual = { ...init, redirect: 'manual' as const };
  let res = await base(input, manual);
  const resendable = init?.body === undefined || init.body === null || typeof init.body === 'string';
  let url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : null;
  for (let hop = 0; hop < MAX_SAME_ORIGIN_HOPS && url !== null && resendable; hop += 1) {
    const next = sameOriginHopTarget(res.status, res.headers.get('location'), url);
    if (next === null) break;
    await res.body?.cancel().catch(() => undefined);
    onHop(url, next);
    url = next;
    res = await base(url, manual);
  }
  return res;
}

/**
 * The one-time note of a followed hop to another path (URLs masked by `redactUrl`).
 * @example
 * movedPathNote('http://gw.test/v1/chat/completions', 'http://gw.test/v2/chat/completions'); // => 'calls to http://gw.test/v1/chat/completions are redirected (same origin, followed) to http://gw.test/v2/chat/completions: each call makes two round trips until the base URL names the new address'
 */
export function movedPathNote(from: string, to: string): string {
  return `calls to ${redactUrl(from)} are redirected (same origin, followed) to ${redactUrl(to)}: each call makes two round trips until the base URL names the new address`;
}

/** The path without a trailing slash: a hop that only adds one is the server's spelling, not a move. */
const pathOf = (url: string): string => new URL(url).pathname.replace(/\/+$/, '');

/**
 * Wraps `base` so every body is capped at `limitBytes` (a declared content-length above it fails at
 * once). `onPathMoved` hears, once per fetch made here, of a followed hop to another path (a gateway
 * that moved `/v1` to `/v2`): every call then makes two round trips, which a new base URL saves.
 */
export function cappedFetch(limitBytes: number = MAX_RESPONSE_BYTES, base: typeof fetch = fetch, onPathMoved?: (from: string, to: string) => void): typeof fetch {
  let told = false;
  const onHop = (from: string, to: string): void => {
    if (told || onPathMoved === undefined || pathOf(from) === pathOf(to)) return;
    told = true;
    onPathMoved(from, to);
  };
  return async (input, init) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const res = method === 'GET' || method === 'HEAD' ? await base(input, init) : await postFollowingSameOrigin(base, input, init, onHop);
    if (!res.body) return res;
    const declared = Number(res.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limitBytes) {
      await res.body.cancel().catch(() => undefined);
      throw new ResponseTooLarge(limitBytes, declared);
    }
    const reader = res.body.getReader();
    const requestId = res.headers.get('x-request-id') ?? res.headers.get('request-id');
    let seen = 0;
    const capped = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          // Only the transport's own fault: an abort (the attempt's deadline) stays as it is.
          controller.error(err instanceof TypeError ? new BodyCutOff(err, res.status, requestId) : err);
          return;
        }
        const { done, value } = chunk;
        if (done) return controller.close();
        seen += value.byteLength;
        if (seen > limitBytes) {
          await reader.cancel().catch(() => undefined);
          controller.error(new ResponseTooLarge(limitBytes, seen));
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(capped, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
