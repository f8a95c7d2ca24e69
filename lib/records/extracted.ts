import { z } from 'zod';
import { CONDITIONS } from '../conditions';

/**
 * One line of a responses file (`kstbench analyze --responses`): one model response for one cell of the
 * design, with the recommendation already mapped to canonical component IDs. Extra fields are allowed
 * and ignored (collectors add e.g. `simulated`). Read by lib/analysis/responses.ts.
 */
export const ResponseLineSchema = z.object({
  run_id: z.string().min(1),
  model: z.string().min(1),
  domain: z.string().min(1),
  condition: z.enum(CONDITIONS),
  order: z.number().int().min(1),
  state: z.array(z.string()),
  recommended: z.array(z.string()).nullable().optional(),
  status: z.enum(['valid', 'invalid', 'missing']),
  simulated: z.boolean().optional(),
});
export type ResponseLine = z.infer<typeof ResponseLineSchema>;

/**
 * One line of `extracted.jsonl`: the `kstbench analyze --responses` line with `simulated` always present. Written by lib/collect/kst-study.ts, read by
 * `kstbench analyze` through ResponseLineSchema.
 */
export const ExtractedLineSchema = ResponseLineSchema.extend({ simulated: z.boolean() });
export type ExtractedLine = z.infer<typeof ExtractedLineSchema>;
