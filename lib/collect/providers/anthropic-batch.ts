/**
 * Anthropic Message Batches: create with one `{ custom_id: runId, params }` per request, poll
 * `processing_status`, then stream the JSONL results from `results_url`.
 */
import { InputError } from '../../errors';
import { anthropicBatchItemOutcome, anthropicMessageBody } from './anthropic-format';
import { createAnthropicClient, translateAnthropicError } from './anthropic-provider';
import { checkBatchRequests, type BatchClient, type BatchStatus } from './batch';
import type { ModelSettings } from './model-settings';
import type { CompletionRequest, CompletionResult, ProviderError } from '../../provider/contract';

export interface AnthropicBatchClientOptions {
  model: string;
  apiKey: string;
  baseURL: string;
  timeoutMs: number;
  /** Same body settings as live calls (thinking, effort, structured-output mode, caps). */
  settings?: ModelSettings;
}

/** The fields of a Message Batch this module reads. */
export interface AnthropicBatchLike {
  id: string;
  processing_status: string;
  cancel_initiated_at?: string | null;
  request_counts: { processing: number; succeeded: number; errored: number; canceled: number; expired: number };
}

/**
 * A Message Batch → provider-neutral status, as a pure function. A batch whose cancellation was
 * initiated (`cancel_initiated_at`) is cancelled by its owner and stays so: `cancelledByUser`, and
 * its `canceled` items come back as deterministic `batch_cancelled` errors.
 */
export function anthropicBatchStatus(batch: AnthropicBatchLike): BatchStatus {
  const c = batch.request_counts;
  const failed = c.errored + c.canceled + c.expired;
  const ended = batch.processing_status === 'ended';
  const cancelled = !!batch.cancel_initiated_at;
  return {
    batchId: batch.id,
    state: !ended ? 'in_progress' : cancelled ? 'cancelled' : 'completed',
    done: ended,
    providerStatus: batch.processing_status,
    counts: { total: c.processing + c.succeeded + failed, succeeded: c.succeeded, failed, pending: c.processing },
    ...(cancelled ? { cancelledByUser: true } : {}),
  };
}

export function createAnthropicBatchClient(options: AnthropicBatchClientOptions): BatchClient {
  const client = createAnthropicClient({ apiKey: options.apiKey, baseURL: options.baseURL, timeoutMs: options.timeoutMs });
  const secrets = [options.apiKey];
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw translateAnthropicError(err, secrets);
    }
  };

  return {
    provider: 'anthropic',
    model: options.model,

    async submitBatch(requests: readonly CompletionRequest[]): Promise<string> {
      checkBatchRequests('anthropic', requests);
      const batch = await call(() =>
        client.messages.batches.create({
          requests: requests.map((r) => ({ custom_id: r.runId, params: anthropicMessageBody(options.model, r, options.settings) })),
        }),
      );
      return batch.id;
    },

    async pollBatch(batchId: string): Promise<BatchStatus> {
      return anthropicBatchStatus(await call(() => client.messages.batches.retrieve(batchId)));
    },

    async fetchBatchResults(batchId: string): Promise<Map<string, CompletionResult | ProviderError>> {
      const batch = await call(() => client.messages.batches.retrieve(batchId));
      if (batch.processing_status !== 'ended') {
        throw new InputError(`batch ${batchId} has not finished (status ${batch.processing_status})`, { item: batchId });
      }
      return call(async () => {
        const results = new Map<string, CompletionResult | ProviderError>();
        for await (const item of await client.messages.batches.results(batchId)) {
          const { customId, outcome } = anthropicBatchItemOutcome(item, secrets);
          results.set(customId, outcome);
        }
        return results;
      });
    },
  };
}
