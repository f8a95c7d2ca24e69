/**
 * lib/report/kst-models.ts: each model's average over the conditions beside its paper row, the P1
 * leaders by domain, and model × domain × condition as a table and as small multiples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelDomainConditionRow } from '../../lib/analysis/breakdowns';
import { modelAverages } from '../../lib/analysis/breakdowns';
import type { Table4Row } from '../../lib/analysis/table4';
import type { PublishedKst } from '../../lib/records/published-kst';
import { leadersTable, modelAveragesTable, modelDomainFigureSpec, modelDomainTable } from '../../lib/report/kst-models';

test('modelAveragesTable: a two-model toy, per-model averages over the conditions beside the paper row', () => {
  // m1 (mirrors "Paper M"): exact 0.50, 0.60, 1.00, 0.90 → (0.5 + 0.6 + 1 + 0.9)/4 = 3.0/4 = 0.75 → 75.0 %.
  // m2 (no paper row), only two conditions: 0.20, 0.45 → 0.65/2 = 0.325 → 32.5 %.
  // Paper M's printed row: 76, 70, 98, 100 → 344/4 = 86; the unmirrored model has none.
  const t4 = (model: string, condition: Table4Row['condition'], exact: number): Table4Row => ({ model, condition, n: 20, exact, rank: 1 });
  const rows = [t4('m1', 'P0', 0.5), t4('m1', 'P1', 0.6), t4('m1', 'P2', 1), t4('m1', 'P3', 0.9), t4('m2', 'P0', 0.2), t4('m2', 'P1', 0.45)];
  const published = { table4: { rows: [{ model: 'Paper M', P0: [76, 1], P1: [70, 1], P2: [98, 4], P3: [100, 1] }] } } as unknown as PublishedKst;
  assert.deepEqual(modelAveragesTable(modelAverages(rows), published, { m1: 'Paper M' }), [
    { model: 'm1', 'paper row': 'Paper M', conditions: 4, 'average (%)': 75, 'average (paper, %)': 86 },
    { model: 'm2', 'paper row': null, conditions: 2, 'average (%)': 32.5, 'average (paper, %)': null },
  ]);
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

test('model × domain table: a mirrored model is labelled "short ≈ paper", cells "accuracy (rank)" to one decimal', () => {
  // 0.739 → 73.9; 2/3 → 66.666… → 66.7; the simulated model's label drops its provider prefix.
  const rows = [mdc('simulated:sim-a', 'd1', 'P1', 0.739, 1), mdc('x:m2', 'd1', 'P1', 2 / 3, 2)];
  assert.deepEqual(modelDomainTable(rows, { 'simulated:sim-a': 'Paper A' }, ['d1']), [
    { domain: 'd1', model: 'sim-a ≈ Paper A', P0: null, P1: '73.9 (1)', P2: null, P3: null },
    { domain: 'd1', model: 'm2', P0: null, P1: '66.7 (2)', P2: null, P3: null },
  ]);
});

test('leadersTable: only the asked condition; the paper column is filled for P1 only', () => {
  const published = { p1_by_domain: { leaders: { d1: ['Paper M', 71.7] } } } as never;
  const leaders = [
    { domain: 'd1', condition: 'P1', top: 0.5, leaders: ['m1'], models: 2 },
    { domain: 'd1', condition: 'P2', top: 1, leaders: ['m1', 'm2'], models: 2 },
  ];
  assert.deepEqual(leadersTable(leaders, published, {}, 'P2'), [
    { domain: 'd1', 'highest (%)': 100, 'highest (paper, %)': null, leaders: 'm1 / m2', 'leaders (paper)': null, 'models at the top': 2 },
  ]);
  assert.equal(leadersTable(leaders, published, {}).length, 1);
});
