/** A small claims ledger shared by the ledger and display tests: three rebuilt claims and one with a reason. */
import type { ClaimEntry } from '../../lib/records/published-claims';
import type { Computed } from '../../lib/claims/ledger';

export const doc = { t: { a: 61.3, b: 4, c: true } };
export const claim = (id: string, value: string, extra: Partial<ClaimEntry> = {}): ClaimEntry =>
  ({ id, where: 'Table X', claim: `claim ${id}`, value, relation: '=', from: 'data', rebuilt: { function: 'lib/x.ts#f', cell: 'notebooks/04-x.ipynb#claims-x' }, ...extra }) as ClaimEntry;
export const claims = [
  claim('kst.table3.P0.exact', '/t/a', { decimals: 1 }),
  claim('kst.table4.x.P0.rank', '/t/b', { decimals: 0 }),
  claim('kst.models.p2-above-p1', '/t/c'),
  { id: 'kst.collection.cost', where: '§4.3', claim: 'cost', value: '/t/b', decimals: 0, relation: '=', from: 'bills', not_rebuildable: 'needs the bills' } as ClaimEntry,
];
export const values = new Map<string, Computed>([
  ['kst.table3.P0.exact', { value: 61.0 }],
  ['kst.table4.x.P0.rank', { value: 4 }],
  ['kst.models.p2-above-p1', { value: true }],
]);
