/**
 * A fake OpenAI + Anthropic HTTP server for tests, good enough for the official SDKs:
 * - OpenAI: `POST /v1/chat/completions`, `POST /v1/files` (multipart), `GET /v1/files/:id`,
 *   `GET /v1/files/:id/content`, `POST /v1/batches`, `GET /v1/batches/:id`, `POST /v1/batches/:id/cancel`
 *   (each also without the `/v1` prefix, so one base URL serves both SDKs);
 * - Anthropic: `POST /v1/messages`, `POST /v1/messages/batches`, `GET /v1/messages/batches/:id`,
 *   `GET /v1/messages/batches/:id/results`.
 * Every model call (live or batch item) asks a programmable handler for a plan: a normal answer, an
 * HTTP fault, a reset connection, a slow or stalled response, a truncated/malformed/prose answer, or
 * a refusal, or a verbatim error replay (`{kind: 'error', status, body, headers}`, used with the
 * documented bodies in ./provider-errors.ts).
 *
 * With `models` set, the server also validates requests the way the real APIs do (each rule cites
 * where the real behaviour is documented, see `validateOpenAI` / `validateAnthropic`): unknown model
 * → 404, a model served only by the Responses API → 404, an output allowance above the model's cap
 * → 400, a token field the server does not read → 400 `unsupported_parameter`, parameters the model
 * does not take → 400, forced tool use together with thinking → 400, type arrays in a schema sent to
 * a Gemini-dialect server → 400. Anthropic `stream: true` is answered as server-sent events.
 * Listens on 127.0.0.1 with a random port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type FakeApi = 'openai' | 'anthropic';

export interface FakeUsage {
  input: number;
  output: number;
  /** Input tokens read from the prompt cache (OpenAI `prompt_tokens_details.cached_tokens`, Anthropic `cache_read_input_tokens`). */
  cached?: number;
  /** Output tokens spent reasoning (OpenAI `completion_tokens_details.reasoning_tokens`, Anthropic `output_tokens_details.thinking_tokens`). */
  reasoning?: number;
}

/** What the server knows about one model when `models` is set (missing fields = no check). */
export interface FakeModel {
  /** Largest output allowance accepted. */
  maxOutputTokens?: number;
  /** Served by the Responses API only: Chat Completions answers 404. */
  responsesOnly?: boolean;
  /** Output-token fields this server refuses for this model (OpenAI reasoning models refuse `max_tokens`). */
  refuseTokenFields?: Array<'max_tokens' | 'max_completion_tokens'>;
  /** Body parameters the model refuses (`temperature`, `reasoning_effort`, …). */
  refuseParams?: string[];
  /** Anthropic `thinking.type` values accepted (e.g. only `adaptive`). */
  thinking?: string[];
}

/** What the server does for one model call. `content` is the answer text (JSON for a normal answer). */
export type FakePlan =
  | { kind: 'json'; content: string; model?: string; usage?: FakeUsage }
  | { kind: 'rate_limit'; retryAfterSeconds?: number; retryAfterMs?: number; headers?: Record<string, string> }
  | { kind: 'quota' }
  | { kind: 'server_error'; status?: number }
  | { kind: 'auth' }
  | { kind: 'client_error'; status?: number; message?: string }
  /** Destroys the socket without answering. */
  | { kind: 'reset' }
  /** Waits `delayMs` before sending anything, then answers like `json`. */
  | { kind: 'slow'; delayMs: number; content?: string }
  /** Sends headers and half the body at once, the rest after `delayMs`. */
  | { kind: 'stall'; delayMs: number; content?: string }
  /**
   * Sends a 200 with its headers and half the body, then destroys the socket: the body is cut after
   * its headers (undici rejects `response.json()` with `TypeError: terminated`). Anthropic
   * `stream: true`: the event-stream headers and `message_start` (none with `beforeFirstEvent`), then
   * the socket is destroyed mid-stream.
   */
  | { kind: 'cut'; content?: string; beforeFirstEvent?: boolean }
  /** Anthropic `stream: true` only: the server-sent events of a normal answer, `gapMs` apart. */
  | { kind: 'slow_stream'; gapMs: number; content?: string }
  /** Anthropic `stream: true` only: a 200 with the event-stream headers, then no event at all. */
  | { kind: 'silent_stream' }
  /**
   * Anthropic `stream: true` only: a 200, message_start, then an `error` event of `errorType` (default
   * `overloaded_error`, "which would normally correspond to an HTTP 529 in a non-streaming context":
   * https://platform.claude.com/docs/en/build-with-claude/streaming#error-events) and the end of the stream.
   */
  | { kind: 'stream_error'; errorType?: string; message?: string }
  /** A normal answer sent without content-length, in chunks (a body read as a stream). */
  | { kind: 'chunked'; content: string }
  /** Cut-off answer: OpenAI finish_reason 'length', Anthropic stop_reason 'max_tokens'; text is the first half of `content`. */
  | { kind: 'truncated'; content: string; usage?: FakeUsage }
  /** Text that is not valid JSON (default: an unterminated object). Anthropic: a text block instead of the tool call. */
  | { kind: 'malformed'; content?: string }
  /** Valid JSON wrapped in prose. Anthropic: a text block instead of the tool call. */
  | { kind: 'prose'; content: string }
  /** OpenAI `message.refusal`; Anthropic `stop_reason: 'refusal'` with `stop_details.explanation`. */
  | { kind: 'refusal'; message?: string }
  /** Batch items only: the request expired before it ran (live calls answer 500). */
  | { kind: 'expired' }
  /** Replays an error exactly: status, JSON body and headers (see ./provider-errors.ts for documented ones). */
  | { kind: 'error'; status: number; body: unknown; headers?: Record<string, string> };

/** What the handler sees for one model call. */
export interface FakeCall {
  api: FakeApi;
  /** Parsed request body (for batch items, the item's body/params). */
  body: any;
  /** 1-based number of this model call on this server (live calls and batch items together). */
  count: number;
  /** The batch item's custom_id; undefined for live calls. */
  customId?: string;
}

export type FakeHandler = (call: FakeCall) => FakePlan | Promise<FakePlan>;

export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  api: FakeApi | null;
  /** Header names in lower case. Includes the credentials the SDK sent, so tests can check them. */
  headers: Record<string, string>;
  /** Parsed JSON body, the raw text for non-JSON bodies, or null. */
  body: unknown;
}

export interface FakeLlmServerOptions {
  handler?: FakeHandler;
  /** When set, requests must carry this key (Bearer / x-api-key); a wrong key gets a 401 that echoes it, like real APIs do. */
  apiKey?: string;
  /** How many batch status polls report "in progress" before the batch ends (default 1). */
  batchPollsBeforeDone?: number;
  /** Called for every request after it is recorded (e.g. to append a log line). */
  onRequest?: (req: RecordedRequest) => void;
  /** When set, requests are validated like the real APIs do (see the header); unknown models get 404. */
  models?: Record<string, FakeModel>;
  /** This server speaks Gemini's OpenAI-compatible dialect: type arrays in a response schema are refused. */
  geminiDialect?: boolean;
  /** Decides, per OpenAI batch, whether it fails as a whole (e.g. `token_limit_exceeded`); null = runs. */
  openaiBatchFailure?: (lines: number) => { code: string; message: string; line?: number } | null;
}

export interface FakeLlmServer {
  /** `http://127.0.0.1:<port>`: the Anthropic SDK base URL; OpenAI SDKs may use it or `openaiBaseUrl`. */
  baseUrl: string;
  /** `${baseUrl}/v1`, the conventional OpenAI base URL. */
  openaiBaseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Replaces the handler for subsequent model calls. */
  script(fn: FakeHandler): void;
  /** Number of model calls so far. */
  readonly calls: number;
  close(): Promise<void>;
}

const FIXED_CREATED = 1_700_000_000;

/** Starts the server; resolves once it listens. */
export async function startFakeLlmServer(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  let handler: FakeHandler = options.handler ?? (() => ({ kind: 'json', content: '{}' }));
  let calls = 0;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const files = new Map<string, { id: string; filename: string; purpose: string; content: string }>();
  const openaiBatches = new Map<string, OpenAIBatchState>();
  const anthropicBatches = new Map<string, AnthropicBatchState>();
  let baseUrl = '';

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const nextPlan = async (api: FakeApi, body: any, customId?: string): Promise<{ plan: FakePlan; count: number }> => {
    calls += 1;
    const count = calls;
    return { plan: await handler({ api, body, count, ...(customId !== undefined ? { customId } : {}) }), count };
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake server bug: ${(err as Error).message}`, type: 'server_error' } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/\/+$/, '');
    const api = apiOf(path);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v ?? '');
    const contentType = headers['content-type'] ?? '';
    let body: unknown = null;
    if (raw.length > 0) {
      if (contentType.includes('application/json')) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          body = raw.toString('utf8');
        }
      } else body = raw.toString('utf8');
    }
    const recorded: RecordedRequest = { index: requests.length + 1, method: req.method ?? 'GET', path, api, headers, body };
    requests.push(recorded);
    options.onRequest?.(recorded);
    const requestId = `req_fake_${recorded.index}`;
    if (api === 'openai') res.setHeader('x-request-id', requestId);
    if (api === 'anthropic') res.setHeader('request-id', requestId);

    if (api && !authorised(api, headers, res)) return;
    const method = recorded.method;
    const openaiPath = path.replace(/^\/v1/, '');
    let m: RegExpMatchArray | null;

    if (method === 'POST' && path === '/v1/messages') return anthropicMessage(res, body);
    if (method === 'POST' && path === '/v1/messages/batches') return anthropicBatchCreate(res, body);
    if (method === 'GET' && (m = path.match(/^\/v1\/messages\/batches\/([^/]+)$/))) return anthropicBatchGet(res, m[1]!);
    if (method === 'GET' && (m = path.match(/^\/v1\/messages\/batches\/([^/]+)\/results$/))) return anthropicBatchResults(res, m[1]!);
    if (method === 'POST' && (m = path.match(/^\/v1\/messages\/batches\/([^/]+)\/cancel$/))) return anthropicBatchCancel(res, m[1]!);
    if (method === 'POST' && openaiPath === '/chat/completions') return openaiChat(res, body);
    if (method === 'POST' && openaiPath === '/files') return openaiFileCreate(res, raw, contentType);
    if (method === 'GET' && (m = openaiPath.match(/^\/files\/([^/]+)\/content$/))) return openaiFileContent(res, m[1]!);
    if (method === 'GET' && (m = openaiPath.match(/^\/files\/([^/]+)$/))) return openaiFileGet(res, m[1]!);
    if (method === 'POST' && openaiPath === '/batches') return openaiBatchCreate(res, body);
    if (method === 'GET' && (m = openaiPath.match(/^\/batches\/([^/]+)$/))) return openaiBatchGet(res, m[1]!);
    if (method === 'POST' && (m = openaiPath.match(/^\/batches\/([^/]+)\/cancel$/))) return openaiBatchCancel(res, m[1]!);
    if (api === 'anthropic') return sendJson(res, 404, anthropicErrorBody('not_found_error', `no route ${method} ${path}`));
    return sendJson(res, 404, { error: { message: `no route ${method} ${path}`, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
  }

  function authorised(api: FakeApi, headers: Record<string, string>, res: ServerResponse): boolean {
    // OpenAI: Bearer. Anthropic: x-api-key, or Bearer as recent SDK versions send the API key.
    const bearer = (headers['authorization'] ?? '').replace(/^Bearer\s+/i, '');
    const sent = api === 'openai' ? bearer : headers['x-api-key'] || bearer;
    if (sent === '' || (options.apiKey !== undefined && sent !== options.apiKey)) {
      if (api === 'openai') {
        sendJson(res, 401, { error: { message: `Incorrect API key provided: ${sent}.`, type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
      } else {
        sendJson(res, 401, anthropicErrorBody('authentication_error', `invalid x-api-key: ${sent}`));
      }
      return false;
    }
    return true;
  }

  // ---------- OpenAI ----------

  async function openaiChat(res: ServerResponse, body: any): Promise<void> {
    const refused = validateOpenAI(body, options);
    if (refused) return sendJson(res, refused.status, refused.body);
    const { plan, count } = await nextPlan('openai', body);
    deliver(res, plan, (p) => openaiAnswer(body, p, count), (p) => openaiFailure(p));
  }

  /** OpenAI error bodies are `{error: {message, type, param, code}}` (https://platform.openai.com/docs/guides/error-codes). */
  function openaiFailure(plan: FakePlan): { status: number; headers: Record<string, string>; body: unknown } | null {
    switch (plan.kind) {
      case 'error':
        return { status: plan.status, headers: plan.headers ?? {}, body: plan.body };
      case 'rate_limit':
        return {
          status: 429,
          headers: retryHeaders(plan),
          body: { error: { message: 'Rate limit reached for requests per min (RPM).', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
        };
      case 'quota':
        return {
          status: 429,
          headers: {},
          body: {
            error: {
              message: 'You exceeded your current quota, please check your plan and billing details.',
              type: 'insufficient_quota',
              param: null,
              code: 'insufficient_quota',
            },
          },
        };
      case 'server_error':
        return { status: plan.status ?? 500, headers: {}, body: { error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } } };
      case 'auth':
        return { status: 401, headers: {}, body: { error: { message: 'Invalid authentication.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } };
      case 'client_error':
        return { status: plan.status ?? 400, headers: {}, body: { error: { message: plan.message ?? 'Invalid request.', type: 'invalid_request_error', param: null, code: null } } };
      case 'expired':
        return { status: 500, headers: {}, body: { error: { message: 'expired', type: 'server_error', param: null, code: null } } };
      default:
        return null;
    }
  }

  function openaiAnswer(body: any, plan: FakePlan, count: number): unknown {
    const model = ('model' in plan && plan.model) || `${body?.model ?? 'unknown'}-fake-2025-01-01`;
    let content: string | null = null;
    let refusal: string | null = null;
    let finish = 'stop';
    const text = answerText(plan);
    if (plan.kind === 'refusal') refusal = plan.message ?? "I'm sorry, I can't help with that.";
    else content = text.value;
    if (text.truncated) finish = 'length';
    const usage = ('usage' in plan && plan.usage) || defaultUsage(promptText(body), content ?? refusal ?? '');
    return {
      id: `chatcmpl-fake-${count}`,
      object: 'chat.completion',
      created: FIXED_CREATED,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal }, finish_reason: finish, logprobs: null }],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
        ...(usage.cached !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cached } } : {}),
        ...(usage.reasoning !== undefined ? { completion_tokens_details: { reasoning_tokens: usage.reasoning } } : {}),
      },
    };
  }

  function openaiFileCreate(res: ServerResponse, raw: Buffer, contentType: string): void {
    const parts = parseMultipart(raw, contentType);
    const file = parts.find((p) => p.name === 'file');
    if (!file) return sendJson(res, 400, { error: { message: 'missing file part', type: 'invalid_request_error', param: null, code: null } });
    const id = `file-fake-${files.size + 1}`;
    const purpose = parts.find((p) => p.name === 'purpose')?.value ?? '';
    files.set(id, { id, filename: file.filename ?? 'upload', purpose, content: file.value });
    sendJson(res, 200, fileObject(files.get(id)!));
  }

  function fileObject(f: { id: string; filename: string; purpose: string; content: string }): unknown {
    return { id: f.id, object: 'file', bytes: Buffer.byteLength(f.content), created_at: FIXED_CREATED, filename: f.filename, purpose: f.purpose, status: 'processed' };
  }

  function openaiFileGet(res: ServerResponse, id: string): void {
    const f = files.get(id);
    if (!f) return sendJson(res, 404, { error: { message: `no file ${id}`, type: 'invalid_request_error', param: null, code: null } });
    sendJson(res, 200, fileObject(f));
  }

  function openaiFileContent(res: ServerResponse, id: string): void {
    const f = files.get(id);
    if (!f) return sendJson(res, 404, { error: { message: `no file ${id}`, type: 'invalid_request_error', param: null, code: null } });
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(f.content);
  }

  function openaiBatchCreate(res: ServerResponse, body: any): void {
    const input = files.get(body?.input_file_id);
    if (!input) return sendJson(res, 400, { error: { message: `unknown input_file_id ${body?.input_file_id}`, type: 'invalid_request_error', param: null, code: null } });
    const lines = input.content.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
    const id = `batch_fake_${openaiBatches.size + 1}`;
    const state: OpenAIBatchState = {
      id,
      endpoint: body.endpoint,
      inputFileId: input.id,
      completionWindow: body.completion_window,
      metadata: body.metadata ?? null,
      lines,
      pollsLeft: options.batchPollsBeforeDone ?? 1,
      status: 'validating',
      outputFileId: null,
      errorFileId: null,
      counts: { total: lines.length, completed: 0, failed: 0 },
      errors: null,
    };
    openaiBatches.set(id, state);
    sendJson(res, 200, openaiBatchObject(state));
  }

  async function openaiBatchGet(res: ServerResponse, id: string): Promise<void> {
    const state = openaiBatches.get(id);
    if (!state) return sendJson(res, 404, { error: { message: `no batch ${id}`, type: 'invalid_request_error', param: null, code: null } });
    if (state.status === 'validating' || state.status === 'in_progress') {
      if (state.pollsLeft > 0) {
        state.pollsLeft -= 1;
        state.status = 'in_progress';
      } else await runOpenAIBatch(state);
    }
    sendJson(res, 200, openaiBatchObject(state));
  }

  function openaiBatchCancel(res: ServerResponse, id: string): void {
    const state = openaiBatches.get(id);
    if (!state) return sendJson(res, 404, { error: { message: `no batch ${id}`, type: 'invalid_request_error', param: null, code: null } });
    if (state.status !== 'completed' && state.status !== 'failed') state.status = 'cancelled';
    sendJson(res, 200, openaiBatchObject(state));
  }

  async function runOpenAIBatch(state: OpenAIBatchState): Promise<void> {
    const failure = options.openaiBatchFailure?.(state.lines.length) ?? null;
    if (failure) {
      // A batch refused as a whole: status "failed", errors.data lists why, no output or error file
      // (BatchError shape: openai/openai-python#2084, code token_limit_exceeded, line null).
      state.status = 'failed';
      state.errors = { object: 'list', data: [{ code: failure.code, message: failure.message, line: failure.line ?? null, param: null }] };
      return;
    }
    const out: string[] = [];
    const errs: string[] = [];
    let n = 0;
    for (const line of state.lines) {
      n += 1;
      const { plan, count } = await nextPlan('openai', line.body, line.custom_id);
      const itemId = `batch_req_fake_${state.id}_${n}`;
      if (plan.kind === 'expired') {
        errs.push(JSON.stringify({ id: itemId, custom_id: line.custom_id, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } }));
        state.counts.failed += 1;
        continue;
      }
      const failure = openaiFailure(plan.kind === 'reset' ? { kind: 'server_error' } : plan);
      if (failure) {
        errs.push(JSON.stringify({ id: itemId, custom_id: line.custom_id, response: { status_code: failure.status, request_id: `req_fake_item_${count}`, body: failure.body }, error: null }));
        state.counts.failed += 1;
      } else {
        out.push(JSON.stringify({ id: itemId, custom_id: line.custom_id, response: { status_code: 200, request_id: `req_fake_item_${count}`, body: openaiAnswer(line.body, plan, count) }, error: null }));
        state.counts.completed += 1;
      }
    }
    // Real batch output is unordered; reversing makes tests prove matching is by custom_id.
    out.reverse();
    errs.reverse();
    if (out.length > 0) {
      state.outputFileId = `file-fake-${files.size + 1}`;
      files.set(state.outputFileId, { id: state.outputFileId, filename: 'batch_output.jsonl', purpose: 'batch_output', content: out.join('\n') + '\n' });
    }
    if (errs.length > 0) {
      state.errorFileId = `file-fake-${files.size + 1}`;
      files.set(state.errorFileId, { id: state.errorFileId, filename: 'batch_errors.jsonl', purpose: 'batch_output', content: errs.join('\n') + '\n' });
    }
    state.status = 'completed';
  }

  function openaiBatchObject(s: OpenAIBatchState): unknown {
    return {
      id: s.id,
      object: 'batch',
      endpoint: s.endpoint,
      errors: s.errors,
      input_file_id: s.inputFileId,
      completion_window: s.completionWindow,
      status: s.status,
      output_file_id: s.outputFileId,
      error_file_id: s.errorFileId,
      created_at: FIXED_CREATED,
      in_progress_at: s.status === 'validating' ? null : FIXED_CREATED,
      completed_at: s.status === 'completed' ? FIXED_CREATED : null,
      request_counts: { ...s.counts },
      metadata: s.metadata,
    };
  }

  // ---------- Anthropic ----------

  async function anthropicMessage(res: ServerResponse, body: any): Promise<void> {
    const refused = validateAnthropic(body, options);
    if (refused) return sendJson(res, refused.status, refused.body);
    const { plan, count } = await nextPlan('anthropic', body);
    if (body?.stream === true && plan.kind === 'silent_stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      return;
    }
    if (body?.stream === true && plan.kind === 'stream_error') {
      const started = anthropicAnswer(body, { kind: 'json', content: '{}' }, count) as Record<string, any>;
      const { content: _content, stop_reason: _stop, usage, ...rest } = started;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } })}\n\n`);
      res.end(`event: error\ndata: ${JSON.stringify(anthropicErrorBody(plan.errorType ?? 'overloaded_error', plan.message ?? 'Overloaded'))}\n\n`);
      return;
    }
    if (body?.stream === true && plan.kind === 'cut') {
      const started = anthropicAnswer(body, { kind: 'json', content: plan.content ?? '{}' }, count) as Record<string, any>;
      const { content: _content, stop_reason: _stop, usage, ...rest } = started;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const start = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } })}\n\n`;
      res.write(plan.beforeFirstEvent ? ':\n\n' : start, () => later(20, () => res.socket?.destroy()));
      return;
    }
    if (body?.stream === true && !anthropicFailure(plan) && plan.kind !== 'reset' && plan.kind !== 'error' && plan.kind !== 'cut') {
      return sendAnthropicStream(res, anthropicAnswer(body, plan, count) as Record<string, any>, plan.kind === 'slow_stream' ? plan.gapMs : 0, later);
    }
    deliver(res, plan, (p) => anthropicAnswer(body, p, count), (p) => anthropicFailure(p));
  }

  function anthropicFailure(plan: FakePlan): { status: number; headers: Record<string, string>; body: unknown } | null {
    switch (plan.kind) {
      case 'error':
        return { status: plan.status, headers: plan.headers ?? {}, body: plan.body };
      case 'rate_limit':
        return { status: 429, headers: retryHeaders(plan), body: anthropicErrorBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.') };
      case 'quota':
        // The monthly spend cap: a 429 rate_limit_error told apart only by error.details.error_code
        // (node_modules/@anthropic-ai/sdk/core/error-classes.js: '429 enforced_spend_limit_reached').
        return {
          status: 429,
          headers: {},
          body: {
            type: 'error',
            error: { type: 'rate_limit_error', message: 'Your organization has reached its monthly spend limit.', details: { error_code: 'enforced_spend_limit_reached' } },
          },
        };
      case 'server_error': {
        const status = plan.status ?? 500;
        return status === 529
          ? { status, headers: {}, body: anthropicErrorBody('overloaded_error', 'Overloaded') }
          : { status, headers: {}, body: anthropicErrorBody('api_error', 'Internal server error') };
      }
      case 'auth':
        return { status: 401, headers: {}, body: anthropicErrorBody('authentication_error', 'invalid x-api-key') };
      case 'client_error':
        return { status: plan.status ?? 400, headers: {}, body: anthropicErrorBody('invalid_request_error', plan.message ?? 'Invalid request.') };
      case 'expired':
        return { status: 500, headers: {}, body: anthropicErrorBody('api_error', 'expired') };
      default:
        return null;
    }
  }

  function anthropicAnswer(body: any, plan: FakePlan, count: number): unknown {
    const model = ('model' in plan && plan.model) || `${body?.model ?? 'unknown'}-fake-20250101`;
    const toolName: string = body?.tool_choice?.name ?? body?.tools?.[0]?.name ?? 'answer';
    // Native JSON output (output_config.format) answers in a text block; a request with tools answers
    // with a tool_use block (https://platform.claude.com/docs/en/build-with-claude/structured-outputs).
    const nativeJson = body?.output_config?.format?.type === 'json_schema';
    const thinkingOn = body?.thinking?.type === 'enabled' || body?.thinking?.type === 'adaptive';
    const text = answerText(plan);
    let content: unknown[] = [];
    let stopReason = 'end_turn';
    let stopDetails: unknown = null;
    if (plan.kind === 'refusal') {
      stopReason = 'refusal';
      stopDetails = { type: 'refusal', category: null, explanation: plan.message ?? 'This request was declined.' };
    } else if (text.truncated) {
      stopReason = 'max_tokens';
      content = [{ type: 'text', text: text.value }];
    } else {
      let input: unknown;
      let parsed = false;
      if (plan.kind === 'json' || plan.kind === 'slow' || plan.kind === 'stall' || plan.kind === 'cut' || plan.kind === 'slow_stream' || plan.kind === 'chunked') {
        try {
          input = JSON.parse(text.value);
          parsed = input !== null && typeof input === 'object' && !Array.isArray(input);
        } catch {
          parsed = false;
        }
      }
      if (parsed && !nativeJson) {
        content = [{ type: 'tool_use', id: `toolu_fake_${count}`, name: toolName, input }];
        stopReason = 'tool_use';
      } else content = [{ type: 'text', text: text.value }];
    }
    if (thinkingOn && plan.kind !== 'refusal') content = [{ type: 'thinking', thinking: 'Considering the prerequisites.', signature: 'sig_fake' }, ...content];
    const usage = ('usage' in plan && plan.usage) || defaultUsage(promptText(body), text.value);
    return {
      id: `msg_fake_${count}`,
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      stop_details: stopDetails,
      usage: {
        input_tokens: usage.input,
        output_tokens: usage.output,
        cache_creation_input_tokens: null,
        cache_read_input_tokens: usage.cached ?? null,
        output_tokens_details: usage.reasoning !== undefined ? { thinking_tokens: usage.reasoning } : null,
      },
    };
  }

  function anthropicBatchCreate(res: ServerResponse, body: any): void {
    const requests: Array<{ custom_id: string; params: any }> = Array.isArray(body?.requests) ? body.requests : [];
    if (requests.length === 0) return sendJson(res, 400, anthropicErrorBody('invalid_request_error', 'requests: must not be empty'));
    const id = `msgbatch_fake_${anthropicBatches.size + 1}`;
    const state: AnthropicBatchState = { id, requests, pollsLeft: options.batchPollsBeforeDone ?? 1, ended: false, results: [] };
    anthropicBatches.set(id, state);
    sendJson(res, 200, anthropicBatchObject(state));
  }

  async function anthropicBatchGet(res: ServerResponse, id: string): Promise<void> {
    const state = anthropicBatches.get(id);
    if (!state) return sendJson(res, 404, anthropicErrorBody('not_found_error', `no batch ${id}`));
    if (!state.ended) {
      if (state.pollsLeft > 0) state.pollsLeft -= 1;
      else await runAnthropicBatch(state);
    }
    sendJson(res, 200, anthropicBatchObject(state));
  }

  async function runAnthropicBatch(state: AnthropicBatchState): Promise<void> {
    for (const item of state.requests) {
      const { plan, count } = await nextPlan('anthropic', item.params, item.custom_id);
      let result: any;
      if (plan.kind === 'expired') result = { type: 'expired' };
      else {
        const failure = anthropicFailure(plan.kind === 'reset' ? { kind: 'server_error' } : plan);
        result = failure ? { type: 'errored', error: failure.body } : { type: 'succeeded', message: anthropicAnswer(item.params, plan, count) };
      }
      state.results.push({ custom_id: item.custom_id, result });
    }
    state.results.reverse(); // unordered, as the API warns
    state.ended = true;
  }

  /** Cancelling ends the batch at once here: unprocessed requests come back `canceled`, and `cancel_initiated_at` is set. */
  function anthropicBatchCancel(res: ServerResponse, id: string): void {
    const state = anthropicBatches.get(id);
    if (!state) return sendJson(res, 404, anthropicErrorBody('not_found_error', `no batch ${id}`));
    if (!state.ended) {
      state.cancelled = true;
      state.results = state.requests.map((r) => ({ custom_id: r.custom_id, result: { type: 'canceled' } }));
      state.ended = true;
    }
    sendJson(res, 200, anthropicBatchObject(state));
  }

  function anthropicBatchResults(res: ServerResponse, id: string): void {
    const state = anthropicBatches.get(id);
    if (!state || !state.ended) return sendJson(res, 404, anthropicErrorBody('not_found_error', `no results for ${id}`));
    res.writeHead(200, { 'content-type': 'application/binary' });
    res.end(state.results.map((r) => JSON.stringify(r)).join('\n') + '\n');
  }

  function anthropicBatchObject(s: AnthropicBatchState): unknown {
    const count = (type: string) => s.results.filter((r) => r.result.type === type).length;
    return {
      id: s.id,
      type: 'message_batch',
      processing_status: s.ended ? 'ended' : 'in_progress',
      request_counts: {
        processing: s.ended ? 0 : s.requests.length,
        succeeded: count('succeeded'),
        errored: count('errored'),
        canceled: count('canceled'),
        expired: count('expired'),
      },
      created_at: '2025-01-01T00:00:00Z',
      expires_at: '2025-01-02T00:00:00Z',
      ended_at: s.ended ? '2025-01-01T00:01:00Z' : null,
      archived_at: null,
      cancel_initiated_at: s.cancelled ? '2025-01-01T00:00:30Z' : null,
      results_url: s.ended ? `${baseUrl}/v1/messages/batches/${s.id}/results` : null,
    };
  }

  // ---------- delivery ----------

  /** Sends the answer or failure for one live call, applying reset / slow / stall. */
  function deliver(
    res: ServerResponse,
    plan: FakePlan,
    answer: (p: FakePlan) => unknown,
    failure: (p: FakePlan) => { status: number; headers: Record<string, string>; body: unknown } | null,
  ): void {
    if (plan.kind === 'reset') {
      res.socket?.destroy();
      return;
    }
    if (plan.kind === 'slow') {
      later(plan.delayMs, () => {
        if (!res.destroyed && !res.writableEnded) sendJson(res, 200, answer(plan));
      });
      return;
    }
    if (plan.kind === 'cut') {
      const text = JSON.stringify(answer(plan));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.write(text.slice(0, Math.floor(text.length / 2)), () => later(20, () => res.socket?.destroy()));
      return;
    }
    if (plan.kind === 'chunked') {
      const text = JSON.stringify(answer(plan));
      res.writeHead(200, { 'content-type': 'application/json' });
      const step = 1 << 20;
      for (let i = 0; i < text.length; i += step) res.write(text.slice(i, i + step));
      res.end();
      return;
    }
    if (plan.kind === 'stall') {
      const text = JSON.stringify(answer(plan));
      const half = Math.floor(text.length / 2);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.write(text.slice(0, half));
      later(plan.delayMs, () => {
        if (!res.destroyed && !res.writableEnded) res.end(text.slice(half));
      });
      return;
    }
    const f = failure(plan);
    if (f) sendJson(res, f.status, f.body, f.headers);
    else sendJson(res, 200, answer(plan));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake LLM server: no port');
  baseUrl = `http://127.0.0.1:${address.port}`;

  return {
    baseUrl,
    openaiBaseUrl: `${baseUrl}/v1`,
    port: address.port,
    requests,
    script(fn: FakeHandler) {
      handler = fn;
    },
    get calls() {
      return calls;
    },
    close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface OpenAIBatchState {
  id: string;
  endpoint: string;
  inputFileId: string;
  completionWindow: string;
  metadata: unknown;
  lines: Array<{ custom_id: string; method: string; url: string; body: any }>;
  pollsLeft: number;
  status: 'validating' | 'in_progress' | 'completed' | 'cancelled' | 'failed';
  outputFileId: string | null;
  errorFileId: string | null;
  counts: { total: number; completed: number; failed: number };
  errors: { object: 'list'; data: Array<{ code: string; message: string; line: number | null; param: string | null }> } | null;
}

interface AnthropicBatchState {
  id: string;
  requests: Array<{ custom_id: string; params: any }>;
  pollsLeft: number;
  ended: boolean;
  cancelled?: boolean;
  results: Array<{ custom_id: string; result: any }>;
}

/**
 * The answer schema a model call asked for, whatever the structured-output mode: OpenAI
 * `response_format.json_schema` (with its name), Anthropic native `output_config.format` (no name on
 * the wire) or an Anthropic tool (`tool_choice` / first tool, named).
 */
export function answerSchemaOf(call: FakeCall): { name: string | null; schema: Record<string, any> } {
  const b = call.body ?? {};
  if (call.api === 'openai') return { name: b.response_format?.json_schema?.name ?? null, schema: b.response_format?.json_schema?.schema ?? {} };
  if (b.output_config?.format?.schema) return { name: null, schema: b.output_config.format.schema };
  const tool = (b.tools ?? []).find((t: any) => t.name === b.tool_choice?.name) ?? b.tools?.[0];
  return { name: tool?.name ?? null, schema: tool?.input_schema ?? {} };
}

/** A plan that answers in sequence: `plans[count-1]`, then `then` (default: the last plan) for later calls. */
export function sequence(plans: FakePlan[], then?: FakePlan): FakeHandler {
  if (plans.length === 0 && !then) throw new Error('sequence: no plans');
  return ({ count }) => plans[count - 1] ?? then ?? plans[plans.length - 1]!;
}

function apiOf(path: string): FakeApi | null {
  if (path === '/v1/messages' || path.startsWith('/v1/messages/')) return 'anthropic';
  if (/^(\/v1)?\/(chat\/completions|files|batches)(\/|$)/.test(path)) return 'openai';
  return null;
}

/** The answer text a plan produces, and whether it is cut off. */
function answerText(plan: FakePlan): { value: string; truncated: boolean } {
  switch (plan.kind) {
    case 'json':
      return { value: plan.content, truncated: false };
    case 'slow':
    case 'stall':
    case 'cut':
    case 'slow_stream':
      return { value: plan.content ?? '{}', truncated: false };
    case 'chunked':
      return { value: plan.content, truncated: false };
    case 'truncated':
      return { value: plan.content.slice(0, Math.ceil(plan.content.length / 2)), truncated: true };
    case 'malformed':
      return { value: plan.content ?? '{"answer": "unfinished', truncated: false };
    case 'prose':
      return { value: `Sure! Here is my answer:\n${plan.content}\nLet me know if you need anything else.`, truncated: false };
    default:
      return { value: '', truncated: false };
  }
}

function promptText(body: any): string {
  const parts: string[] = [];
  if (typeof body?.system === 'string') parts.push(body.system);
  for (const m of Array.isArray(body?.messages) ? body.messages : []) {
    if (typeof m?.content === 'string') parts.push(m.content);
  }
  return parts.join('\n');
}

/** Default token counts when a plan gives none: ⌈characters / 4⌉ of prompt and answer. */
function defaultUsage(prompt: string, answer: string): FakeUsage {
  return { input: Math.ceil(prompt.length / 4), output: Math.ceil(answer.length / 4) };
}

function retryHeaders(plan: { retryAfterSeconds?: number; retryAfterMs?: number; headers?: Record<string, string> }): Record<string, string> {
  const h: Record<string, string> = { ...(plan.headers ?? {}) };
  if (plan.retryAfterSeconds !== undefined) h['retry-after'] = String(plan.retryAfterSeconds);
  if (plan.retryAfterMs !== undefined) h['retry-after-ms'] = String(plan.retryAfterMs);
  return h;
}

function anthropicErrorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // Anthropic error bodies also carry the request id (https://docs.claude.com/en/api/errors, "Error
  // shapes": `{"type":"error","error":{…},"request_id":"req_…"}`), the value of the request-id header.
  const requestId = res.getHeader('request-id');
  const isAnthropicError = typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'error' && !('request_id' in body);
  if (isAnthropicError && typeof requestId === 'string') body = { ...(body as object), request_id: requestId };
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Minimal multipart/form-data parser: enough for the SDK's file upload (fields and one file). */
function parseMultipart(raw: Buffer, contentType: string): Array<{ name: string; filename?: string; value: string }> {
  const match = contentType.match(/boundary=(?:"([^"]+)"|([^;]+))/i);
  if (!match) return [];
  const boundary = `--${match[1] ?? match[2]}`;
  const text = raw.toString('latin1');
  const parts: Array<{ name: string; filename?: string; value: string }> = [];
  for (const chunk of text.split(boundary)) {
    const sep = chunk.indexOf('\r\n\r\n');
    if (sep < 0) continue;
    const head = chunk.slice(0, sep);
    const name = head.match(/name="([^"]*)"/i)?.[1];
    if (name === undefined) continue;
    const filename = head.match(/filename="([^"]*)"/i)?.[1];
    const value = Buffer.from(chunk.slice(sep + 4).replace(/\r\n$/, ''), 'latin1').toString('utf8');
    parts.push({ name, ...(filename !== undefined ? { filename } : {}), value });
  }
  return parts;
}

/** An error the server sends instead of running a model call. */
interface Refusal {
  status: number;
  body: unknown;
}

const OPENAI_TOKEN_FIELDS = ['max_tokens', 'max_completion_tokens'] as const;

/**
 * Chat Completions request checks, as the real API answers them:
 * - unknown model: 404 `model_not_found` ("The model `x` does not exist or you do not have access to it.");
 * - model served only by the Responses API: 404, `param: "model"`, `code: null`
 *   (body quoted in micz/ThunderAI#570);
 * - output allowance above the cap: 400 `invalid_value`, `param: "max_tokens"` ("max_tokens is too
 *   large: 20480. This model supports at most 16384 completion tokens…", tailcallhq/forgecode#1185);
 * - a token field the model refuses: 400 `unsupported_parameter` ("Unsupported parameter:
 *   'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
 *   devnullvoid/dms-ai-assistant#12);
 * - a parameter the model refuses: 400 `unsupported_parameter` with that param;
 * - Gemini dialect: a `type` array anywhere in the response schema → 400 INVALID_ARGUMENT ("Proto
 *   field is not repeating, cannot start list", Helicone/helicone#5585).
 */
function validateOpenAI(body: any, options: FakeLlmServerOptions): Refusal | null {
  if (options.geminiDialect) {
    const at = findTypeArray(body?.response_format?.json_schema?.schema, 'response_format.json_schema.schema');
    if (at) {
      return {
        status: 400,
        body: { error: { code: 400, message: `Invalid JSON payload received. Unknown name "type" at '${at}': Proto field is not repeating, cannot start list.`, status: 'INVALID_ARGUMENT' } },
      };
    }
  }
  if (!options.models) return null;
  const name = String(body?.model ?? '');
  const model = options.models[name];
  const invalid = (status: number, message: string, param: string | null, code: string | null): Refusal => ({
    status,
    body: { error: { message, type: 'invalid_request_error', param, code } },
  });
  if (!model) return invalid(404, `The model \`${name}\` does not exist or you do not have access to it.`, null, 'model_not_found');
  if (model.responsesOnly) {
    return invalid(404, 'This is not a chat model and thus not supported in the v1/chat/completions endpoint. Did you mean to use v1/completions?', 'model', null);
  }
  for (const field of OPENAI_TOKEN_FIELDS) {
    if (body?.[field] === undefined) continue;
    if (model.refuseTokenFields?.includes(field)) {
      const other = field === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
      return invalid(400, `Unsupported parameter: '${field}' is not supported with this model. Use '${other}' instead.`, field, 'unsupported_parameter');
    }
    if (model.maxOutputTokens !== undefined && body[field] > model.maxOutputTokens) {
      return invalid(
        400,
        `${field} is too large: ${body[field]}. This model supports at most ${model.maxOutputTokens} completion tokens, whereas you provided ${body[field]}.`,
        field,
        'invalid_value',
      );
    }
  }
  for (const param of model.refuseParams ?? []) {
    if (body?.[param] !== undefined) return invalid(400, `Unsupported parameter: '${param}' is not supported with this model.`, param, 'unsupported_parameter');
  }
  return null;
}

/**
 * Messages request checks, as the real API answers them (all `invalid_request_error` unless noted):
 * - unknown model: 404 `not_found_error` "model: <name>";
 * - `max_tokens` above the cap: 400 "max_tokens: N > M, which is the maximum allowed number of output tokens for <model>";
 * - thinking with forced tool use: 400 "Thinking may not be enabled when tool_choice forces tool use."
 *   (https://platform.claude.com/docs/en/build-with-claude/extended-thinking: with thinking only
 *   tool_choice auto/none is supported);
 * - a thinking type the model does not take (adaptive-only models): 400.
 */
function validateAnthropic(body: any, options: FakeLlmServerOptions): Refusal | null {
  const thinking = body?.thinking?.type;
  const thinkingOn = thinking === 'enabled' || thinking === 'adaptive';
  const forced = body?.tool_choice?.type === 'tool' || body?.tool_choice?.type === 'any';
  if (thinkingOn && forced) return { status: 400, body: anthropicErrorBody('invalid_request_error', 'Thinking may not be enabled when tool_choice forces tool use.') };
  if (!options.models) return null;
  const name = String(body?.model ?? '');
  const model = options.models[name];
  if (!model) return { status: 404, body: anthropicErrorBody('not_found_error', `model: ${name}`) };
  if (model.maxOutputTokens !== undefined && body?.max_tokens > model.maxOutputTokens) {
    return {
      status: 400,
      body: anthropicErrorBody('invalid_request_error', `max_tokens: ${body.max_tokens} > ${model.maxOutputTokens}, which is the maximum allowed number of output tokens for ${name}`),
    };
  }
  if (thinking !== undefined && model.thinking && !model.thinking.includes(thinking)) {
    return { status: 400, body: anthropicErrorBody('invalid_request_error', `thinking.type: "${thinking}" is not supported for this model. Use ${model.thinking.map((t) => `"${t}"`).join(' or ')}.`) };
  }
  for (const param of model.refuseParams ?? []) {
    if (body?.[param] !== undefined) return { status: 400, body: anthropicErrorBody('invalid_request_error', `${param}: Extra inputs are not permitted`) };
  }
  return null;
}

/** Path of the first `type: [...]` in a schema, or null. */
function findTypeArray(schema: unknown, path: string): string | null {
  if (schema === null || typeof schema !== 'object') return null;
  if (Array.isArray(schema)) {
    for (let i = 0; i < schema.length; i += 1) {
      const hit = findTypeArray(schema[i], `${path}[${i}]`);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (k === 'type' && Array.isArray(v)) return path;
    const hit = findTypeArray(v, `${path}.${k}`);
    if (hit) return hit;
  }
  return null;
}

/**
 * A Message as the server-sent events of a streamed response (message_start, content blocks with
 * text_delta / input_json_delta / thinking_delta, message_delta with stop_reason and usage,
 * message_stop) — the event sequence in https://platform.claude.com/docs/en/build-with-claude/streaming.
 */
function sendAnthropicStream(res: ServerResponse, message: Record<string, any>, gapMs = 0, later: (ms: number, fn: () => void) => void = (_ms, fn) => fn()): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  // With gapMs, each event is written gapMs after the previous one (a slow but live stream).
  const queue: string[] = [];
  const event = (type: string, data: unknown) => queue.push(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  const { content, stop_reason, stop_sequence, usage, ...rest } = message;
  event('message_start', { type: 'message_start', message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  (content as any[]).forEach((block, index) => {
    if (block.type === 'text') {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      const half = Math.ceil(block.text.length / 2);
      for (const piece of [block.text.slice(0, half), block.text.slice(half)]) {
        if (piece !== '') event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      }
    } else if (block.type === 'tool_use') {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    } else if (block.type === 'thinking') {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    }
    event('content_block_stop', { type: 'content_block_stop', index });
  });
  event('message_delta', { type: 'message_delta', delta: { stop_reason, stop_sequence, stop_details: message['stop_details'] ?? null }, usage });
  event('message_stop', { type: 'message_stop' });
  if (gapMs <= 0) {
    for (const text of queue) res.write(text);
    res.end();
    return;
  }
  const next = (i: number) => {
    if (res.destroyed || res.writableEnded) return;
    if (i >= queue.length) return void res.end();
    res.write(queue[i]!);
    later(gapMs, () => next(i + 1));
  };
  next(0);
}
