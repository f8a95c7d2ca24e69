/**
 * What the SDK-backed providers print before a run: what is sent to each model (API, host, token
 * field and cap, structured output, effort, sampling, key variable) and the catalogue's notes. The
 * pre-flight request itself is the model's first real cell (lib/collect/preflight.ts).
 */
import type { ModelSettings } from './model-settings';

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

/** The lines printed for a model before the run: catalogue notes, then what is sent. */
export function settingsNotes(settings: ModelSettings, notes: readonly string[]): string[] {
  return [...notes, `${settings.provider}:${settings.model}: ${describeSettings(settings)}`];
}
