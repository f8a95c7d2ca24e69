/**
 * The one answer-outcome rule of both studies (KST validation in lib/prompting, PSI in
 * lib/collect/psi-study.ts) and both transports: does a provider's answer count as an answer at all,
 * before its content is judged? A cut-off answer, a refusal and a content filter are outcomes of the
 * cell — recorded `invalid` with their own reason code, never scored.
 *
 * Finish reasons, as documented:
 * - OpenAI Chat Completions `finish_reason`: `stop`, `length`, `content_filter`, `tool_calls`
 *   (node_modules/openai/resources/chat/completions/completions.d.ts), plus `message.refusal`;
 * - Anthropic `stop_reason`: `end_turn`, `max_tokens`, `stop_sequence`, `tool_use`, `pause_turn`,
 *   `refusal`, `model_context_window_exceeded` (node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts);
 * - `max_output_tokens` (OpenAI Responses), `safety` / `prohibited_content` / `blocklist` / `spii`
 *   (Gemini's OpenAI-compatible servers).
 */
import type { CompletionResult } from './contract';

/** Finish reasons meaning the answer was cut off by the output allowance or the context window. */
export const CUT_OFF_FINISH_REASONS: readonly string[] = ['length', 'max_tokens', 'max_output_tokens', 'model_context_window_exceeded'];

/** Finish reasons meaning the model declined. */
export const REFUSAL_FINISH_REASONS: readonly string[] = ['refusal'];

/** Finish reasons meaning a provider filter blocked the answer. */
export const FILTER_FINISH_REASONS: readonly string[] = ['content_filter', 'safety', 'prohibited_content', 'blocklist', 'spii'];

/** The reason codes an answer outcome gives an `invalid` record. */
export type AnswerOutcomeReason = 'truncated' | 'refusal' | 'content_filter' | 'response_too_large';

export type AnswerOutcome =
  | { kind: 'answer' }
  | { kind: 'cut_off'; reason: 'truncated'; detail: string }
  | { kind: 'refused'; reason: 'refusal'; detail: string }
  | { kind: 'filtered'; reason: 'content_filter'; detail: string }
  | { kind: 'too_large'; reason: 'response_too_large'; detail: string };

function shorten(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}

/**
 * Judges an answer by its finish reason and refusal field (first rule that applies): cut off, then a
 * refusal field, then a refusal or filter finish reason (a body above the cap comes first); otherwise an answer whose content is judged next.
 * @example
 * answerOutcome({ finishReason: 'length', refusal: null }).kind; // => 'cut_off'
 * answerOutcome({ finishReason: 'stop', refusal: "I can't help" }).kind; // => 'refused'
 * answerOutcome({ finishReason: 'content_filter', refusal: null }).kind; // => 'filtered'
 * answerOutcome({ finishReason: 'end_turn', refusal: null }).kind; // => 'answer'
 */
export function answerOutcome(result: Pick<CompletionResult, 'finishReason' | 'refusal' | 'tooLarge'>): AnswerOutcome {
  if (result.tooLarge) {
    return { kind: 'too_large', reason: 'response_too_large', detail: `the response body passed the ${result.tooLarge.limitBytes}-byte cap and was not read` };
  }
  const finish = result.finishReason?.toLowerCase() ?? null;
  if (finish !== null && CUT_OFF_FINISH_REASONS.includes(finish)) {
    return { kind: 'cut_off', reason: 'truncated', detail: `finish reason "${result.finishReason}": the output allowance was exhausted` };
  }
  if (typeof result.refusal === 'string' && result.refusal.trim() !== '') {
    return { kind: 'refused', reason: 'refusal', detail: `provider refusal: ${shorten(result.refusal)}` };
  }
  if (finish !== null && REFUSAL_FINISH_REASONS.includes(finish)) return { kind: 'refused', reason: 'refusal', detail: `finish reason "${result.finishReason}"` };
  if (finish !== null && FILTER_FINISH_REASONS.includes(finish)) {
    return { kind: 'filtered', reason: 'content_filter', detail: `finish reason "${result.finishReason}": the provider's content filter blocked the answer` };
  }
  return { kind: 'answer' };
}
