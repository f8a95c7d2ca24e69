/**
 * Batch mode for large studies: OpenAI Batch API and Anthropic Message Batches. Requests go up in one
 * submission with `custom_id` = run ID; results come back unordered and are matched by custom_id.
 * Like the live providers, each helper makes single attempts (no SDK retries) and throws
 * ProviderError on transport failures. This module holds the provider-neutral contract;
 * `createBatchClient` (providers/index.ts) builds a client, and the SDK is required only then.
 */
import { InputError } from '../../errors';
import type { Catalogue } from './catalogue';
import type { ModelOptions } from './endpoints';
import type { ModelSettings } from './model-settings';
import { parseModelSpec, type CompletionRequest, type CompletionResult, type ProviderError } from '../../provider/contract';

/** Provider-neutral batch state. `done` is true for every state but `in_progress`. */
export type BatchState = 'in_progress' | 'completed' | 'failed' | 'expired' | 'cancelled';

export interface BatchStatus {
  batchId: string;
  state: BatchState;
  done: boolean;
  /** The provider's own status word (`validating`, `finalizing`, `ended`, …). */
  providerStatus: string;
  counts: { total: number; succeeded: number; failed: number; pending: number };
  /** The batch-level errors the provider reported (OpenAI `batch.errors.data`), e.g. `token_limit_exceeded`. */
  errors?: BatchError[];
  /** For a `failed` batch: what to do with its requests (never "mark them missing"). */
  failure?: BatchFailurePlan;
  /** True when someone cancelled the batch (API or dashboard): its unfinished items stay unsent until the user asks. */
  cancelledByUser?: boolean;
}

/** One batch-level error: OpenAI `{code, message, line, param}`. */
export interface BatchError {
  code: string;
  message: string;
  line?: number;
  param?: string;
}

/**
 * What to do with the requests of a batch that failed as a whole:
 * - `retry_later`: the provider refused the batch for now (OpenAI `token_limit_exceeded`: "Enqueued
 *   token limit reached … try again once some in_progress batches have been completed",
 *   openai/openai-python#2084); submit again after `retryAfterMs`, split into `parts` if > 1;
 * - `split`: the batch was too large as a whole (file size, request count); submit it in `parts`;
 * - `stop`: the requests themselves are wrong (bad model, bad line); resubmitting cannot help.
 */
export type BatchFailurePlan =
  | { action: 'retry_later'; parts: number; retryAfterMs: number; code: string; message: string }
  | { action: 'split'; parts: number; code: string; message: string }
  | { action: 'stop'; code: string; message: string; remedy: string };

/** How long to wait before resubmitting a batch refused for its enqueued tokens. */
export const BATCH_RETRY_LATER_MS = 10 * 60_000;

const SIZE_CODES = new Set(['max_file_size_exceeded', 'file_too_large', 'too_many_requests_in_batch', 'max_requests_exceeded', 'request_too_large']);

/**
 * Pure decision for a failed batch from its errors and size: `token_limit_exceeded` on a 40-request
 * batch → retry later in 2 parts; on a 1-request batch → retry later as is; a size code → split in 2
 * (stop when one request is already too big); anything else (e.g. `model_not_found`,
 * `invalid_json_line`) → stop, with the first error's message and line.
 * @example
 * const plan = (code: string, n: number) => { const p = planFailedBatch([{ code, message: 'm', line: 3 }], n) as any; return [p.action, p.parts ?? null]; };
 * plan('token_limit_exceeded', 40); // => ['retry_later', 2]
 * plan('token_limit_exceeded', 1); // => ['retry_later', 1]
 * plan('max_file_size_exceeded', 40); // => ['split', 2]
 * plan('max_file_size_exceeded', 1); // => ['stop', null]
 * (planFailedBatch([{ code: 'model_not_found', message: 'no such model', line: 3 }], 40) as any).message; // => 'no such model (input line 3)'
 */
export function planFailedBatch(errors: readonly BatchError[], requestCount: number): BatchFailurePlan {
  const first = errors[0] ?? { code: 'batch_failed', message: 'the batch failed without an error list' };
  const token = errors.find((e) => e.code === 'token_limit_exceeded');
  if (token) return { action: 'retry_later', parts: requestCount > 1 ? 2 : 1, retryAfterMs: BATCH_RETRY_LATER_MS, code: token.code, message: token.message };
  const size = errors.find((e) => SIZE_CODES.has(e.code));
  if (size && requestCount > 1) return { action: 'split', parts: 2, code: size.code, message: size.message };
  const where = first.line !== undefined ? ` (input line ${first.line})` : '';
  return {
    action: 'stop',
    code: first.code,
    message: `${first.message}${where}`,
    remedy: 'the batch input itself was refused: fix the model or settings named in the message (the pre-flight checks them) and run again',
  };
}

export interface BatchClient {
  readonly provider: 'openai' | 'anthropic';
  readonly model: string;
  /** Submits the requests (run IDs must be unique) and returns the provider's batch ID. */
  submitBatch(requests: readonly CompletionRequest[]): Promise<string>;
  pollBatch(batchId: string): Promise<BatchStatus>;
  /**
   * Every result the provider returned, keyed by custom_id (= run ID). Requests missing from the map
   * got no result (e.g. the batch failed validation) and must be sent again. InputError if the
   * batch has not finished.
   */
  fetchBatchResults(batchId: string): Promise<Map<string, CompletionResult | ProviderError>>;
}

export interface CreateBatchClientOptions {
  baseUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Per-model options (--models-file entry), as for live calls. */
  model?: ModelOptions;
  catalogue?: Catalogue;
  /** Timeout of each management call (upload, create, poll, download); default 120 s. */
  timeoutMs?: number;
}

const ANTHROPIC_CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The providers with a batch API (OpenAI Batch API, Anthropic Message Batches). */
export const BATCH_PROVIDERS: ReadonlyArray<string> = ['openai', 'anthropic'];

/**
 * The one batch-model check (`--batch`, `collect` and `psi collect`, CLI and library, and the batch
 * client factory): the refusal of the first model that has no batch API, or null when every model
 * has one. Simulated and openai-compatible models are cheap or local: they are collected live. The
 * CLI throws it as a usage error (exit 2), the library as an InputError naming the model.
 *
 * @example
 * batchModelRefusal(['openai:gpt-x', 'anthropic:claude-x']); // => null
 * batchModelRefusal(['simulated:sim-a'])?.spec; // => 'simulated:sim-a'
 */
export function batchModelRefusal(models: readonly string[]): { spec: string; message: string } | null {
  for (const spec of models) {
    const { provider } = parseModelSpec(spec);
    if (!BATCH_PROVIDERS.includes(provider)) {
      return { spec, message: `${spec}: --batch works with openai: and anthropic: models only (provider batch APIs); ${provider} models are collected without --batch` };
    }
  }
  return null;
}

/** {@link batchModelRefusal} as an InputError naming the model. */
export function checkBatchModels(models: readonly string[]): void {
  const refusal = batchModelRefusal(models);
  if (refusal) throw new InputError(refusal.message, { item: refusal.spec });
}

/**
 * Checks a batch before anything is uploaded: non-empty, unique run IDs, and (Anthropic) run IDs that
 * are valid custom_ids ([A-Za-z0-9_-]{1,64}). Throws InputError naming the run.
 */
export function checkBatchRequests(provider: 'openai' | 'anthropic', requests: readonly CompletionRequest[]): void {
  if (requests.length === 0) throw new InputError('a batch needs at least one request');
  const seen = new Set<string>();
  for (const r of requests) {
    if (seen.has(r.runId)) throw new InputError(`batch: duplicate run ID ${r.runId}`, { item: r.runId });
    seen.add(r.runId);
    if (provider === 'anthropic' && !ANTHROPIC_CUSTOM_ID.test(r.runId)) {
      throw new InputError(`batch: run ID ${JSON.stringify(r.runId)} is not a valid Anthropic custom_id ([A-Za-z0-9_-]{1,64})`, { item: r.runId });
    }
  }
}

/** Settings type re-exported for the batch transports. */
export type { ModelSettings };
