/**
 * Presentation agreement and terminal states ([KST-2026] §4.5.1–4.5.2) as tables beside the paper.
 */
import type { OrderAgreementRow } from '../analysis/order-agreement';
import type { ScoredRecord } from '../analysis/score';

const pct2 = (x: number | null) => (x === null ? null : Math.round(x * 10000) / 100);

/** Agreement rows in percent (two decimals, as the paper prints 85.25 %), one per group. */
export function agreementTable(rows: readonly OrderAgreementRow[], groupName = 'group', labels: Readonly<Record<string, string>> = {}) {
  return rows.map((r) => ({
    [groupName]: labels[r.group] ?? r.group,
    pairs: r.pairs,
    'exact agreement (%)': pct2(r.exact_agreement),
    'mean pairwise Jaccard (%)': pct2(r.mean_jaccard),
  }));
}

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

/** Terminal-state responses beside the paper's "all 192 correct". */
export function terminalComparison(s: TerminalSummary, published: { overall: { terminal_responses: number; terminal_correct: number } }) {
  return [
    { measure: 'terminal-state responses', computed: s.responses, paper: published.overall.terminal_responses },
    { measure: 'correct (empty recommendation)', computed: s.correct, paper: published.overall.terminal_correct },
    { measure: 'invalid', computed: s.invalid, paper: 0 },
  ];
}
