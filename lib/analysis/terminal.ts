import type { ScoredRecord } from './score';

export interface TerminalSummary {
  /** Scored responses (valid + invalid) for terminal states: states whose outer fringe is empty. */
  responses: number;
  /** Of these, exactly correct (an empty recommendation). */
  correct: number;
  /** Of these, invalid (scored 0). */
  invalid: number;
}

/**
 * Responses for terminal states, where the correct answer is "none": a state is terminal when its outer
 * fringe (the response's reference) is empty, the definition Table 1's `terminal_states` counts
 * (lib/analysis/table1.ts). In a well-graded space (a learning space, as every quasi-ordinal space and the
 * paper's four domains are) that is the full domain Q alone; a space that is not well-graded can also
 * have a dead end below Q (basis {A,C}, {B,C}: ∅ has no single next task), which is terminal too.
 * Before, only states holding every component were counted here, so such a domain's Table 1 said 2
 * terminal states while this summary counted the responses of 1.
 *
 * @example
 * const response = (state: string[], reference: string[], exact: number) => ({ state, reference, componentCount: 2, status: 'valid', scores: { exact } }) as any;
 * terminalSummary([response(['A', 'B'], [], 1), response(['A', 'B'], [], 0), response(['A'], ['B'], 1)]); // => { responses: 2, correct: 1, invalid: 0 }
 */
export function terminalSummary(scored: readonly ScoredRecord[]): TerminalSummary {
  const terminal = scored.filter((r) => r.reference.length === 0);
  return {
    responses: terminal.length,
    correct: terminal.filter((r) => r.scores.exact === 1).length,
    invalid: terminal.filter((r) => r.status === 'invalid').length,
  };
}
