/**
 * Evaluating a claims ledger against computed values: one row per claim with its printed value, the
 * rebuilt value, its basis, the simulation interval (when replicate statistics are given), the status
 * from the rule (lib/claims/rule.ts) and, for a claim outside the simulation's spread, the reason and
 * the measured gap (lib/claims/simulation-gaps.ts). Also the coverage summary of notebook 00 and of the
 * reviewer report. Pure functions over the parsed ledger, a map of values and the replicate statistics.
 */
import { CLAIM_BASES, pointerValue, type ClaimBasis, type ClaimEntry, type PrintedValue } from '../records/published-claims';
import type { ClaimReplicates } from '../records/claim-replicates';
import { claimStatus, CLAIM_STATUSES, formatSummary, roundTo, simulationGapSize, simulationStatus, type ClaimStatus } from './rule';
import { simulationGap } from './simulation-gaps';

/**
 * The groups of results a paper's claims share (Table 3, the scored records, …), each computed once and
 * only when a claim asks for it: KstResults and PsiResults keep theirs under a key through `once`.
 */
export class LazyResults<Inputs> {
  private memo = new Map<string, unknown>();
  constructor(readonly inputs: Inputs) {}
  protected once<T>(key: string, f: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, f());
    return this.memo.get(key) as T;
  }
}

/**
 * A rebuilt value in the claim's printed units, with an optional word on how it was obtained. When
 * this input cannot show the claim either way (the prompts were not recorded, there are no final
 * records, …), `unavailable` says why: the row is then not rebuildable on this input, never `differs`,
 * and `value` is not read.
 */
export interface Computed {
  value: PrintedValue;
  detail?: string;
  unavailable?: string;
}

/**
 * The result of a check over recorded inputs (the prompts of lib/claims/prompts.ts, the regeneration
 * prompts of regeneration-prompts.ts): whether the claim holds, or why this input cannot show it.
 */
export interface ClaimCheck {
  /** True when the check ran on everything it needs and the claim holds. */
  holds: boolean;
  /** Set when the input cannot show the claim either way: why. `holds` is then false, but nothing was found to differ. */
  unavailable?: string;
  /** Records (prompts) checked. */
  prompts: number;
  /** Groups compared, for a check that compares groups of records. */
  groups?: number;
  /** What was shown, or the first problem (naming the record). */
  detail: string;
}

/** A check's result as a claim's computed value: unavailable stays unavailable, else holds with its detail. */
export function computedFromCheck(check: ClaimCheck): Computed {
  return check.unavailable !== undefined ? { value: false, unavailable: check.unavailable } : { value: check.holds, detail: check.detail };
}

/** The note of a claim the input cannot show (Computed.unavailable). */
export const UNAVAILABLE_NOTE = 'cannot be checked on this input: ';

export interface ClaimRow {
  id: string;
  where: string;
  claim: string;
  printed: string;
  computed: string;
  basis: ClaimBasis;
  /** The replicates' 95 % interval (or the shares of the statements they give); '' without replicate statistics. */
  simulation: string;
  status: ClaimStatus | 'not rebuildable';
  /** For outside-simulation-spread: the reason and the gap; for close: the tolerance; for not rebuildable: the reason. */
  note: string;
  /** `notebooks/<file>.ipynb#<cell id>` of the cell that shows the claim, or null. */
  cell: string | null;
}

/** A printed value as the paper prints it: 61.3 with one decimal → "61.3"; relation "<" → "< 0.0001". */
export function formatPrinted(claim: Pick<ClaimEntry, 'decimals' | 'relation'>, value: PrintedValue): string {
  const v = typeof value === 'number' ? value.toFixed(claim.decimals ?? 0) : typeof value === 'boolean' ? (value ? 'yes' : 'no') : value;
  return claim.relation && claim.relation !== '=' ? `${claim.relation} ${v}` : v;
}

/** A computed value one decimal finer than printed (so a near miss is visible): 0.61333 at 1 decimal → "61.33" given 61.333. */
export function formatComputed(claim: Pick<ClaimEntry, 'decimals'>, computed: Computed): string {
  const v = computed.value;
  const text = typeof v === 'number' ? (!Number.isFinite(v) ? 'none' : (claim.decimals ?? 0) === 0 && Number.isInteger(v) ? String(v) : roundTo(v, (claim.decimals ?? 0) + 1).toFixed((claim.decimals ?? 0) + 1)) : typeof v === 'boolean' ? (v ? 'yes' : 'no') : v;
  return computed.detail ? `${text} (${computed.detail})` : text;
}

/**
 * One row per claim of the ledger (`doc` is the parsed published file, `claims` its entries or a subset).
 * Rebuilt claims take their value from `values` (missing → an Error naming the claim: a counterpart
 * must compute every claim it is named for); a value the input cannot give (`unavailable`) makes the
 * row not rebuildable, with the reason as its note, counted as such by claimsCoverage. `simulated` is the input's own provenance; on simulated
 * input every claim not by construction needs its replicate summary in `replicates` (an Error naming
 * the claim otherwise). On collected input the replicate interval is shown beside, as a reference.
 */
export function evaluateClaims(doc: unknown, claims: readonly ClaimEntry[], values: ReadonlyMap<string, Computed>, simulated: boolean, replicates?: ClaimReplicates): ClaimRow[] {
  return claims.map((c) => {
    const printed = pointerValue(doc, c.value) as PrintedValue;
    const summary = replicates?.claims[c.id];
    const base = { id: c.id, where: c.where, claim: c.claim, printed: formatPrinted(c, printed), basis: c.basis, simulation: summary ? formatSummary(summary, c.decimals ?? 0) : '' };
    if (c.rebuilt === undefined) return { ...base, computed: '', status: 'not rebuildable' as const, note: c.not_rebuildable ?? '', cell: null };
    const computed = values.get(c.id);
    if (computed === undefined) throw new Error(`claim ${c.id}: its counterpart computed no value`);
    if (computed.unavailable !== undefined) return { ...base, computed: '', status: 'not rebuildable' as const, note: `${UNAVAILABLE_NOTE}${computed.unavailable}`, cell: c.rebuilt.cell };
    const rule = { printed, decimals: c.decimals, relation: c.relation, tolerance: c.tolerance?.value };
    let status: ClaimStatus;
    if (simulated && c.basis !== 'by-construction') {
      if (summary === undefined) throw new Error(`claim ${c.id}: simulated input, but no replicate statistics for it (run scripts/replicates.ts)`);
      status = simulationStatus({ ...rule, summary });
    } else status = claimStatus({ ...rule, computed: computed.value });
    const note =
      status === 'outside-simulation-spread'
        ? `${simulationGap(c.id) ?? 'NO REASON GIVEN.'} Gap: ${simulationGapSize(printed, summary!, c.decimals ?? 0)}.`
        : status === 'close'
          ? `within the stated tolerance ±${c.tolerance!.value}: ${c.tolerance!.why}`
          : '';
    return { ...base, computed: formatComputed(c, computed), status, note, cell: c.rebuilt.cell };
  });
}

export interface ClaimsCoverage {
  total: number;
  rebuilt: number;
  notRebuildable: number;
  byStatus: Record<ClaimStatus, number>;
  /** basis → status (or 'not rebuildable') → count */
  byBasis: Record<ClaimBasis, Record<ClaimStatus | 'not rebuildable', number>>;
}

/** Rebuilt / not rebuildable / total, the counts by status, and by basis × status. */
export function claimsCoverage(rows: readonly ClaimRow[]): ClaimsCoverage {
  const zero = () => Object.fromEntries([...CLAIM_STATUSES, 'not rebuildable'].map((s) => [s, 0])) as Record<ClaimStatus | 'not rebuildable', number>;
  const byStatus = Object.fromEntries(CLAIM_STATUSES.map((s) => [s, 0])) as Record<ClaimStatus, number>;
  const byBasis = Object.fromEntries(CLAIM_BASES.map((b) => [b, zero()])) as ClaimsCoverage['byBasis'];
  let notRebuildable = 0;
  for (const r of rows) {
    byBasis[r.basis][r.status]++;
    if (r.status === 'not rebuildable') notRebuildable++;
    else byStatus[r.status]++;
  }
  return { total: rows.length, rebuilt: rows.length - notRebuildable, notRebuildable, byStatus, byBasis };
}

/**
 * The claims table of a reviewer report: every claim with its status and a link target for the cell
 * that shows it (`anchor` = the notebook file and cell id, e.g. `04-table3-figure1.ipynb#claims-table3`;
 * a report that renders notebooks can turn it into `<page>.html#<cell id>`).
 */
export function claimsCoverageTable(rows: readonly ClaimRow[]) {
  return rows.map((r) => {
    const [notebook, cellId] = r.cell === null ? [null, null] : (r.cell.replace(/^notebooks\//, '').split('#') as [string, string]);
    return { id: r.id, where: r.where, claim: r.claim, basis: r.basis, paper: r.printed, computed: r.computed, simulation: r.simulation, status: r.status, note: r.note, notebook, cell: cellId, anchor: r.cell === null ? null : `${notebook}#${cellId}` };
  });
}

/**
 * The values of the claims of `doc` whose counterpart cell is one of `cells` (all claims when omitted),
 * each rebuilt by the first pattern of `rebuilds` its id matches (an Error naming the claim when none
 * does). `results` is the paper's lazily computed inputs, handed to every rebuild.
 */
export function claimValuesFor<R>(
  doc: { claims: readonly ClaimEntry[] },
  rebuilds: ReadonlyArray<readonly [RegExp, (m: RegExpMatchArray, results: R) => Computed]>,
  results: R,
  cells?: readonly string[],
): { claims: ClaimEntry[]; values: Map<string, Computed> } {
  const claims = doc.claims.filter((c) => cells === undefined || (c.rebuilt !== undefined && cells.includes(c.rebuilt.cell.split('#')[1]!)));
  const values = new Map<string, Computed>();
  for (const c of claims) {
    if (c.rebuilt === undefined) continue;
    const pattern = rebuilds.find(([re]) => re.test(c.id));
    if (!pattern) throw new Error(`claim ${c.id}: no rebuild in lib/claims matches it`);
    values.set(c.id, pattern[1](c.id.match(pattern[0])!, results));
  }
  return { claims, values };
}

/** The rows of `claimValuesFor`'s claims, evaluated by the rule (replicates: see evaluateClaims). */
export function claimRowsFor<R>(
  doc: { claims: readonly ClaimEntry[] },
  rebuilds: ReadonlyArray<readonly [RegExp, (m: RegExpMatchArray, results: R) => Computed]>,
  results: R,
  simulated: boolean,
  cells?: readonly string[],
  replicates?: ClaimReplicates,
): ClaimRow[] {
  const { claims, values } = claimValuesFor(doc, rebuilds, results, cells);
  return evaluateClaims(doc, claims, values, simulated, replicates);
}
