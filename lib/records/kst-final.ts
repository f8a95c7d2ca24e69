import { z } from 'zod';
import { CONDITIONS } from '../conditions';

/**
 * One final record of the KST study in `responses.jsonl` (written by lib/collect/kst-study.ts through
 * the lifecycle, read by resume, extracted.jsonl and the scoring reports). Field meanings are in
 * lib/collect/README.md. `settings` (what defines the cell beyond the prompt: API, sampling,
 * reasoning effort, thinking, output cap) is present when the provider reports it; batch records add
 * batch_id and custom_id; a record written by --retry-missing has supersedes_missing.
 */
export const KstFinalRecordSchema = z.looseObject({
  run_id: z.string().min(1),
  model: z.string().min(1),
  provider: z.string().min(1),
  simulated: z.boolean(),
  domain: z.string().min(1),
  state: z.array(z.string()),
  condition: z.enum(CONDITIONS),
  order: z.number().int().min(1),
  presentation_seed: z.unknown(),
  prompt: z.object({ system: z.string(), user: z.string() }),
  prompt_sha256: z.string(),
  schema_name: z.string(),
  status: z.enum(['valid', 'invalid', 'missing']),
  reason: z.string().nullable(),
  detail: z.unknown(),
  raw_text: z.string().nullable(),
  parsed: z.unknown(),
  recommended: z.array(z.string()).nullable(),
  recommended_positions: z.array(z.number()).nullable(),
  prerequisites: z.array(z.tuple([z.string(), z.string()])).nullable(),
  model_version: z.string().nullable(),
  finish_reason: z.string().nullable(),
  usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number() }).nullable(),
  cost_usd: z.number().nullable(),
  cost_note: z.string().nullable(),
  attempts: z.number().int().min(1),
  settings: z.record(z.string(), z.unknown()).optional(),
  batch_id: z.string().optional(),
  custom_id: z.string().optional(),
  supersedes_missing: z.literal(true).optional(),
  completed_at: z.string().nullable(),
});
export type KstFinalRecord = z.infer<typeof KstFinalRecordSchema>;
