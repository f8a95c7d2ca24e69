import type { BatchClient } from './providers/batch';

/**
 * The interface the collector's batch transport (batch-mode.ts) calls a provider batch API through.
 * The collector owns everything else — the ledger (batches.jsonl), custom_id mapping, polling,
 * matching results, retries in follow-up batches, the circuit breaker — so a provider module only
 * translates these four calls to its SDK and imports nothing from the collector but these types.
 *
 * Implementations: lib/collect/providers/openai-batch.ts and anthropic-batch.ts: the providers'
 * `BatchClient` (submit, poll, fetch), plus the settings that define a cell. The status types live
 * with the providers (providers/batch.ts: `BatchStatus` with `errors`, the `failure` plan of a failed
 * batch, `cancelledByUser`) and are re-exported here; the
 * collector acts on them: `failure.split` / `retry_later` → smaller follow-up batches (after the
 * wait), `failure.stop` → the run fails with the remedy, cancelled → cells held until
 * --resubmit-cancelled. Each method makes single attempts (no SDK retries) and throws
 * ProviderError (errorClass as for live calls) on a transport failure; the collector retries.
 */

export type { BatchError, BatchFailurePlan, BatchState, BatchStatus } from './providers/batch';

export interface BatchTransport extends BatchClient {
  /** Every setting that defines a cell sent through this client (API, sampling, effort, thinking, cap). */
  settings?(): Record<string, unknown>;
}
