import { z } from 'zod';
import { ResponseLineSchema } from '../analysis/responses';

/**
 * One line of `extracted.jsonl`: the `kstbench analyze --responses` line (lib/analysis/responses.ts
 * owns that shape) with `simulated` always present. Written by lib/collect/kst-study.ts, read by
 * `kstbench analyze` through ResponseLineSchema.
 */
export const ExtractedLineSchema = ResponseLineSchema.extend({ simulated: z.boolean() });
export type ExtractedLine = z.infer<typeof ExtractedLineSchema>;
