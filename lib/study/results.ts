import { join } from 'node:path';
import { z } from 'zod';
import { CONDITIONS } from '../conditions';
import { InputError } from '../errors';
import { parseJsonFile } from '../io/json';
import { readUtf8File } from '../io/read';
import { PAPER_KEYS, type Study } from './manifest';
import { RepeatSchema } from './repeats';

/**
 * `<output>/analysis/study-results.json`: what `study analyze` computed, read by `study figures` and
 * `study report` (one schema for the writer and both readers). Proportions are in [0, 1].
 */

const Condition = z.enum(CONDITIONS);
const Proportion = z.number().min(0).max(1);
const Nullable = z.number().nullable();

export const GraphSummaryRowSchema = z.object({
  group: z.string(),
  responses: z.int(),
  correct: z.int(),
  'wrong-structure': z.int(),
  inconsistent: z.int(),
  consistent: z.int(),
  implied_correct: z.int(),
  direct_exact: z.int(),
  closure_exact: z.int(),
  cyclic: z.int(),
  direct_precision: z.number(),
  direct_recall: z.number(),
  closure_precision: z.number(),
  closure_recall: z.number(),
});

export const StudyResultsSchema = z.strictObject({
  results_version: z.literal(1),
  title: z.string(),
  /** True when any analysed response comes from a simulated respondent. */
  simulated: z.boolean(),
  replicates: z.array(z.string()),
  counts: z.object({ responses: z.int(), scored: z.int(), valid: z.int(), invalid: z.int(), missing: z.int(), simulated: z.int() }),
  models: z.array(z.string()),
  // states: as Table 1 writes it (countForJson): a number up to 2^53 − 1, above that its decimal digits.
  table1: z.array(z.object({ domain: z.string(), components: z.int(), states: z.union([z.int(), z.string().regex(/^[1-9]\d*$/)]), terminal_states: z.int() })),
  /** States in the design per domain (sampled or all). */
  design_states: z.record(z.string(), z.int()),
  table3: z.array(z.object({ condition: Condition, n: z.int(), exact: Proportion, precision: Proportion, recall: Proportion, f1: Proportion, jaccard: Proportion })),
  table4: z.array(z.object({ model: z.string(), condition: Condition, n: z.int(), exact: Proportion, rank: z.int() })),
  domain_condition: z.array(z.object({ domain: z.string(), condition: Condition, n: z.int(), exact: Proportion })),
  contrasts: z.array(
    z.object({ contrast: z.string(), metric: z.enum(['exact', 'f1']), states: z.int(), estimate: Nullable, ci_low: Nullable, ci_high: Nullable, p: Nullable, p_holm: Nullable, seed: z.string() }),
  ),
  inference: z.object({ seed: z.string(), resamples: z.int(), flips: z.int() }),
  order_agreement: z.object({ pairs: z.int(), exact_agreement: Nullable, mean_jaccard: Nullable }),
  order_agreement_by_model: z.array(z.object({ group: z.string(), pairs: z.int(), exact_agreement: Nullable, mean_jaccard: Nullable })),
  /** P1 graph verdicts; null when no valid P1 response carries its graph (e.g. an import without it). */
  graphs: z
    .object({ overall: z.array(GraphSummaryRowSchema), by_model: z.array(GraphSummaryRowSchema), by_domain: z.array(GraphSummaryRowSchema), invalid: z.int(), missing: z.int() })
    .nullable(),
  /** Figure 3's cell, chosen by the documented rule (figure3Cell), with its data. */
  figure3: z
    .object({ domain: z.string(), condition: Condition, rule: z.string(), models: z.array(z.object({ model: z.string(), correct: z.int(), n: z.int() })) })
    .nullable(),
  inputs: z.object({ responses: z.object({ file: z.string(), sha256: z.string() }), domains: z.array(z.object({ id: z.string(), file: z.string().nullable(), sha256: z.string().nullable() })) }),
  /** Only with design.repeats > 1: every repeat (lib/study/repeats.ts) and its responses file; `inputs.responses` is repeat 1's. */
  repeats: z.array(RepeatSchema.extend({ responses: z.object({ file: z.string(), sha256: z.string() }) })).optional(),
  /**
   * Only when a collection's run.json says it did not complete (failed, incomplete, interrupted,
   * quota-stopped, or still `running` after a crash): the first such collection, so the report says
   * that its numbers cover only the responses recorded.
   */
  collection: z.object({ dir: z.string(), status: z.string(), reason: z.string().nullable(), cells: z.int().nullable() }).optional(),
  /** Only with psi.ratings: the Table VI-style rates of the ratings file, in percent (lib/psi/ratings.ts ratingRates). */
  ratings: z
    .object({ file: z.string(), simulated: z.boolean(), ratings: z.int(), cases: z.int(), raters: z.int(), meaningful_improvement: z.number().nullable(), weaknesses_resolved: z.number().nullable() })
    .optional(),
  /** Only for a study that declares it replicates a paper: its claims evaluated by the one rule (lib/study/paper.ts). */
  paper_claims: z
    .array(
      z.object({
        paper: z.enum(PAPER_KEYS),
        rows: z.array(z.object({ id: z.string(), where: z.string(), claim: z.string(), paper: z.string(), computed: z.string(), simulation: z.string(), basis: z.string(), status: z.string(), note: z.string() })),
        note: z.string().nullable(),
      }),
    )
    .optional(),
});
export type StudyResults = z.infer<typeof StudyResultsSchema>;

export function resultsPath(study: Study): string {
  return join(study.paths.output, 'analysis', 'study-results.json');
}

/** Reads the analysis of a study; InputError saying to run `study analyze` first when it is missing. */
export function readStudyResults(study: Study): StudyResults {
  const file = resultsPath(study);
  const text = readUtf8File(file, (reason) =>
    reason === 'ENOENT' ? `${file}: no analysis yet; run: kstbench study analyze ${study.dir}` : `${file}: cannot read the study's analysis (${reason})`,
  );
  return parseJsonFile(text, file, StudyResultsSchema);
}
