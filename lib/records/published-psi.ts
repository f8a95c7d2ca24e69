/**
 * The zod schema of data/published/psi-2026.json: the numbers [PSI-2026] prints in its running
 * text (its table cells were lost in extraction) and its claims ledger. Read with parsePublishedPsi /
 * loadPublishedPsi; everything that uses the published numbers takes the inferred type `PublishedPsi`.
 */
import { z } from 'zod';
import { parseJsonFile } from '../io/json';
import { ClaimEntrySchema, loadPublishedFile, refineClaims } from './published-claims';

const num = z.number();
const count = z.number().int().nonnegative();
const where = z.string().min(1);
const modelMap = z.record(z.string(), num);

export const PublishedPsiSchema = z
  .strictObject({
    paper: z.string(),
    note: z.string(),
    design: z.strictObject({
      where,
      scenarios: count,
      weeks: count,
      variants: count,
      models: count,
      round1: count,
      bloom_targets: z.record(z.string(), count),
      defect_categories: z.record(z.string(), count),
      delta_opt: num,
      taxonomy_concepts: count,
      scaffold_indicators: count,
      scaffold_categories: count,
      /** §IV-A "2 per week". */
      scenarios_per_week: count,
      /** §IV-B: list_comprehension requires lists and for_loop. */
      prerequisite_example_holds: z.boolean(),
      /** §IV-F: the course materials the instructor checked against (not part of this replication). */
      course_slide_decks: count,
      course_notebooks: count,
      /** §VI-C: "eight defect categories". */
      defect_category_count: count,
    }),
    /** Method statements of §III–§IV with no number of their own (each a ledger entry). */
    method: z.strictObject({
      where,
      /** §IV-A: every defective prompt shows one or more defect types. */
      defects_one_or_more: z.boolean(),
      /** §III eq. (1): equal weights w_i = 1/6. */
      equal_weights: z.boolean(),
      /** §IV-C: every model received identical prompts. */
      identical_prompts: z.boolean(),
      /** §IV-C: responses collected via the models' web interfaces, one prompt per model at a time. */
      web_interfaces: z.boolean(),
      /** §IV-E: the regenerated cases are the lowest-PSI defective-prompt cases. */
      lowest_defective: z.boolean(),
      /** §IV-E: every regeneration prompt has the five parts (a)–(e). */
      regeneration_prompt_parts: z.boolean(),
      /** §IV-E's example: low S_SD is answered by asking for a worked example with output, steps and a comprehension check. */
      low_sd_feedback: z.boolean(),
      /** §IV-E: the regenerated responses were scored by the same PSI pipeline. */
      same_pipeline: z.boolean(),
      /** §III: the sub-scores are the formulas of their evidence (KD, TV, SD, CL, RA). */
      subscore_formulas: z.boolean(),
      /** §IV-D: S_CL's patterns for filler (e.g. "as an AI"), hedging and tangential content. */
      cl_patterns: z.boolean(),
      /** §IV-B: the taxonomy runs from foundational (variables, print_function) to advanced concepts (dependency_parsing, tensorflow_intro). */
      taxonomy_hierarchy: z.boolean(),
      /** §IV-D: S_RA's keyword frequencies cover six Bloom levels. */
      bloom_levels: count,
    }),
    table1: z.strictObject({
      where,
      psi: modelMap,
      sd: modelMap,
      ef_all_models: num,
      cl_min: num,
      /** Highest minus lowest model PSI. */
      spread: num,
      /** The models by mean PSI, best first, as "A > B > C > D". */
      ranking: z.string(),
      /** The open-weight Qwen 3 scored above the commercial Gemini. */
      qwen_above_gemini: z.boolean(),
      /** ChatGPT's S_SD is more than this many times Gemini's. */
      sd_ratio_above: num,
      /** §VI: the 5.7× variation of S_SD between the highest and the lowest model. */
      sd_variation: num,
      /** S_SD has the widest spread of the model means of any sub-score (§V-A "primary differentiator"). */
      sd_primary_differentiator: z.boolean(),
      /** S_EF and S_CL spread less across models than each of the other four sub-scores (§VI-A). */
      four_subscores_differentiate: z.boolean(),
    }),
    figure1: z.strictObject({
      where,
      cross_model_mean: z.record(z.string(), num),
      trend: z.string(),
      /** Every model's PSI declines with the target Bloom level (read as: each level's mean below the previous level's, per model). */
      declines_every_model: z.boolean(),
    }),
    table2_3: z.strictObject({
      where,
      delta_psi: num,
      delta: z.record(z.string(), num),
      n_per_cell: count,
      n_all_models: count,
      /** S_TV up, S_KD and S_SD down under defective prompts (§V-B, §VI-C). */
      tradeoff_directions: z.boolean(),
    }),
    table4: z.strictObject({
      where,
      selected: count,
      selected_per_model: modelMap,
      improved: count,
      improved_rate: num,
      mean_gain: num,
      /** Every model's mean gain is positive. */
      all_models_improved_on_average: z.boolean(),
      /** §IV-E: ChatGPT has the fewest weak cases because its baseline PSI is higher. */
      fewest_weak_highest_baseline: z.boolean(),
    }),
    table5: z.strictObject({
      where,
      sd_before: num,
      sd_after: num,
      delta: z.record(z.string(), num),
      /** S_SD's change is the largest of the sub-score changes. */
      sd_largest_change: z.boolean(),
      /** S_SD and S_KD up, S_TV and S_RA down under regeneration (§V-C). */
      directions: z.boolean(),
      /** §VI-D: S_EF unchanged across rounds (every case). */
      ef_unchanged_every_case: z.boolean(),
    }),
    table6: z.strictObject({
      where,
      weaknesses_resolved_rate: num,
      meaningful_improvement_rate: num,
      /** §V-D: the meaningful-improvement rate was lower than the weaknesses-resolved rate. */
      meaningful_below_resolved: z.boolean(),
      /** §V-D: the resolved rate matched the automated improvement count (51/62). */
      resolved_matches_improved: z.boolean(),
    }),
    scenario_validation: z.strictObject({
      where,
      realism_mean: num,
      realism_sd: num,
      course_fit_mean: num,
      course_fit_sd: num,
      within_one_point: num,
      realism_below_2_5: count,
    }),
    claims: z.array(ClaimEntrySchema),
  })
  .superRefine(refineClaims);
export type PublishedPsi = z.infer<typeof PublishedPsiSchema>;

/** Parses the PSI published-numbers file; InputError naming the file and every offending field. */
export function parsePublishedPsi(text: string, file: string): PublishedPsi {
  return parseJsonFile(text, file, PublishedPsiSchema);
}

/** Reads and parses the PSI published-numbers file (OS errors name the file). */
export function loadPublishedPsi(file: string): PublishedPsi {
  return loadPublishedFile(file, PublishedPsiSchema);
}
