import { answerOutcome, CUT_OFF_FINISH_REASONS, FILTER_FINISH_REASONS, REFUSAL_FINISH_REASONS as PROVIDER_REFUSALS } from '../provider/outcome';
import { describeZodIssues } from '../errors';
import type { Condition } from '../conditions';
import { responseSchema, type ParsedResponse } from './schema';

/**
 * Local validation of one model response ([KST-2026] §4.2: responses are schema-checked again after the
 * call; duplicate or out-of-range positions, malformed JSON, missing explanations, refusals, extra prose
 * and truncation are invalid). An invalid response counts as incorrect in the primary scoring, so the
 * reason codes are recorded to make the invalid share auditable.
 *
 * Precedence — the first rule that applies decides the reason, so each response gets exactly one code:
 *  1. `truncated`       finish reason says the output allowance ran out (`length`, `max_tokens`,
 *                       `max_output_tokens`); nothing after a cut can be trusted.
 *  2. `refusal`         the provider flagged a refusal (non-empty `refusal` field, or finish reason
 *                       `refusal`); `content_filter` a provider filter blocked it (`content_filter`,
 *                       `safety`, ...). Rules 1–2 are lib/provider/outcome.ts `answerOutcome`, shared
 *                       with the PSI study.
 *  3. `extra_prose`     the text is not pure JSON but contains a parsable JSON object — surrounded by
 *                       prose, or wrapped in a Markdown code fence. Fences count as extra prose: the
 *                       prompt asks for the bare object, and the paper's format check was strict.
 *                       Leading/trailing whitespace alone is not prose.
 *  4. `refusal`         no JSON at all and the text reads as a refusal ("I'm sorry", "I can't", ...).
 *     `malformed_json`  otherwise, no JSON object can be recovered (includes the empty string).
 *  5. `schema_violation` JSON that breaks the structure: wrong types, unknown or missing properties,
 *                       a P1 pair that is not two integers, a `no_recommendation_reason` given although
 *                       components are recommended.
 *  6. `missing_justification` a recommendation whose justification is absent, null or blank, or an
 *                       empty recommendation list without a (non-blank) `no_recommendation_reason`.
 *  7. `duplicate_position` the same position recommended twice.
 *  8. `out_of_range`    a recommended position, or a position in a P1 pair, outside 1..n.
 *
 * Repeated or reflexive pairs in P1's `prerequisites` are not format errors (they are content of the
 * model's graph); the valid result lists each distinct pair once, in first-seen order.
 */

export const INVALID_REASONS = [
  'truncated',
  'refusal',
  'content_filter',
  'response_too_large',
  'extra_prose',
  'malformed_json',
  'schema_violation',
  'missing_justification',
  'duplicate_position',
  'out_of_range',
] as const;
export type InvalidReason = (typeof INVALID_REASONS)[number];

export interface ValidationContext {
  condition: Condition;
  /** n, the number of components shown; valid positions are 1..n. */
  componentCount: number;
  /** The provider's stop/finish reason, verbatim (case-insensitive). */
  finishReason?: string | null;
  /** The provider's refusal field (OpenAI `message.refusal`), if any. */
  refusal?: string | null;
  /** The body passed the collector's cap and was not read. */
  tooLarge?: { limitBytes: number };
}

export type ValidationResult =
  | {
      status: 'valid';
      parsed: ParsedResponse;
      /** Recommended positions, ascending. Empty for a valid "nothing to recommend" answer. */
      positions: number[];
      /** P1 only: distinct inferred direct-prerequisite pairs [p, q], first-seen order. */
      prerequisites?: Array<[number, number]>;
    }
  | { status: 'invalid'; reason: InvalidReason; detail: string; parsed?: unknown };

/** Finish reasons meaning "the output allowance was exhausted" (the shared rule: lib/provider/outcome.ts). */
export const TRUNCATION_FINISH_REASONS: readonly string[] = CUT_OFF_FINISH_REASONS;

/** Finish reasons meaning the provider refused or blocked the answer. */
export const REFUSAL_FINISH_REASONS: readonly string[] = [...PROVIDER_REFUSALS, ...FILTER_FINISH_REASONS];

/** Openings of a plain-text refusal, checked only when the text holds no JSON object. */
const REFUSAL_TEXT =
  /^\s*(?:i['’]m sorry|i am sorry|sorry\b|i apologi[sz]e|i can(?:not|['’]t)\b|i am (?:not able|unable)|i['’]m (?:not able|unable)|i won['’]t\b|i will not\b|as an ai\b)/i;

/** Validates one response text; see the module comment for the order in which problems are reported. */
export function validateResponse(text: string, ctx: ValidationContext): ValidationResult {
  // Cut off, refused or filtered: the one answer-outcome rule both studies share.
  const outcome = answerOutcome({ finishReason: ctx.finishReason ?? null, refusal: ctx.refusal ?? null, ...(ctx.tooLarge ? { tooLarge: ctx.tooLarge } : {}) });
  if (outcome.kind !== 'answer') return invalid(outcome.reason, outcome.detail);

  const extracted = extractJson(text);
  if (extracted.kind === 'embedded') {
    return invalid('extra_prose', extracted.detail, extracted.value);
  }
  if (extracted.kind === 'none') {
    if (REFUSAL_TEXT.test(text)) return invalid('refusal', `refusal text instead of JSON: ${shorten(text)}`);
    return invalid('malformed_json', text.trim() === '' ? 'empty response' : `not valid JSON: ${extracted.error}`);
  }
  const raw = extracted.value;

  const checked = responseSchema(ctx.condition).safeParse(raw);
  if (!checked.success) {
    return invalid('schema_violation', describeZodIssues(checked.error.issues), raw);
  }
  const parsed = checked.data;
  const recommendations = parsed.recommendations;
  const reason = parsed.no_recommendation_reason;
  const hasReason = typeof reason === 'string' && reason.trim() !== '';

  if (recommendations.length > 0 && hasReason) {
    return invalid(
      'schema_violation',
      'no_recommendation_reason must be null when components are recommended',
      raw,
    );
  }
  if (recommendations.length === 0 && !hasReason) {
    return invalid('missing_justification', 'empty recommendations without a no_recommendation_reason', raw);
  }
  const unjustified = recommendations.findIndex((r) => typeof r.justification !== 'string' || r.justification.trim() === '');
  if (unjustified >= 0) {
    return invalid(
      'missing_justification',
      `recommendations[${unjustified}] (position ${recommendations[unjustified]!.position}) has no justification`,
      raw,
    );
  }

  const seen = new Set<number>();
  for (const { position } of recommendations) {
    if (seen.has(position)) return invalid('duplicate_position', `position ${position} is recommended more than once`, raw);
    seen.add(position);
  }

  const n = ctx.componentCount;
  const outside = (p: number) => p < 1 || p > n;
  const badRecommendation = recommendations.find((r) => outside(r.position));
  if (badRecommendation) {
    return invalid('out_of_range', `recommended position ${badRecommendation.position} is outside 1..${n}`, raw);
  }
  const pairs = parsed.prerequisites;
  if (pairs) {
    const badPair = pairs.findIndex(([p, q]) => outside(p) || outside(q));
    if (badPair >= 0) {
      return invalid('out_of_range', `prerequisites[${badPair}] = [${pairs[badPair]!.join(', ')}] leaves 1..${n}`, raw);
    }
  }

  const positions = [...seen].sort((a, b) => a - b);
  if (ctx.condition !== 'P1') return { status: 'valid', parsed, positions };
  return { status: 'valid', parsed, positions, prerequisites: distinctPairs(pairs ?? []) };
}

type Extracted =
  | { kind: 'pure'; value: unknown }
  | { kind: 'embedded'; value: unknown; detail: string }
  | { kind: 'none'; error: string };

/**
 * Finds the JSON in a response: the whole (trimmed) text if it parses; otherwise the content of a
 * Markdown code fence, or the first balanced `{...}` span that parses as a JSON object.
 */
export function extractJson(text: string): Extracted {
  const trimmed = text.trim();
  let error = 'empty text';
  if (trimmed !== '') {
    try {
      return { kind: 'pure', value: JSON.parse(trimmed) };
    } catch (err) {
      error = (err as Error).message;
    }
  }
  const fence = /```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/.exec(text);
  if (fence) {
    const value = tryParseObject(fence[1]!.trim());
    if (value !== undefined) return { kind: 'embedded', value, detail: 'JSON object wrapped in a Markdown code fence' };
  }
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    if (end < 0) continue;
    const value = tryParseObject(text.slice(start, end + 1));
    if (value !== undefined) {
      const before = text.slice(0, start).trim();
      const after = text.slice(end + 1).trim();
      const where = [before && `before it: ${shorten(before, 40)}`, after && `after it: ${shorten(after, 40)}`]
        .filter(Boolean)
        .join('; ');
      return { kind: 'embedded', value, detail: `JSON object surrounded by other text (${where})` };
    }
  }
  return { kind: 'none', error };
}

function tryParseObject(candidate: string): unknown {
  try {
    const value: unknown = JSON.parse(candidate);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside JSON strings; -1 if unbalanced. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

function distinctPairs(pairs: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const seen = new Set<string>();
  const out: Array<[number, number]> = [];
  for (const [p, q] of pairs) {
    const key = `${p},${q}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push([p, q]);
    }
  }
  return out;
}

function invalid(reason: InvalidReason, detail: string, parsed?: unknown): ValidationResult {
  return parsed === undefined ? { status: 'invalid', reason, detail } : { status: 'invalid', reason, detail, parsed };
}

function shorten(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}
