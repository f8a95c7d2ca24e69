/**
 * How a notebook cell shows the claims it rebuilds: a table (claim, paper, computed, simulation
 * interval, basis, status by the rule in lib/claims/rule.ts) and a Markdown note that counts the
 * statuses and gives, once per distinct text, the reason of each claim outside the simulation's spread
 * (with its measured gap), a tolerance or why a claim is not rebuildable. Pure functions.
 */
import { CLAIM_BASES, pointerValue, type ClaimEntry } from '../records/published-claims';
import type { ClaimReplicates } from '../records/claim-replicates';
import { claimsCoverage, type ClaimRow } from './ledger';
import { CLAIM_STATUSES } from './rule';

/** The one sentence shown beside every coverage count (issue: a calibrated match is not evidence). */
export const CALIBRATED_NOTE =
  'A calibrated claim is a target of the simulator\'s fit (or arithmetic on targets): its match or within-spread status shows the fit, and is not evidence for the paper.';

/** Table rows: the note column points to the numbered notes of `claimsNotes` instead of repeating them. */
export function claimsTable(rows: readonly ClaimRow[]) {
  const notes = distinctNotes(rows);
  return rows.map((r) => ({
    claim: r.id,
    'what is claimed': r.claim,
    paper: r.printed,
    computed: r.computed,
    simulation: r.simulation,
    basis: r.basis,
    status: r.status,
    note: r.note === '' ? '' : `note ${notes.indexOf(r.note) + 1}`,
  }));
}

function distinctNotes(rows: readonly ClaimRow[]): string[] {
  return [...new Set(rows.map((r) => r.note).filter((n) => n !== ''))];
}

const DIFFERING = new Set(['differs', 'outside-simulation-spread']);

/**
 * Markdown: "**Claims in this cell: 24** — 3 match, … ." plus every differing claim by id and the
 * numbered notes.
 */
export function claimsNotes(rows: readonly ClaimRow[]): string {
  const c = claimsCoverage(rows);
  const parts = CLAIM_STATUSES.filter((s) => c.byStatus[s] > 0).map((s) => `${c.byStatus[s]} ${s}`);
  if (c.notRebuildable > 0) parts.push(`${c.notRebuildable} not rebuildable`);
  const lines = [`**Claims in this cell: ${c.total}** — ${parts.join(', ')} (status by the rule in lib/claims/rule.ts; on simulated input against the spread of the simulator's replicate corpora).`];
  const differing = rows.filter((r) => DIFFERING.has(r.status));
  if (differing.length > 0) lines.push('', `Differing: ${differing.map((r) => `\`${r.id}\` (${r.status}: paper ${r.printed}, computed ${r.computed}${r.simulation ? `, simulation ${r.simulation}` : ''})`).join('; ')}.`);
  const notes = distinctNotes(rows);
  if (notes.length > 0) lines.push('', ...notes.map((n, i) => `${i + 1}. ${n}`));
  return lines.join('\n');
}

/** Notebook 00's coverage summary for one paper: rebuilt / not rebuildable / total and counts by status. */
export function coverageRow(paper: string, rows: readonly ClaimRow[]): Record<string, string | number> {
  const c = claimsCoverage(rows);
  return {
    paper,
    claims: c.total,
    rebuilt: c.rebuilt,
    'not rebuildable': c.notRebuildable,
    ...Object.fromEntries(CLAIM_STATUSES.map((s) => [s, c.byStatus[s]])),
  };
}

/** Notebook 00's coverage by basis: one row per paper × basis, the statuses counted. */
export function coverageByBasis(paper: string, rows: readonly ClaimRow[]): Array<Record<string, string | number>> {
  const c = claimsCoverage(rows);
  return CLAIM_BASES.map((basis) => ({
    paper,
    basis,
    claims: Object.values(c.byBasis[basis]).reduce((a, b) => a + b, 0),
    ...Object.fromEntries([...CLAIM_STATUSES, 'not rebuildable'].map((s) => [s, c.byBasis[basis][s as 'match']])),
  }));
}

/** The differing entries for notebook 00's table, with the cell that shows each and why it differs. */
export function differingTable(rows: readonly ClaimRow[]) {
  return rows
    .filter((r) => DIFFERING.has(r.status))
    .map((r) => ({ claim: r.id, where: r.where, basis: r.basis, paper: r.printed, computed: r.computed, simulation: r.simulation, status: r.status, why: r.note, cell: r.cell }));
}

/**
 * The fit table of a simulator from its replicate statistics: every calibrated numeric claim (a fit
 * target or arithmetic on targets) with the paper's value, the replicates' mean (expected) and sd, and
 * z = (expected − paper) / max(sd, half a printed unit); the last row is J = Σ z² over those targets.
 */
export function fitTable(doc: { claims: readonly ClaimEntry[] }, replicates: ClaimReplicates): Array<Record<string, string | number>> {
  const rows: Array<Record<string, string | number>> = [];
  let objective = 0;
  for (const c of doc.claims) {
    const s = replicates.claims[c.id];
    const printed = pointerValue(doc, c.value);
    if (c.basis !== 'calibrated' || s === undefined || s.kind !== 'number' || c.relation !== '=' || typeof printed !== 'number') continue;
    const d = c.decimals ?? 0;
    const z = (s.mean - printed) / Math.max(s.sd, 0.5 * 10 ** -d);
    objective += z * z;
    rows.push({ target: c.id, paper: printed.toFixed(d), expected: s.mean.toFixed(d + 1), sd: s.sd.toFixed(d + 1), z: z.toFixed(2) });
  }
  rows.push({ target: `J = Σ z² over ${rows.length} targets (${replicates.replicates} replicates)`, paper: '', expected: '', sd: '', z: objective.toFixed(1) });
  return rows;
}
