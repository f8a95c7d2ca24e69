/** A small claims ledger shared by the ledger and display tests: three rebuilt claims, one by construction, and one with a reason. */
import type { ClaimEntry } from '../../lib/records/published-claims';
import type { ClaimReplicates } from '../../lib/records/claim-replicates';
import type { Computed } from '../../lib/claims/ledger';

export const doc = { t: { a: 61.3, b: 4, c: true, n: 600 } };
export const claim = (id: string, value: string, extra: Partial<ClaimEntry> = {}): ClaimEntry =>
  ({ id, where: 'Table X', claim: `claim ${id}`, basis: 'calibrated', value, relation: '=', from: 'data', rebuilt: { function: 'lib/x.ts#f', cell: 'notebooks/04-x.ipynb#claims-x' }, ...extra }) as ClaimEntry;
export const claims = [
  claim('kst.table3.P0.exact', '/t/a', { decimals: 1 }),
  claim('kst.table4.x.P0.rank', '/t/b', { decimals: 0 }),
  claim('kst.models.p2-above-p1', '/t/c', { basis: 'independent' }),
  claim('kst.table3.P0.n', '/t/n', { decimals: 0, basis: 'by-construction' }),
  { id: 'kst.collection.cost', where: '§4.3', claim: 'cost', basis: 'independent', value: '/t/b', decimals: 0, relation: '=', from: 'bills', not_rebuildable: 'needs the bills' } as ClaimEntry,
];
export const values = new Map<string, Computed>([
  ['kst.table3.P0.exact', { value: 61.0 }],
  ['kst.table4.x.P0.rank', { value: 4 }],
  ['kst.models.p2-above-p1', { value: true }],
  ['kst.table3.P0.n', { value: 600 }],
]);
/** Replicates: P0 exact runs [62.0, 66.0] (the paper's 61.3 is outside), the rank [2, 5], the statement is "yes" in 40 of 200. */
export const replicates: ClaimReplicates = {
  paper: 'kst',
  simulated: true,
  generator: 'test',
  fingerprint: 'test',
  replicates: 200,
  seeds: ['~r1'],
  claims: {
    'kst.table3.P0.exact': { kind: 'number', n: 200, mean: 64, sd: 1, low: 62, high: 66 },
    'kst.table4.x.P0.rank': { kind: 'number', n: 200, mean: 3.5, sd: 1, low: 2, high: 5 },
    'kst.models.p2-above-p1': { kind: 'category', n: 200, counts: { no: 160, yes: 40 } },
  },
};
