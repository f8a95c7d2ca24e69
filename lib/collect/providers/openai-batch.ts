/**
 * OpenAI Batch API: upload a JSONL file of chat-completion requests (`custom_id` = run ID), create a
 * batch on `/v1/chat/completions` with a 24 h window, poll it, and read the output and error files.
 * The transport only: what to do with a failed or cancelled batch is decided by the collector from
 * `BatchStatus.failure` / `cancelledByUser` (pure functions here and in batch.ts).
 */
import { InputError } from '../../errors';
import { checkBatchRequests, planFailedBatch, type BatchClient, type BatchError, type BatchState, type BatchStatus } from './batch';
import type { ModelSettings } from './model-settings';
import { openAIBatchLine, openAIBatchLineOutcome } from './openai-format';
import { createOpenAIClient, openAISdk, translateOpenAIError } from './openai-provider';
import { ProviderError, type CompletionRequest, type CompletionResult } from '../../provider/contract';

export interface OpenAIBatchClientOptions {
  model: string;
  apiKey: string;
  baseURL: string;
  timeoutMs: number;
  /** Same body settings as live calls (token field, caps, reasoning effort, …). */
  settings?: ModelSettings;
  organization?: string | null;
  project?: string | null;
}

/** The fields of an OpenAI Batch object this module reads. */
export interface OpenAIBatchLike {
  id: string;
  status: string;
  request_counts?: { total: number; completed: number; failed: number } | null;
  errors?: { data?: Array<{ code?: string | null; message?: string | null; line?: number | null; param?: string | null }> | null } | null;
  cancelled_at?: number | null;
  cancelling_at?: number | null;
}

/**
 * A Batch object → provider-neutral status, as a pure function: state, counts, `batch.errors.data`
 * (e.g. `token_limit_exceeded`), the plan for a failed batch (`planFailedBatch`), and whether it was
 * cancelled (a batch is only ever cancelled by its owner, through the API or the dashboard).
 */
export function openAIBatchStatus(batch: OpenAIBatchLike): BatchStatus {
  const state = openAIBatchState(batch.status);
  const counts = batch.request_counts ?? { total: 0, completed: 0, failed: 0 };
  const errors: BatchError[] = (batch.errors?.data ?? []).map((e) => ({
    code: e.code ?? 'batch_error',
    message: e.message ?? '',
    ...(typeof e.line === 'number' ? { line: e.line } : {}),
    ...(typeof e.param === 'string' ? { param: e.param } : {}),
  }));
  const status: BatchStatus = {
    batchId: batch.id,
    state,
    done: state !== 'in_progress',
    providerStatus: batch.status,
    counts: {
      total: counts.total,
      succeeded: counts.completed,
      failed: counts.failed,
      pending: Math.max(0, counts.total - counts.completed - counts.failed),
    },
  };
  if (errors.length > 0) status.errors = errors;
  if (state === 'failed') status.failure = planFailedBatch(errors, counts.total);
  if (state === 'cancelled' || batch.status === 'cancelling') status.cancelledByUser = true;
  return status;
}

/** OpenAI batch `status` → provider-neutral state (`validating`, `finalizing`, `cancelling` are still running). */
export function openAIBatchState(status: string): BatchState {
  switch (status) {
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'expired':
      return 'expired';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'in_progress';
  }
}

export function createOpenAIBatchClient(options: OpenAIBatchClientOptions): BatchClient {
  const client = createOpenAIClient({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    timeoutMs: options.timeoutMs,
    organization: options.organization ?? null,
    project: options.project ?? null,
  });
  const secrets = [options.apiKey];
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw translateOpenAIError(err, 'openai', secrets);
    }
  };

  return {
    provider: 'openai',
    model: options.model,

    async submitBatch(requests: readonly CompletionRequest[]): Promise<string> {
      checkBatchRequests('openai', requests);
      const jsonl = requests.map((r) => openAIBatchLine(options.model, r, options.settings)).join('\n') + '\n';
      const file = await call(async () =>
        client.files.create({ file: await openAISdk().toFile(Buffer.from(jsonl, 'utf8'), 'kstbench-batch.jsonl', { type: 'application/jsonl' }), purpose: 'batch' }),
      );
      const batch = await call(() =>
        client.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' }),
      );
      return batch.id;
    },

    async pollBatch(batchId: string): Promise<BatchStatus> {
      return openAIBatchStatus(await call(() => client.batches.retrieve(batchId)));
    },

    async fetchBatchResults(batchId: string): Promise<Map<string, CompletionResult | ProviderError>> {
      const batch = await call(() => client.batches.retrieve(batchId));
      if (openAIBatchState(batch.status) === 'in_progress') {
        throw new InputError(`batch ${batchId} has not finished (status ${batch.status})`, { item: batchId });
      }
      const results = new Map<string, CompletionResult | ProviderError>();
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (!fileId) continue;
        const text = await call(async () => (await client.files.content(fileId)).text());
        text.split('\n').forEach((raw, i) => {
          if (raw.trim() === '') return;
          let line: unknown;
          try {
            line = JSON.parse(raw);
          } catch {
            throw new ProviderError(`openai: batch file ${fileId} line ${i + 1} is not JSON`, 'server_error');
          }
          const { customId, outcome } = openAIBatchLineOutcome(line, secrets);
          results.set(customId, outcome);
        });
      }
      return results;
    },
  };
}
