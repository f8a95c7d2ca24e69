/**
 * A fake OpenAI + Anthropic HTTP server for tests, good enough for the official SDKs:
 * - OpenAI: `POST /v1/chat/completions`, `POST /v1/files` (multipart), `GET /v1/files/:id`,
 *   `GET /v1/files/:id/content`, `POST /v1/batches`, `GET /v1/batches/:id`, `POST /v1/batches/:id/cancel`
 *   (each also without the `/v1` prefix, so one base URL serves both SDKs);
 * - Anthropic: `POST /v1/messages`, `POST /v1/messages/batches`, `GET /v1/messages/batches/:id`,
 *   `GET /v1/messages/batches/:id/results`.
 * Every model call (live or batch item) asks a programmable handler for a plan: a normal answer, an
 * HTTP fault, a reset connection, a slow or stalled response, a truncated/malformed/prose answer, or
 * a refusal. Listens on 127.0.0.1 with a random port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type FakeApi = 'openai' | 'anthropic';

export interface FakeUsage {
  input: number;
  output: number;
}

/** What the server does for one model call. `content` is the answer text (JSON for a normal answer). */
export type FakePlan =
  | { kind: 'json'; content: string; model?: string; usage?: FakeUsage }
  | { kind: 'rate_limit'; retryAfterSeconds?: number; retryAfterMs?: number }
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
  /** Cut-off answer: OpenAI finish_reason 'length', Anthropic stop_reason 'max_tokens'; text is the first half of `content`. */
  | { kind: 'truncated'; content: string; usage?: FakeUsage }
  /** Text that is not valid JSON (default: an unterminated object). Anthropic: a text block instead of the tool call. */
  | { kind: 'malformed'; content?: string }
  /** Valid JSON wrapped in prose. Anthropic: a text block instead of the tool call. */
  | { kind: 'prose'; content: string }
  /** OpenAI `message.refusal`; Anthropic `stop_reason: 'refusal'` with `stop_details.explanation`. */
  | { kind: 'refusal'; message?: string }
  /** Batch items only: the request expired before it ran (live calls answer 500). */
  | { kind: 'expired' };

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
    if (method === 'POST' && openaiPath === '/chat/completions') return openaiChat(res, body);
    if (method === 'POST' && openaiPath === '/files') return openaiFileCreate(res, raw, contentType);
    if (method === 'GET' && (m = openaiPath.match(/^\/files\/([^/]+)\/content$/))) return openaiFileContent(res, m[1]!);
    if (method === 'GET' && (m = openaiPath.match(/^\/files\/([^/]+)$/))) return openaiFileGet(res, m[1]!);
    if (method === 'POST' && openaiPath === '/batches') return openaiBatchCreate(res, body);
    if (method === 'GET' && (m = openaiPath.match(/^\/batches\/([^/]+)$/))) return openaiBatchGet(res, m[1]!);
    if (method === 'POST' && (m = openaiPath.match(/^\/batches\/([^/]+)\/cancel$/))) return openaiBatchCancel(res, m[1]!);
    if (api === 'anthropic') return sendJson(res, 404, anthropicErrorBody('not_found_error', `no route ${method} ${path}`));
    return sendJson(res, 404, { error: { message: `no route ${method} ${path}`, type: 'invalid_request_error', code: 'unknown_url' } });
  }

  function authorised(api: FakeApi, headers: Record<string, string>, res: ServerResponse): boolean {
    // OpenAI: Bearer. Anthropic: x-api-key, or Bearer as recent SDK versions send the API key.
    const bearer = (headers['authorization'] ?? '').replace(/^Bearer\s+/i, '');
    const sent = api === 'openai' ? bearer : headers['x-api-key'] || bearer;
    if (sent === '' || (options.apiKey !== undefined && sent !== options.apiKey)) {
      if (api === 'openai') {
        sendJson(res, 401, { error: { message: `Incorrect API key provided: ${sent}.`, type: 'invalid_request_error', code: 'invalid_api_key' } });
      } else {
        sendJson(res, 401, anthropicErrorBody('authentication_error', `invalid x-api-key: ${sent}`));
      }
      return false;
    }
    return true;
  }

  // ---------- OpenAI ----------

  async function openaiChat(res: ServerResponse, body: any): Promise<void> {
    const { plan, count } = await nextPlan('openai', body);
    deliver(res, plan, (p) => openaiAnswer(body, p, count), (p) => openaiFailure(p));
  }

  function openaiFailure(plan: FakePlan): { status: number; headers: Record<string, string>; body: unknown } | null {
    switch (plan.kind) {
      case 'rate_limit':
        return {
          status: 429,
          headers: retryHeaders(plan),
          body: { error: { message: 'Rate limit reached for requests per min (RPM).', type: 'requests', code: 'rate_limit_exceeded' } },
        };
      case 'quota':
        return {
          status: 429,
          headers: {},
          body: {
            error: {
              message: 'You exceeded your current quota, please check your plan and billing details.',
              type: 'insufficient_quota',
              code: 'insufficient_quota',
            },
          },
        };
      case 'server_error':
        return { status: plan.status ?? 500, headers: {}, body: { error: { message: 'The server had an error while processing your request.', type: 'server_error', code: null } } };
      case 'auth':
        return { status: 401, headers: {}, body: { error: { message: 'Invalid authentication.', type: 'invalid_request_error', code: 'invalid_api_key' } } };
      case 'client_error':
        return { status: plan.status ?? 400, headers: {}, body: { error: { message: plan.message ?? 'Invalid request.', type: 'invalid_request_error', code: null } } };
      case 'expired':
        return { status: 500, headers: {}, body: { error: { message: 'expired', type: 'server_error', code: null } } };
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
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  }

  function openaiFileCreate(res: ServerResponse, raw: Buffer, contentType: string): void {
    const parts = parseMultipart(raw, contentType);
    const file = parts.find((p) => p.name === 'file');
    if (!file) return sendJson(res, 400, { error: { message: 'missing file part', type: 'invalid_request_error', code: null } });
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
    if (!f) return sendJson(res, 404, { error: { message: `no file ${id}`, type: 'invalid_request_error', code: null } });
    sendJson(res, 200, fileObject(f));
  }

  function openaiFileContent(res: ServerResponse, id: string): void {
    const f = files.get(id);
    if (!f) return sendJson(res, 404, { error: { message: `no file ${id}`, type: 'invalid_request_error', code: null } });
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end(f.content);
  }

  function openaiBatchCreate(res: ServerResponse, body: any): void {
    const input = files.get(body?.input_file_id);
    if (!input) return sendJson(res, 400, { error: { message: `unknown input_file_id ${body?.input_file_id}`, type: 'invalid_request_error', code: null } });
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
    };
    openaiBatches.set(id, state);
    sendJson(res, 200, openaiBatchObject(state));
  }

  async function openaiBatchGet(res: ServerResponse, id: string): Promise<void> {
    const state = openaiBatches.get(id);
    if (!state) return sendJson(res, 404, { error: { message: `no batch ${id}`, type: 'invalid_request_error', code: null } });
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
    if (!state) return sendJson(res, 404, { error: { message: `no batch ${id}`, type: 'invalid_request_error', code: null } });
    if (state.status !== 'completed') state.status = 'cancelled';
    sendJson(res, 200, openaiBatchObject(state));
  }

  async function runOpenAIBatch(state: OpenAIBatchState): Promise<void> {
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
      errors: null,
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
    const { plan, count } = await nextPlan('anthropic', body);
    deliver(res, plan, (p) => anthropicAnswer(body, p, count), (p) => anthropicFailure(p));
  }

  function anthropicFailure(plan: FakePlan): { status: number; headers: Record<string, string>; body: unknown } | null {
    switch (plan.kind) {
      case 'rate_limit':
        return { status: 429, headers: retryHeaders(plan), body: anthropicErrorBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.') };
      case 'quota':
        return { status: 429, headers: {}, body: anthropicErrorBody('rate_limit_error', 'You have reached your monthly usage limit for this organization.') };
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
      if (plan.kind === 'json' || plan.kind === 'slow' || plan.kind === 'stall') {
        try {
          input = JSON.parse(text.value);
          parsed = input !== null && typeof input === 'object' && !Array.isArray(input);
        } catch {
          parsed = false;
        }
      }
      if (parsed) {
        content = [{ type: 'tool_use', id: `toolu_fake_${count}`, name: toolName, input }];
        stopReason = 'tool_use';
      } else content = [{ type: 'text', text: text.value }];
    }
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
      usage: { input_tokens: usage.input, output_tokens: usage.output, cache_creation_input_tokens: null, cache_read_input_tokens: null },
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
      cancel_initiated_at: null,
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
  status: 'validating' | 'in_progress' | 'completed' | 'cancelled';
  outputFileId: string | null;
  errorFileId: string | null;
  counts: { total: number; completed: number; failed: number };
}

interface AnthropicBatchState {
  id: string;
  requests: Array<{ custom_id: string; params: any }>;
  pollsLeft: number;
  ended: boolean;
  results: Array<{ custom_id: string; result: any }>;
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
      return { value: plan.content ?? '{}', truncated: false };
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

function retryHeaders(plan: { retryAfterSeconds?: number; retryAfterMs?: number }): Record<string, string> {
  const h: Record<string, string> = {};
  if (plan.retryAfterSeconds !== undefined) h['retry-after'] = String(plan.retryAfterSeconds);
  if (plan.retryAfterMs !== undefined) h['retry-after-ms'] = String(plan.retryAfterMs);
  return h;
}

function anthropicErrorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
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
