import { z } from 'zod';

/**
 * `run.json` of a collection directory (written by lib/collect/lifecycle.ts, read by it on resume and
 * by anyone auditing a run). Study-specific parameters (`params`, `design`, …) pass through; the
 * fields every run has are checked.
 * - status: `running` while the collector works (found on start = the previous process died),
 *   then `complete | incomplete | quota_stopped | interrupted | failed` (`incomplete`: some cells are `missing`);
 * - fingerprint: the design-defining parameters, compared on resume;
 * - result (absent while running): counts of this run, and with `failed` the reason and remedy.
 */
export const RUN_STATUSES = ['running', 'complete', 'incomplete', 'quota_stopped', 'interrupted', 'failed'] as const;

export const RunResultSchema = z.looseObject({
  total: z.number().int().min(0).optional(),
  resumed: z.number().int().min(0).optional(),
  written: z.record(z.string(), z.number().int().min(0)).optional(),
  pending: z.number().int().min(0).optional(),
  attempts: z.number().int().min(0).optional(),
  cost_usd_this_run: z.number().nullable().optional(),
  reason: z.string().nullable(),
  remedy: z.string().optional(),
});

export const RunFileSchema = z.looseObject({
  fingerprint: z.record(z.string(), z.unknown()),
  status: z.enum(RUN_STATUSES),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable().optional(),
  result: RunResultSchema.optional(),
});
export type RunFile = z.infer<typeof RunFileSchema>;
