/**
 * The one rule that gives a rebuilt claim its status. Nothing else produces a ClaimStatus: the ledger
 * has no status field (its schema rejects one), and every table of statuses is made here.
 *
 * On collected (not simulated) input, and on simulated input for a claim that holds by construction
 * (a design count, a domain structure), printed p with d decimals against computed c:
 *   match    c prints as p (lib/stats/prints-as.ts: |c − p| ≤ ½·10^−d)
 *   close    |c − p| ≤ the entry's stated tolerance (only entries that state one, with the reason)
 *   differs  otherwise
 * A bound (relation ">=", ">", "<") matches when c satisfies it (">=" after rounding c to d decimals)
 * and is close when it misses by no more than the tolerance. A yes/no statement or a name/ordering
 * matches when the computed one is equal; there is no "close" for them.
 *
 * On simulated input every other claim (calibrated or independent) is set against the spread of R
 * seeded replicate corpora of the simulator (lib/claims/replicates.ts), not against one draw:
 *   within-simulation-spread   a number: p lies in the replicates' central 95 % interval widened by
 *                              the printing half-unit and the stated tolerance; a bound: the interval
 *                              reaches the claimed side; a statement or name: at least 2.5 % of the
 *                              replicates give the printed one (its direction: a sign, an order,
 *                              "every model")
 *   outside-simulation-spread  otherwise: the simulator, as fitted, does not produce the paper's value;
 *                              lib/claims/simulation-gaps.ts must say why, claim by claim
 */
import type { PrintedValue } from '../records/published-claims';
import type { ReplicateSummary } from '../records/claim-replicates';
import { printsAs, roundTo } from '../stats/prints-as';

export { roundTo };
export const CLAIM_STATUSES = ['match', 'close', 'differs', 'within-simulation-spread', 'outside-simulation-spread'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export type DataStatus = 'match' | 'close' | 'differs';
export type SimulationStatus = 'within-simulation-spread' | 'outside-simulation-spread';

/** The least share of replicates that must give a printed statement for it to be within the spread. */
export const CATEGORY_SHARE = 0.025;

export interface RuleInput {
  printed: PrintedValue;
  decimals?: number | undefined;
  relation?: '=' | '>=' | '>' | '<' | undefined;
  tolerance?: number | undefined;
  computed: PrintedValue;
}

const EPS = 1e-9;

/** A value as it prints in the replicate counts and the tables: yes / no, a name, or the number. */
export function valueText(v: PrintedValue): string {
  return typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
}

/** The status of one rebuilt claim against collected data (see the module comment). */
export function claimStatus(input: RuleInput): DataStatus {
  const { printed, computed } = input;
  if (typeof printed !== 'number') return typeof computed === typeof printed && computed === printed ? 'match' : 'differs';
  if (typeof computed !== 'number' || !Number.isFinite(computed)) return 'differs';
  const d = input.decimals ?? 0;
  const relation = input.relation ?? '=';
  const tolerance = input.tolerance ?? 0;
  if (relation === '=') {
    if (printsAs(computed, printed, d)) return 'match';
    return Math.abs(computed - printed) <= tolerance + EPS ? 'close' : 'differs';
  }
  const shown = roundTo(computed, d);
  const holds = relation === '>=' ? shown >= printed - EPS : relation === '>' ? computed > printed : computed < printed;
  if (holds) return 'match';
  return Math.abs(computed - printed) <= tolerance + EPS && tolerance > 0 ? 'close' : 'differs';
}

/** The status of one rebuilt claim on simulated input, from its replicate summary (see the module comment). */
export function simulationStatus(input: Omit<RuleInput, 'computed'> & { summary: ReplicateSummary }): SimulationStatus {
  const { printed, summary } = input;
  const ok = (b: boolean): SimulationStatus => (b ? 'within-simulation-spread' : 'outside-simulation-spread');
  if (summary.kind === 'category') return ok((summary.counts[valueText(printed)] ?? 0) >= CATEGORY_SHARE * summary.n);
  if (typeof printed !== 'number') return 'outside-simulation-spread';
  const d = input.decimals ?? 0;
  const slack = 0.5 * 10 ** -d + (input.tolerance ?? 0) + EPS;
  const relation = input.relation ?? '=';
  if (relation === '=') return ok(printed >= summary.low - slack && printed <= summary.high + slack);
  if (relation === '>=') return ok(roundTo(summary.high, d) >= printed - EPS);
  if (relation === '>') return ok(summary.high > printed);
  return ok(summary.low < printed);
}

/**
 * The gap between the printed value and the replicates, in printed units: how far p lies outside the
 * interval (numbers), or the share of replicates giving the printed statement.
 */
export function simulationGapSize(printed: PrintedValue, summary: ReplicateSummary, decimals = 0): string {
  if (summary.kind === 'category') {
    const k = summary.counts[valueText(printed)] ?? 0;
    return `${k} of ${summary.n} replicates give the paper's "${valueText(printed)}"`;
  }
  if (typeof printed !== 'number') return '';
  const d = decimals + 1;
  const gap = printed < summary.low ? summary.low - printed : printed > summary.high ? printed - summary.high : 0;
  const side = printed < summary.low ? 'below' : 'above';
  return `the paper's ${printed.toFixed(decimals)} lies ${gap.toFixed(d)} ${side} the 95 % simulation interval [${summary.low.toFixed(d)}, ${summary.high.toFixed(d)}] (mean ${summary.mean.toFixed(d)}, sd ${summary.sd.toFixed(d)}, ${summary.n} replicates)`;
}

/** The simulation interval as a table shows it: "[60.1, 66.3]" or "yes 84 %". */
export function formatSummary(summary: ReplicateSummary, decimals = 0): string {
  if (summary.kind === 'number') return `[${summary.low.toFixed(decimals + 1)}, ${summary.high.toFixed(decimals + 1)}]`;
  const entries = Object.entries(summary.counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return entries.slice(0, 3).map(([v, k]) => `${v} ${Math.round((100 * k) / summary.n)} %`).join('; ');
}
