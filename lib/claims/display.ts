/**
 * How a notebook cell shows the claims it rebuilds: a table (claim, paper, computed, status by the rule
 * in lib/claims/rule.ts) and a Markdown note that counts the statuses and says, once per distinct
 * reason, what the simulation does not reproduce for the claims that differ. Pure functions.
 */
import { claimsCoverage, type ClaimRow } from './ledger';

/** Table rows: the note column points to the numbered notes of `claimsNotes` instead of repeating them. */
export function claimsTable(rows: readonly ClaimRow[]) {
  const notes = distinctNotes(rows);
  return rows.map((r) => ({
    claim: r.id,
    'what is claimed': r.claim,
    paper: r.printed,
    computed: r.computed,
    status: r.status,
    note: r.note === '' ? '' : `note ${notes.indexOf(r.note) + 1}`,
  }));
}

function distinctNotes(rows: readonly ClaimRow[]): string[] {
  return [...new Set(rows.map((r) => r.note).filter((n) => n !== ''))];
}

/**
 * Markdown: "**Claims in this cell: 24** — 3 match, … ." plus every differing claim by id and the
 * numbered notes (for differs-simulated: what the simulation does not reproduce; for close: the stated
 * tolerance; for not rebuildable: the reason).
 */
export function claimsNotes(rows: readonly ClaimRow[]): string {
  const c = claimsCoverage(rows);
  const parts = [`${c.byStatus.match} match`, `${c.byStatus.close} close`, `${c.byStatus['differs-simulated']} differs-simulated`, `${c.byStatus.differs} differs`];
  if (c.notRebuildable > 0) parts.push(`${c.notRebuildable} not rebuildable`);
  const lines = [`**Claims in this cell: ${c.total}** — ${parts.join(', ')} (status by the rule in lib/claims/rule.ts).`];
  const differing = rows.filter((r) => r.status === 'differs' || r.status === 'differs-simulated');
  if (differing.length > 0) lines.push('', `Differing: ${differing.map((r) => `\`${r.id}\` (${r.status}: paper ${r.printed}, computed ${r.computed})`).join('; ')}.`);
  const notes = distinctNotes(rows);
  if (notes.length > 0) lines.push('', ...notes.map((n, i) => `${i + 1}. ${n}`));
  return lines.join('\n');
}

/** Notebook 00's coverage summary for one paper: rebuilt / not rebuildable / total and counts by status. */
export function coverageRow(paper: string, rows: readonly ClaimRow[]) {
  const c = claimsCoverage(rows);
  return {
    paper,
    claims: c.total,
    rebuilt: c.rebuilt,
    'not rebuildable': c.notRebuildable,
    match: c.byStatus.match,
    close: c.byStatus.close,
    'differs-simulated': c.byStatus['differs-simulated'],
    differs: c.byStatus.differs,
  };
}

/** The differs* entries for notebook 00's table, with the cell that shows each. */
export function differingTable(rows: readonly ClaimRow[]) {
  return rows
    .filter((r) => r.status === 'differs' || r.status === 'differs-simulated')
    .map((r) => ({ claim: r.id, where: r.where, paper: r.printed, computed: r.computed, status: r.status, cell: r.cell }));
}
