import { z } from 'zod';
import type { Condition } from '../conditions';

/**
 * The structured response every condition asks for ([KST-2026] §4.2): a list of recommended temporary
 * positions, each with a justification, plus a reason that is present exactly when the list is empty.
 * P1 additionally returns the model's own direct-prerequisite graph as `[p, q]` position pairs
 * (`p` is a direct prerequisite of `q`).
 *
 * Two schemas exist on purpose:
 * - the *wire* schema (`responseJsonSchema`) is what providers enforce during decoding. It stays inside
 *   the subset that OpenAI strict mode, Anthropic and Gemini structured output all accept: every
 *   property required, `additionalProperties: false` on every object, optional values as
 *   `["string", "null"]`, and no numeric, length or tuple keywords (`minimum`, `minItems`,
 *   `prefixItems`, ...), because at least one provider rejects each of those;
 * - the *local* zod schema (`responseSchema`) re-checks the structure after the call. The constraints
 *   the wire schema cannot express (pair length 2, the mutual constraint on `no_recommendation_reason`,
 *   non-empty justifications, positions in 1..n, no repeats) are checked by `validateResponse`, each
 *   with its own reason code.
 */

/** One recommendation as it travels on the wire. */
const wireRecommendation = z
  .object({
    position: z.int().describe('Number of the recommended component, as listed in the prompt.'),
    justification: z.string().describe('Short reason why this component is an admissible next step.'),
  })
  .strict();

const wireReason = z
  .string()
  .nullable()
  .describe('null when at least one component is recommended; otherwise why nothing is recommended.');

const wirePrerequisites = z
  .array(z.array(z.int()))
  .describe('Inferred direct prerequisites as [p, q] pairs of component numbers: p is a direct prerequisite of q.');

const wireBase = z
  .object({
    recommendations: z.array(wireRecommendation).describe('All and only the admissible immediate next steps.'),
    no_recommendation_reason: wireReason,
  })
  .strict();

const wireWithGraph = z
  .object({
    recommendations: wireBase.shape.recommendations,
    no_recommendation_reason: wireReason,
    prerequisites: wirePrerequisites,
  })
  .strict();

/** Name under which the schema is sent to providers (OpenAI: `^[a-zA-Z0-9_-]{1,64}$`). */
export function responseSchemaName(condition: Condition): string {
  return condition === 'P1' ? 'kst_next_steps_with_graph' : 'kst_next_steps';
}

/**
 * The two wire schemas as JSON Schema, generated once each: generation is pure (it depends only on
 * whether the condition asks for the graph) and cost about 0.4 ms a call, which was most of the time of
 * rebuilding the 400 cells of the shipped corpus for the [KST-2026] §4.2 check (lib/claims/prompts.ts).
 */
const JSON_SCHEMAS = new Map<'graph' | 'base', Record<string, unknown>>();

/**
 * The provider-level JSON Schema for `condition`, generated from the wire zod schema. zod adds the
 * safe-integer bounds `minimum`/`maximum` to every integer and a `$schema` URI; both are removed because
 * not every provider accepts them. Returns a fresh copy on every call (callers may mutate it).
 */
export function responseJsonSchema(condition: Condition): Record<string, unknown> {
  const kind = condition === 'P1' ? 'graph' : 'base';
  let schema = JSON_SCHEMAS.get(kind);
  if (schema === undefined) JSON_SCHEMAS.set(kind, (schema = generateJsonSchema(kind)));
  return structuredClone(schema);
}

function generateJsonSchema(kind: 'graph' | 'base'): Record<string, unknown> {
  const schema = z.toJSONSchema(kind === 'graph' ? wireWithGraph : wireBase, {
    target: 'draft-2020-12',
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'integer') {
        delete jsonSchema.minimum;
        delete jsonSchema.maximum;
      }
    },
  }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** Local structural schema of one recommendation. A missing, null or blank justification is let through here and reported as `missing_justification`. */
const localRecommendation = z
  .object({
    position: z.int(),
    justification: z.string().nullish(),
  })
  .strict();

const localBase = z
  .object({
    recommendations: z.array(localRecommendation),
    no_recommendation_reason: z.string().nullish(),
  })
  .strict();

const localWithGraph = z
  .object({
    recommendations: z.array(localRecommendation),
    no_recommendation_reason: z.string().nullish(),
    prerequisites: z.array(z.tuple([z.int(), z.int()])),
  })
  .strict();

/** What a structurally valid response looks like after parsing. */
export type ParsedResponse = {
  recommendations: Array<{ position: number; justification?: string | null | undefined }>;
  no_recommendation_reason?: string | null | undefined;
  prerequisites?: Array<[number, number]>;
};

/**
 * The local zod schema used by `validateResponse` for the structural check. It is deliberately a little
 * more lenient than the wire schema about absent optional values (a missing `no_recommendation_reason`
 * counts as null), so that non-strict providers are judged by content, not by null-versus-absent.
 * Unknown properties are still rejected, as on the wire.
 */
export function responseSchema(condition: Condition): z.ZodType<ParsedResponse> {
  return (condition === 'P1' ? localWithGraph : localBase) as z.ZodType<ParsedResponse>;
}
