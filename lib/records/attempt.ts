import { z } from 'zod';

/**
 * Lines of `attempts.jsonl`, the collector's append-only audit log (written by lib/collect's live and
 * batch transports, read by resume checks and audits).
 * - `attempt`: one API attempt (live) or one batch item (with batch_id, custom_id);
 * - `event`: a transport or lifecycle event (run_start, run_end, circuit_open, batch_poll, …).
 * Timestamps and latencies are null in deterministic (all-simulated) runs.
 */
const UsageSchema = z.looseObject({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  cachedInputTokens: z.number().int().min(0).optional(),
  reasoningTokens: z.number().int().min(0).optional(),
});

export const AttemptLineSchema = z.looseObject({
  type: z.literal('attempt'),
  run_id: z.string().min(1),
  model: z.string().min(1),
  attempt: z.number().int().min(1),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  latency_ms: z.number().nullable(),
  outcome: z.enum(['response', 'error']),
  http_status: z.number().int().nullable(),
  error_class: z.string().nullable(),
  retry_after_ms: z.number().nullable(),
  request_id: z.string().nullable(),
  usage: UsageSchema.nullable(),
  billed_estimate: z.looseObject({ usd: z.number().nullable(), basis: z.string() }).nullable(),
  decision: z.string().optional(),
  batch_id: z.string().optional(),
  custom_id: z.string().optional(),
});
export type AttemptLine = z.infer<typeof AttemptLineSchema>;

export const EventLineSchema = z.looseObject({
  type: z.literal('event'),
  event: z.string().min(1),
  at: z.string().nullable(),
});

export const AttemptsFileLineSchema = z.discriminatedUnion('type', [AttemptLineSchema, EventLineSchema]);
export type AttemptsFileLine = z.infer<typeof AttemptsFileLineSchema>;
