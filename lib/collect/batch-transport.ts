import type { BatchStatus } from './providers/batch';
import type { CompletionRequest, CompletionResult, ProviderError } from '../provider/contract';

/**
 * The interface the collector's batch transport (batch-mode.ts) calls a provider batch API through.
 * The collector owns everything else — the ledger (batches.jsonl), custom_id mapping, polling,
 * matching results, retries in follow-up batches, the circuit breaker — so a provider module only
 * translates these four calls to its SDK and imports nothing from the collector but these types.
 *
 * Implementations: lib/collect/providers/openai-batch.ts and anthropic-batch.ts (their `BatchClient`
 * has this shape). The status types live with the providers (providers/batch.ts: `BatchStatus` with
 * `errors`, the `failure` plan of a failed batch, `cancelledByUser`) and are re-exported here; the
 * collector acts on them: `failure.split` / `retry_later` → smaller follow-up batches (after the
 * wait), `failure.stop` → the run fails with the remedy, cancelled → cells held until
 * --resubmit-cancelled. Each method makes single attempts (no SDK retries) and throws
 * ProviderError (errorClass as for live calls) on a transport failure; the collector retries.
 */

export type { BatchError, BatchFailurePlan, BatchState, BatchStatus } from './providers/batch';

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
