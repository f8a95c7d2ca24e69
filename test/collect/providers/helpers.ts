/** Shared fixtures of the batch-client tests (openai-batch, anthropic-batch, batch): one planted key, requests, per-run plans. */
import { startFakeLlmServer, type FakeLlmServer, type FakePlan } from '../../support/fake-llm-server';
import type { CompletionRequest } from '../../../lib/collect/providers';

export const KEY = 'sk-planted-BATCH-0123456789abcdef';
export const env = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };
export const schema = { type: 'object', properties: { recommended: { type: 'array', items: { type: 'integer' } } }, required: ['recommended'] };
export const request = (runId: string): CompletionRequest => ({
  runId,
  system: 'sys',
  user: `state for ${runId}`,
  schemaName: 'next_steps',
  jsonSchema: schema,
  maxOutputTokens: 128,
  timeoutMs: 5000,
});
export const runIds = ['r-001', 'r-002', 'r-003', 'r-004', 'r-005'];
export const plans: Record<string, FakePlan> = {
  'r-001': { kind: 'json', content: '{"recommended":[1]}', usage: { input: 11, output: 4 } },
  'r-002': { kind: 'server_error', status: 529 },
  'r-003': { kind: 'expired' },
  'r-004': { kind: 'refusal', message: 'no' },
  'r-005': { kind: 'json', content: '{"recommended":[2,3]}', usage: { input: 12, output: 6 } },
};

/** The fake server answering every batch item by its custom_id from `plans`, done after one poll. */
export function startBatchServer(): Promise<FakeLlmServer> {
  return startFakeLlmServer({ apiKey: KEY, batchPollsBeforeDone: 1, handler: ({ customId }) => plans[customId ?? ''] ?? { kind: 'json', content: '{}' } });
}
