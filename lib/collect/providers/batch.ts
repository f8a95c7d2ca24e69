/**
 * Batch mode for large studies: OpenAI Batch API and Anthropic Message Batches. Requests go up in one
 * submission with `custom_id` = run ID; results come back unordered and are matched by custom_id.
 * Like the live providers, each helper makes single attempts (no SDK retries) and throws
 * ProviderError on transport failures; the SDK is required only when a batch client is created.
 */
import { InputError } from '../../errors';
import { checkBaseUrl, requireEnvKey } from './attempt';
import { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_OPENAI_BASE_URL } from './defaults';
import { parseModelSpec, type CompletionRequest, type CompletionResult, type ProviderError } from './types';

/** Provider-neutral batch state. `done` is true for every state but `in_progress`. */
export type BatchState = 'in_progress' | 'completed' | 'failed' | 'expired' | 'cancelled';

export interface BatchStatus {
  batchId: string;
  state: BatchState;
  done: boolean;
  /** The provider's own status word (`validating`, `finalizing`, `ended`, …). */
  providerStatus: string;
  counts: { total: number; succeeded: number; failed: number; pending: number };
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
  /** Timeout of each management call (upload, create, poll, download); default 120 s. */
  timeoutMs?: number;
}

const ANTHROPIC_CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

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

/** Batch client for `openai:<model>` or `anthropic:<model>`; keys from the environment as for live calls. */
export function createBatchClient(spec: string, options: CreateBatchClientOptions = {}): BatchClient {
  const { provider, model } = parseModelSpec(spec);
  const env = options.env ?? process.env;
  const baseURL = options.baseUrl !== undefined ? checkBaseUrl(options.baseUrl, spec) : undefined;
  const timeoutMs = options.timeoutMs ?? 120_000;
  if (provider === 'openai') {
    const apiKey = requireEnvKey(env, 'OPENAI_API_KEY', spec);
    const mod: typeof import('./openai-batch') = require('./openai-batch');
    return mod.createOpenAIBatchClient({ model, apiKey, baseURL: baseURL ?? DEFAULT_OPENAI_BASE_URL, timeoutMs });
  }
  if (provider === 'anthropic') {
    const apiKey = requireEnvKey(env, 'ANTHROPIC_API_KEY', spec);
    const mod: typeof import('./anthropic-batch') = require('./anthropic-batch');
    return mod.createAnthropicBatchClient({ model, apiKey, baseURL: baseURL ?? DEFAULT_ANTHROPIC_BASE_URL, timeoutMs });
  }
  throw new InputError(`${spec}: batch mode is available for openai and anthropic models only`, { item: spec });
}
