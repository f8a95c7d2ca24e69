/**
 * The zod schema of data/published/kst-benchmark-2026.json: the KST benchmark paper's printed numbers
 * (Steiner & Hochweber, 2026) and its claims ledger. Read with parsePublishedKst / loadPublishedKst;
 * everything that uses the published numbers takes the inferred type `PublishedKst`.
 */
import { z } from 'zod';
import { parseJsonFile } from '../io/json';
import { ClaimEntrySchema, loadPublishedFile, refineClaims } from './published-claims';

const where = z.string().min(1);
const count = z.number().int().nonnegative();
const percent = z.number().min(-100).max(100);
const rankedCell = z.tuple([percent, z.number().int().min(1)]);

export const PublishedKstSchema = z
  .strictObject({
    paper: z.string(),
    note: z.string(),
    design: z.strictObject({
      where,
      states: count,
      conditions: count,
      models: count,
      orders: count,
      calls: count,
      /** §4.3: "within each model, the 400 study calls". */
      calls_per_model: count,
      /** §4.4: bootstrap resamples of the 50 states, sign flips of the randomization test. */
      bootstrap_resamples: count,
      sign_flips: count,
      /** §4.2: the true outer fringe was in no prompt. */
      fringe_never_in_prompt: z.boolean(),
      /** §4.3: positions, never canonical IDs, in every prompt. */
      positions_only: z.boolean(),
      /** §4.3: two fixed permutations per domain, reused across states, conditions and models. */
      orders_reused: z.boolean(),
    }),
    table1: z.strictObject({
      where,
      rows: z.array(z.strictObject({ domain: z.string(), label: z.string(), components: count, states: count, terminal_states: count })),
      total: z.strictObject({ components: count, states: count, terminal_states: count }),
    }),
    table3: z.strictObject({
      where,
      rows: z.array(
        z.strictObject({ condition: z.enum(['P0', 'P1', 'P2', 'P3']), n: count, exact: percent, precision: percent, recall: percent, f1: percent, jaccard: percent }),
      ),
    }),
    overall: z.strictObject({
      where, n: count, exact: percent, precision: percent, recall: percent, f1: percent, jaccard: percent, terminal_responses: count, terminal_correct: count,
    }),
    table4: z.strictObject({
      where,
      n_per_cell: count,
      rows: z.array(z.strictObject({ model: z.string(), P0: rankedCell, P1: rankedCell, P2: rankedCell, P3: rankedCell })),
      model_average_range: z.strictObject({ where, low: percent, high: percent }),
      /** §4.5.2: the range of exact accuracy across the four conditions, in percentage points. */
      condition_spread: percent,
    }),
    domains: z.strictObject({
      where,
      overall_exact: z.record(z.string(), percent),
      domain_condition_exact: z.record(z.string(), z.strictObject({ P0: percent, P1: percent, P2: percent, P3: percent })),
      condition_range: z.strictObject({ P2: z.tuple([percent, percent]), P3: z.tuple([percent, percent]) }),
    }),
    figure3: z.strictObject({
      where,
      domain: z.string(),
      condition: z.enum(['P0', 'P1', 'P2', 'P3']),
      n: count,
      correct: z.record(z.string(), count),
      /** Responses between the best and the worst model. */
      spread_responses: count,
    }),
    p1_by_domain: z.strictObject({
      where,
      leaders: z.record(z.string(), z.tuple([z.string(), percent])),
      'equation-to-graph_models_at_100': count,
    }),
    /** Yes/no and counting statements of the results text (each the printed value of one claim). */
    statements: z.strictObject({ where }).catchall(z.union([z.boolean(), count])),
    contrasts: z.strictObject({
      where,
      rows: z.array(
        z.strictObject({
          contrast: z.string(),
          metric: z.enum(['exact', 'f1']),
          estimate: z.number(),
          ci_low: z.number().optional(),
          ci_high: z.number().optional(),
          p_holm: z.number().optional(),
          p_holm_below: z.number().optional(),
        }),
      ),
      recall_p1_minus_p0: z.number(),
    }),
    order_agreement: z.strictObject({ where, pairs: count, exact_agreement: percent, mean_jaccard: percent, one_in_differs: count }),
    collection: z.strictObject({ where, cost_usd: z.number(), valid: count, truncated: count, missing: count, quota_delayed_cells: count }),
    claims: z.array(ClaimEntrySchema),
  })
  .superRefine(refineClaims);
export type PublishedKst = z.infer<typeof PublishedKstSchema>;

/** Parses the KST published-numbers file; InputError naming the file and every offending field. */
export function parsePublishedKst(text: string, file: string): PublishedKst {
  return parseJsonFile(text, file, PublishedKstSchema);
}

/** Reads and parses the KST published-numbers file (OS errors name the file). */
export function loadPublishedKst(file: string): PublishedKst {
  return loadPublishedFile(file, PublishedKstSchema);
}
