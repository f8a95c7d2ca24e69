/**
 * Presentation agreement and terminal states ([KST-2026] §4.5.1–4.5.2) as tables beside the paper.
 */
import type { OrderAgreementRow } from '../analysis/order-agreement';
import type { TerminalSummary } from '../analysis/terminal';
import { percent } from '../stats/prints-as';

const pct2 = (x: number | null) => (x === null ? null : percent(x, 2));

/**
 * Agreement rows in percent (two decimals, as the paper prints 85.25 %), one per group.
 * The return type is spelt out: a key computed from a parameter (`[groupName]`) does not survive
 * into the declaration file, which notebooks and test/ are type-checked against.
 */
export function agreementTable(rows: readonly OrderAgreementRow[], groupName = 'group', labels: Readonly<Record<string, string>> = {}): Array<Record<string, string | number | boolean | null>> {
  return rows.map((r) => ({
    [groupName]: labels[r.group] ?? r.group,
    pairs: r.pairs,
    'exact agreement (%)': pct2(r.exact_agreement),
    'mean pairwise Jaccard (%)': pct2(r.mean_jaccard),
  }));
}

/** Terminal-state responses beside the paper's "all 192 correct". */
export function terminalComparison(s: TerminalSummary, published: { overall: { terminal_responses: number; terminal_correct: number } }) {
  return [
    { measure: 'terminal-state responses', computed: s.responses, paper: published.overall.terminal_responses },
    { measure: 'correct (empty recommendation)', computed: s.correct, paper: published.overall.terminal_correct },
    { measure: 'invalid', computed: s.invalid, paper: 0 },
  ];
}
