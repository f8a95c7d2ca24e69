import type { ScoredRecord } from './score';

export interface TerminalSummary {
  /** Scored responses (valid + invalid) for terminal states, where every component is mastered. */
  responses: number;
  /** Of these, exactly correct (an empty recommendation). */
  correct: number;
  /** Of these, invalid (scored 0). */
  invalid: number;
}

/**
 * Responses for terminal states. A state is terminal when it holds every component of its domain: in a
 * knowledge space that is the only state with an empty outer fringe, so the correct answer is "none".
 *
 * @example
 * const response = (state: string[], exact: number) => ({ state, componentCount: 2, status: 'valid', scores: { exact } }) as any;
 * terminalSummary([response(['A', 'B'], 1), response(['A', 'B'], 0), response(['A'], 1)]); // => { responses: 2, correct: 1, invalid: 0 }
 */
export function terminalSummary(scored: readonly ScoredRecord[]): TerminalSummary {
  const terminal = scored.filter((r) => r.state.length === r.componentCount);
  return {
    responses: terminal.length,
    correct: terminal.filter((r) => r.scores.exact === 1).length,
    invalid: terminal.filter((r) => r.status === 'invalid').length,
  };
}
