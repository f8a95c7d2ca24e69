import type { CompletionRequest, CompletionResult, ProviderError } from './providers/types';

/**
 * The interface the collector's batch transport (batch-mode.ts) calls a provider batch API through.
 * The collector owns everything else — the ledger (batches.jsonl), custom_id mapping, polling,
 * matching results, retries in follow-up batches, the circuit breaker — so a provider module only
 * translates these four calls to its SDK and imports nothing from the collector but these types.
 *
 * Implementations: lib/collect/providers/openai-batch.ts and anthropic-batch.ts (their `BatchClient`
 * has exactly this shape). Each method makes single attempts (no SDK retries) and throws
 * ProviderError (errorClass as for live calls) on a transport failure; the collector retries.
 */

/** Provider-neutral batch state. `done` is true for every state but `in_progress`. */
export type BatchState = 'in_progress' | 'completed' | 'failed' | 'expired' | 'cancelled';

export interface BatchStatus {
  batchId: string;
  state: BatchState;
  done: boolean;
  /** The provider's own status word (`validating`, `finalizing`, `ended`, …). */
  providerStatus: string;
  counts: { total: number; succeeded: number; failed: number; pending: number };
  /**
   * Why the batch as a whole failed, as the provider reports it (OpenAI `batch.errors.data`: code,
   * message, line). Optional; the collector records it and, for a `failed` batch, splits it.
   */
  errors?: ReadonlyArray<{ code?: string | null; message: string; line?: number | null }>;
}

export interface BatchTransport {
  readonly provider: 'openai' | 'anthropic';
  readonly model: string;
  /** Submits the requests (`runId` of each = its custom_id, unique, already provider-conforming); returns the batch ID. */
  submitBatch(requests: readonly CompletionRequest[]): Promise<string>;
  pollBatch(batchId: string): Promise<BatchStatus>;
  /**
   * Every result the provider returned, keyed by custom_id. Requests missing from the map got no
   * result (the batch failed, expired or was cancelled before them).
   */
  fetchBatchResults(batchId: string): Promise<Map<string, CompletionResult | ProviderError>>;
  /** Every setting that defines a cell sent through this client (API, sampling, effort, thinking, cap). */
  settings?(): Record<string, unknown>;
}
