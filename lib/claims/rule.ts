/**
 * The one rule that gives a rebuilt claim its status. Nothing else produces a ClaimStatus: the ledger
 * has no status field (its schema rejects one), and every table of statuses is made by `claimStatus`.
 *
 * For a printed number p with d decimals, relation "=" and a computed value c (both in printed units):
 *   match             |c − p| ≤ ½·10^−d          (c prints as p at the printed precision)
 *   close             |c − p| ≤ the entry's stated tolerance (only entries that state one)
 *   differs-simulated otherwise, when the input is simulated and lib/claims/simulation-gaps.ts says
 *                     what the simulation does not reproduce for this claim
 *   differs           otherwise (a real discrepancy, or a simulated one nobody has explained)
 * A bound (relation ">=", ">", "<") matches when c satisfies it after rounding c to d decimals, and
 * is close when it misses by no more than the tolerance. A yes/no statement or a name/ordering
 * matches when the computed one is equal; there is no "close" for them.
 */
import type { PrintedValue } from '../records/published-claims';

export const CLAIM_STATUSES = ['match', 'close', 'differs-simulated', 'differs'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export interface RuleInput {
  printed: PrintedValue;
  decimals?: number | undefined;
  relation?: '=' | '>=' | '>' | '<' | undefined;
  tolerance?: number | undefined;
  computed: PrintedValue;
  /** From the input's own provenance (records carrying `simulated: true`), never a constant. */
  simulated: boolean;
  /** Whether the simulation's gap for this claim is documented (lib/claims/simulation-gaps.ts). */
  gapExplained: boolean;
}

const EPS = 1e-9;

/** Rounds x to d decimals, half away from zero, robust to binary representation (0.0505 → 0.051 at 3). */
export function roundTo(x: number, d: number): number {
  const f = 10 ** d;
  return (Math.sign(x) * Math.round(Math.abs(x) * f + EPS)) / f;
}

/** The status of one rebuilt claim (see the module comment for the rule). */
export function claimStatus(input: RuleInput): ClaimStatus {
  const { printed, computed } = input;
  const miss = (): ClaimStatus => (input.simulated && input.gapExplained ? 'differs-simulated' : 'differs');
  if (typeof printed !== 'number') return typeof computed === typeof printed && computed === printed ? 'match' : miss();
  if (typeof computed !== 'number' || !Number.isFinite(computed)) return miss();
  const d = input.decimals ?? 0;
  const relation = input.relation ?? '=';
  const tolerance = input.tolerance ?? 0;
  if (relation === '=') {
    const gap = Math.abs(computed - printed);
    if (gap <= 0.5 * 10 ** -d + EPS) return 'match';
    return gap <= tolerance + EPS ? 'close' : miss();
  }
  const shown = roundTo(computed, d);
  const holds = relation === '>=' ? shown >= printed - EPS : relation === '>' ? computed > printed : computed < printed;
  if (holds) return 'match';
  return Math.abs(computed - printed) <= tolerance + EPS && tolerance > 0 ? 'close' : miss();
}
