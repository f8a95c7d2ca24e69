import { test } from 'node:test';
import assert from 'node:assert/strict';
import { erf } from 'simple-statistics';
import { claimsCoverageTable, evaluateClaims, type Computed } from '../../lib/claims/ledger';
import type { ClaimEntry } from '../../lib/records/published-claims';
import type { PublishedPsi } from '../../lib/records/published-psi';
import type { ModelDomainConditionRow } from '../../lib/analysis/breakdowns';
import { claimsNotes, claimsTable, coverageRow, differingTable } from '../../lib/claims/display';
import { leadersTable, modelDomainFigureSpec, modelDomainTable } from '../../lib/report/kst-models';
import { impliedSelectionSpread } from '../../lib/report/psi-claims';

const doc = { t: { a: 61.3, b: 4, c: true } };
const claim = (id: string, value: string, extra: Partial<ClaimEntry> = {}): ClaimEntry =>
  ({ id, where: 'Table X', claim: `claim ${id}`, value, relation: '=', from: 'data', rebuilt: { function: 'lib/x.ts#f', cell: 'notebooks/04-x.ipynb#claims-x' }, ...extra }) as ClaimEntry;
const claims = [
  claim('kst.table3.P0.exact', '/t/a', { decimals: 1 }),
  claim('kst.table4.x.P0.rank', '/t/b', { decimals: 0 }),
  claim('kst.models.p2-above-p1', '/t/c'),
  { id: 'kst.collection.cost', where: '§4.3', claim: 'cost', value: '/t/b', decimals: 0, relation: '=', from: 'bills', not_rebuildable: 'needs the bills' } as ClaimEntry,
];
const values = new Map<string, Computed>([
  ['kst.table3.P0.exact', { value: 61.0 }],
  ['kst.table4.x.P0.rank', { value: 4 }],
  ['kst.models.p2-above-p1', { value: true }],
]);

test('evaluateClaims: printed and computed side by side, the rule decides, a reason replaces a status', () => {
  const rows = evaluateClaims(doc, claims, values, true);
  assert.deepEqual(rows.map((r) => [r.id, r.printed, r.computed, r.status]), [
    ['kst.table3.P0.exact', '61.3', '61.00', 'differs-simulated'],
    ['kst.table4.x.P0.rank', '4', '4', 'match'],
    ['kst.models.p2-above-p1', 'yes', 'yes', 'match'],
    ['kst.collection.cost', '4', '', 'not rebuildable'],
  ]);
  assert.match(rows[0]!.note, /calibrated per profile and condition/);
  assert.equal(rows[3]!.note, 'needs the bills');
  assert.throws(() => evaluateClaims(doc, claims, new Map(), true), /claim kst\.table3\.P0\.exact: its counterpart computed no value/);
  // Not simulated: the same difference is a real one.
  assert.equal(evaluateClaims(doc, claims, values, false)[0]!.status, 'differs');
});

test('claims tables number each distinct note once; coverage counts by status', () => {
  const rows = evaluateClaims(doc, claims, values, true);
  const table = claimsTable(rows);
  assert.deepEqual(table.map((r) => r.note), ['note 1', '', '', 'note 2']);
  const notes = claimsNotes(rows);
  assert.match(notes, /^\*\*Claims in this cell: 4\*\* — 2 match, 0 close, 1 differs-simulated, 0 differs, 1 not rebuildable/);
  assert.match(notes, /`kst\.table3\.P0\.exact` \(differs-simulated: paper 61\.3, computed 61\.00\)/);
  assert.match(notes, /\n2\. needs the bills$/);
  assert.deepEqual(coverageRow('000', rows), { paper: '000', claims: 4, rebuilt: 3, 'not rebuildable': 1, match: 2, close: 0, 'differs-simulated': 1, differs: 0 });
  assert.deepEqual(differingTable(rows).map((r) => r.claim), ['kst.table3.P0.exact']);
});

test('the coverage table for a report links each claim to its notebook cell', () => {
  const [first, , , last] = claimsCoverageTable(evaluateClaims(doc, claims, values, true));
  assert.equal(first!.notebook, '04-x.ipynb');
  assert.equal(first!.cell, 'claims-x');
  assert.equal(first!.anchor, '04-x.ipynb#claims-x');
  assert.equal(last!.anchor, null);
});

const mdc = (model: string, domain: string, condition: 'P0' | 'P1' | 'P2' | 'P3', exact: number, rank: number): ModelDomainConditionRow => ({ model, domain, condition, n: 10, correct: exact * 10, exact, rank });

test('model × domain small multiples: one panel per domain, one trace per model per panel, legend once', () => {
  const rows = [mdc('m1', 'd1', 'P0', 0.5, 2), mdc('m2', 'd1', 'P0', 0.7, 1), mdc('m1', 'd2', 'P0', 1, 1), mdc('m2', 'd2', 'P0', 1, 1)];
  const spec = modelDomainFigureSpec(rows, { domainOrder: ['d1', 'd2'], domainLabels: { d1: 'One' } });
  assert.equal(spec.data.length, 4);
  assert.deepEqual(spec.data.map((t) => [t.xaxis, t.showlegend]), [['x', true], ['x', true], ['x2', false], ['x2', false]]);
  assert.deepEqual(spec.data[1]!.y, [70, null, null, null]);
  assert.deepEqual((spec.layout!.grid as { columns: number }).columns, 2);
  assert.deepEqual((spec.layout!.annotations as Array<{ text: string }>).map((a) => a.text), ['One', 'd2']);
  assert.deepEqual(modelDomainTable(rows, {}, ['d2']), [{ domain: 'd2', model: 'm1', P0: '100.0 (1)', P1: null, P2: null, P3: null }, { domain: 'd2', model: 'm2', P0: '100.0 (1)', P1: null, P2: null, P3: null }]);
});

test('the P1 leaders table sets the paper leaders beside the computed ones', () => {
  const published = { p1_by_domain: { leaders: { d1: ['Paper M', 71.7] } } } as never;
  const rows = leadersTable([{ domain: 'd1', condition: 'P1', top: 0.739, leaders: ['m1', 'm2'], models: 6 }], published, { m1: 'Paper M' });
  assert.deepEqual(rows, [{ domain: 'd1', 'highest (%)': 73.9, 'highest (paper, %)': 71.7, leaders: 'm1 ≈ Paper M / m2', 'leaders (paper)': 'Paper M', 'models at the top': 2 }]);
});

test('impliedSelectionSpread recovers the threshold and spread that generated the counts', () => {
  // Counts generated from t = 0.6, σ = 0.05 with n = 30: k = 30·Φ((t − m)/σ).
  const means = { A: 0.64, B: 0.56, C: 0.58, D: 0.61 };
  const selected = Object.fromEntries(Object.entries(means).map(([m, mu]) => [m, 30 * 0.5 * (1 + erf((0.6 - mu) / 0.05 / Math.SQRT2))]));
  const fit = impliedSelectionSpread({ table1: { psi: means }, table4: { selected_per_model: selected } } as unknown as PublishedPsi, 30);
  // Φ from erf here, Φ⁻¹ from simple-statistics' probit inside: both approximations, hence the tolerance.
  assert.ok(Math.abs(fit.threshold - 0.6) < 2e-3, String(fit.threshold));
  assert.ok(Math.abs(fit.sigma - 0.05) < 2e-3, String(fit.sigma));
});
