import type { Presentation } from '../../kst';
import type { Recommendation, SimulatedDecision } from './behaviour';
import type { SimulatedInvalidKind } from './profiles';

/**
 * Turns a simulated decision into the text a provider would return: a compact JSON object in the
 * response schema of lib/prompting (positions, never canonical IDs), or one of the invalid forms the
 * paper predefined (§4.2). Every string is built deterministically from the decision.
 */

export interface RenderedAnswer {
  text: string;
  /** `stop`, or `length` for a simulated truncation. */
  finishReason: 'stop' | 'length';
  /** Non-null only for a refusal (mirrors OpenAI's `message.refusal`). */
  refusal: string | null;
}

/** The refusal sentence of a simulated refusal (opens like a refusal, so text-only checks catch it too). */
export const SIMULATED_REFUSAL = "I'm sorry, but I can't help with planning these learning steps.";

/** "position 3", "positions 2 and 5", "positions 1, 2 and 5" (positions ascending). */
export function positionList(positions: readonly number[]): string {
  const sorted = [...positions].sort((a, b) => a - b);
  if (sorted.length === 1) return `position ${sorted[0]}`;
  return `positions ${sorted.slice(0, -1).join(', ')} and ${sorted[sorted.length - 1]}`;
}

/**
 * The justification of one recommendation, e.g. (P2) "The listed relations make positions 2 and 5 its
 * direct prerequisites, and both are mastered." It names the mastered prerequisites by position.
 */
export function justification(rec: Recommendation, decision: SimulatedDecision, presentation: Presentation): string {
  const here = presentation.toPosition(rec.id);
  if (rec.slip) {
    return decision.basis === 'states'
      ? `Adding position ${here} to the mastered set seems to give one of the listed states.`
      : `Position ${here} looks manageable with what has been mastered so far.`;
  }
  if (decision.basis === 'states') {
    return `The mastered set together with position ${here} is one of the listed admissible states.`;
  }
  const because = rec.because.map((id) => presentation.toPosition(id));
  if (because.length === 0) {
    return decision.basis === 'relation'
      ? `No listed relation gives position ${here} a prerequisite, so it can be started now.`
      : `Position ${here} does not build on any other listed component, so it can be started now.`;
  }
  const all = because.length === 1 ? 'it is' : because.length === 2 ? 'both are' : 'all are';
  return decision.basis === 'relation'
    ? `The listed relations make ${positionList(because)} its direct prerequisite${because.length === 1 ? '' : 's'}, and ${all} mastered.`
    : `Position ${here} builds directly on ${positionList(because)}, and ${all} mastered.`;
}

/** The reason given with an empty recommendation list. */
export function noRecommendationReason(decision: SimulatedDecision): string {
  return decision.terminal
    ? 'Every component is already mastered, so there is no next step.'
    : 'None of the remaining components has all of its prerequisites mastered.';
}

/** The valid answer object: recommendations by ascending position; P1 pairs sorted by (p, q) position. */
export function answerObject(decision: SimulatedDecision, presentation: Presentation): Record<string, unknown> {
  const recommendations = decision.recommendations
    .map((rec) => ({ position: presentation.toPosition(rec.id), justification: justification(rec, decision, presentation) }))
    .sort((a, b) => a.position - b.position);
  const answer: Record<string, unknown> = {
    recommendations,
    no_recommendation_reason: recommendations.length === 0 ? noRecommendationReason(decision) : null,
  };
  if (decision.prerequisites) {
    answer.prerequisites = decision.prerequisites
      .map(([p, q]) => [presentation.toPosition(p), presentation.toPosition(q)])
      .sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
  }
  return answer;
}

/** Renders the decision: the valid JSON text, or its invalid variant when `decision.invalid` is set. */
export function renderAnswer(decision: SimulatedDecision, presentation: Presentation): RenderedAnswer {
  const answer = answerObject(decision, presentation);
  const valid = JSON.stringify(answer);
  if (decision.invalid === null) return { text: valid, finishReason: 'stop', refusal: null };
  return renderInvalid(decision.invalid, answer, valid, presentation.positions.length);
}

/**
 * The invalid forms, one per kind (each is classified by validateResponse with the same reason code):
 * - malformed_json: JavaScript-style object with unquoted keys (no parsable JSON object anywhere);
 * - extra_prose: the valid object after an introductory sentence;
 * - duplicate_position: the first recommendation repeated;
 * - out_of_range: an extra recommendation at position n + 1 (an off-by-one);
 * - missing_justification: the first justification blank, or, for an empty list, the reason null;
 * - refusal: a refusal sentence, also in the `refusal` field;
 * - truncated: the first 60 % of the valid text with finish reason `length`.
 */
export function renderInvalid(
  kind: SimulatedInvalidKind,
  answer: Record<string, unknown>,
  valid: string,
  n: number,
): RenderedAnswer {
  const recommendations = answer.recommendations as Array<{ position: number; justification: string }>;
  const stop = (text: string): RenderedAnswer => ({ text, finishReason: 'stop', refusal: null });
  switch (kind) {
    case 'malformed_json':
      return stop(valid.replace(/"([a-z_]+)":/g, '$1:'));
    case 'extra_prose':
      return stop(`Here are the next steps for this learner:\n${valid}`);
    case 'duplicate_position':
      return stop(JSON.stringify({ ...answer, recommendations: [...recommendations, recommendations[0]] }));
    case 'out_of_range':
      return stop(
        JSON.stringify({
          ...answer,
          recommendations: [...recommendations, { position: n + 1, justification: `Position ${n + 1} follows on from the mastered components.` }],
          no_recommendation_reason: null,
        }),
      );
    case 'missing_justification':
      return stop(
        JSON.stringify(
          recommendations.length === 0
            ? { ...answer, no_recommendation_reason: null }
            : { ...answer, recommendations: recommendations.map((r, i) => (i === 0 ? { ...r, justification: '' } : r)) },
        ),
      );
    case 'refusal':
      return { text: SIMULATED_REFUSAL, finishReason: 'stop', refusal: SIMULATED_REFUSAL };
    case 'truncated':
      return { text: valid.slice(0, Math.floor(valid.length * 0.6)), finishReason: 'length', refusal: null };
  }
}
