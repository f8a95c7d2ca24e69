/**
 * lib/report/psi-claims.ts: the Figure 1 trend per model, the common threshold and spread the paper's
 * selection counts imply, and the per-model spread of defective-case PSI beside the cases selected.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { erf } from 'simple-statistics';
import type { PublishedPsi } from '../../lib/records/published-psi';
import { bloomSlopeTable, impliedSelectionSpread, selectionSpreadTable } from '../../lib/report/psi-claims';
import { A, B, near, rec } from './psi-fixtures';

test('impliedSelectionSpread recovers the threshold and spread that generated the counts', () => {
  // Counts generated from t = 0.6, σ = 0.05 with n = 30: k = 30·Φ((t − m)/σ).
  const means = { A: 0.64, B: 0.56, C: 0.58, D: 0.61 };
  const selected = Object.fromEntries(Object.entries(means).map(([m, mu]) => [m, 30 * 0.5 * (1 + erf((0.6 - mu) / 0.05 / Math.SQRT2))]));
  const fit = impliedSelectionSpread({ table1: { psi: means }, table4: { selected_per_model: selected } } as unknown as PublishedPsi, 30);
  // Φ from erf here, Φ⁻¹ from simple-statistics' probit inside: both approximations, hence the tolerance.
  assert.ok(Math.abs(fit.threshold - 0.6) < 2e-3, String(fit.threshold));
  assert.ok(Math.abs(fit.sigma - 0.05) < 2e-3, String(fit.sigma));
});

test('bloomSlopeTable: one row per slope, the paper model beside it, a slope that cannot be fitted shown as empty', () => {
  const rows = bloomSlopeTable(
    [
      { model: A, records: 3, levels: [1, 2, 3], slope: -0.02, declines: true },
      { model: B, records: 2, levels: [4], slope: Number.NaN, declines: false },
      { model: 'all models', records: 5, levels: [1, 2, 3, 4], slope: 0.01, declines: false },
    ],
    { [A]: 'ChatGPT' },
  );
  assert.deepEqual(rows, [
    { model: A, 'paper model': 'ChatGPT', records: 3, levels: '1,2,3', 'PSI per level (slope)': -0.02, declines: true },
    { model: B, 'paper model': null, records: 2, levels: '4', 'PSI per level (slope)': null, declines: false },
    { model: 'all models', 'paper model': 'all models', records: 5, levels: '1,2,3,4', 'PSI per level (slope)': 0.01, declines: false },
  ]);
});

test('selectionSpreadTable: round-1 defective PSI per model (mean, sample SD), selected beside the paper count', () => {
  const d = (id: string, model: string, psi: number, extra = {}) => rec(id, model, [0, 0, 0, 0, 0, 0], { variant: 'defective', psi, ...extra });
  const scored = [
    d('a1', A, 0.5),
    d('a2', A, 0.7),
    d('b1', B, 0.4),
    rec('a3', A, [1, 1, 1, 1, 1, 1]), // standard prompt: not counted
    d('a4', A, 0.1, { round: 2 }), // round 2: not counted
  ];
  const published = { table4: { selected_per_model: { ChatGPT: 4 } } } as unknown as PublishedPsi;
  const [a, b] = selectionSpreadTable(scored, { perModel: { [A]: 1, [B]: 0 }, consideredPerModel: { [A]: 2 } }, published, { [A]: 'ChatGPT' });
  // A: mean (0.5 + 0.7)/2 = 0.6; sample SD sqrt((0.1² + 0.1²)/(2 − 1)) = sqrt(0.02) = 0.1414213562…
  assert.equal(a!.model, A);
  assert.equal(a!['paper model'], 'ChatGPT');
  assert.equal(a!.cases, 2);
  near(a!['defective PSI mean'], 0.6, 'A mean');
  near(a!['defective PSI SD'], 0.1414213562373095, 'A SD');
  assert.deepEqual([a!.selected, a!['selected (paper)']], [1, 4]);
  // B: one case (cases falls back to the records found), no SD of one value, no paper model.
  assert.deepEqual(b, { model: B, 'paper model': null, cases: 1, 'defective PSI mean': 0.4, 'defective PSI SD': null, selected: 0, 'selected (paper)': null });
});
