/**
 * Pre-flight: one real request per model before the design is dispatched, to find the failures that
 * would otherwise turn every cell into a `missing` record — unknown or retired model, a schema the
 * server refuses, an output cap or parameter the model does not allow, a wrong key, no server at the
 * URL, an exhausted quota. Shared by the SDK-backed providers.
 */
import { InputError } from '../../errors';
import type { ModelSettings } from './model-settings';
import { isTruncated, ProviderError, type CompletionRequest, type CompletionResult, type PreflightResult } from '../../provider/contract';

/** A one-line summary of what is sent for a model (printed by the pre-flight). */
export function describeSettings(s: ModelSettings): string {
  const parts = [`${s.api} at ${s.host}`, `${s.token_field} ≤ ${s.output_cap ?? 'the requested allowance'}`, `structured output ${s.structured_output}`];
  if (s.schema_dialect !== 'openai') parts.push(`schema dialect ${s.schema_dialect}`);
  if (s.reasoning_effort !== null) parts.push(`reasoning_effort ${s.reasoning_effort}`);
  if (s.thinking !== null) parts.push(`thinking ${typeof s.thinking === 'string' ? s.thinking : `enabled (budget ${s.thinking.budget_tokens})`}`);
  if (s.effort !== null) parts.push(`effort ${s.effort}`);
  if (s.temperature !== null) parts.push(`temperature ${s.temperature}`);
  if (s.top_p !== null) parts.push(`top_p ${s.top_p}`);
  parts.push(s.key_variable ? `key from ${s.key_variable}` : 'no key (placeholder)');
  return parts.join(', ');
}

const TRANSIENT = new Set(['rate_limit', 'server_error', 'timeout']);

/**
 * Sends `req` once through `complete` and judges the answer:
 * - a ProviderError of a transient class (429 rate limit, 5xx, timeout) → ok with a note (the run's
 *   retries handle those; nothing is wrong with the settings);
 * - any other ProviderError (unknown model, bad parameter, cap, key, quota, connection) → not ok,
 *   with the provider's message and a remedy;
 * - an answer cut off by the output limit, or text that is not a JSON object → not ok (every cell
 *   would fail the same way);
 * - otherwise ok, with notes on what was sent and what came back.
 */
export async function preflightWith(
  complete: (req: CompletionRequest) => Promise<CompletionResult>,
  req: CompletionRequest,
  settings: ModelSettings,
  notes: readonly string[],
): Promise<PreflightResult> {
  const spec = `${settings.provider}:${settings.model}`;
  const out = [...notes, `${spec}: ${describeSettings(settings)}`];
  let result: CompletionResult;
  try {
    result = await complete(req);
  } catch (err) {
    if (err instanceof ProviderError) {
      if (TRANSIENT.has(err.errorClass)) {
        out.push(`${spec}: pre-flight inconclusive (${err.errorClass}: ${err.message}); the run's own retries will deal with it`);
        return { ok: true, notes: out };
      }
      const remedy =
        err.info.remedy ??
        (err.errorClass === 'connection'
          ? `nothing answered at ${settings.host}: start the server or correct the base URL (spec@URL, --models-file or --base-url)`
          : 'see the message; the same request would fail for every cell');
      return { ok: false, message: `${spec}: pre-flight failed: ${err.message}`, remedy };
    }
    if (err instanceof InputError) return { ok: false, message: `${spec}: pre-flight refused: ${err.message}`, remedy: 'fix the request settings named in the message' };
    throw err;
  }
  if (result.modelVersion) out.push(`${spec}: served by ${result.modelVersion}`);
  if (result.usage) {
    const u = result.usage;
    const extra = [u.cachedInputTokens !== undefined ? `${u.cachedInputTokens} cached` : null, u.reasoningTokens !== undefined ? `${u.reasoningTokens} reasoning` : null].filter(Boolean);
    out.push(`${spec}: pre-flight used ${u.inputTokens} input and ${u.outputTokens} output tokens${extra.length ? ` (${extra.join(', ')})` : ''}`);
  }
  if (result.refusal !== null) {
    out.push(`${spec}: the pre-flight answer was a refusal (${result.refusal}); refusals are recorded as such during the run`);
    return { ok: true, notes: out };
  }
  if (isTruncated(result)) {
    return {
      ok: false,
      message: `${spec}: pre-flight answer was cut off by the output limit (finish reason ${result.finishReason})`,
      remedy: 'raise --max-output-tokens (or max_output_tokens for this model in --models-file), or lower the reasoning effort / thinking budget',
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.text);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      ok: false,
      message: `${spec}: pre-flight answer is not a JSON object, so the server did not apply the answer schema (${settings.structured_output})`,
      remedy:
        settings.provider === 'openai-compatible'
          ? 'use a server/model that supports response_format json_schema (or set schema_dialect for it in --models-file)'
          : settings.provider === 'anthropic'
            ? 'try "structured_output": "strict_tool" for this model in --models-file'
            : 'check that the model supports Structured Outputs',
    };
  }
  return { ok: true, notes: out };
}
