import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOT_PRINTED } from '../../lib/report/psi-tables';
import {
  bloomTrend, compareScorings, defectiveShiftsComparison, figure1Table, publishedRanking, rankingText, scorePathsTable, table1Comparison, table1Spread,
  table2Comparison,
} from '../../lib/report/psi-round1';
import { A, B, assertRowNear, mirrors, near, published, rec } from './psi-fixtures';

test('Table I sets the paper values beside the computed means (full precision) and says "not printed" otherwise', () => {
  const rows = table1Comparison(
    [
      { model: A, n: 30, psi: 0.66032, kd: 0.8257, tv: 0.5577, sd: 0.42861, ef: 0.33309, cl: 0.9968, ra: 0.82 },
      { model: 'other', n: 2, psi: 0.5, kd: 0.5, tv: 0.5, sd: 0.5, ef: 0.5, cl: 0.5, ra: 0.5 },
    ],
    published,
    mirrors,
  );
  assert.deepEqual(rows[0], {
    model: A, 'paper model': 'ChatGPT', n: 30, PSI: 0.66032, 'PSI (paper)': 0.638,
    KD: 0.8257, 'KD (paper)': NOT_PRINTED, TV: 0.5577, 'TV (paper)': NOT_PRINTED, SD: 0.42861, 'SD (paper)': 0.492,
    EF: 0.33309, 'EF (paper)': 0.334, CL: 0.9968, 'CL (paper)': '≥ 0.996', RA: 0.82, 'RA (paper)': NOT_PRINTED,
  });
  assert.equal(rows[1]!['paper model'], null);
  assert.equal(rows[1]!['PSI (paper)'], NOT_PRINTED);
  assert.equal(rows[1]!['EF (paper)'], NOT_PRINTED);
});

test('rankings: computed and the paper’s', () => {
  assert.equal(rankingText([{ model: 'b', psi: 0.5 }, { model: 'a', psi: 0.5 }, { model: 'c', psi: 0.7 }], { c: 'C!' }), 'C! > a > b');
  assert.equal(publishedRanking(published), 'ChatGPT > Qwen 3 > Gemma 4 > Gemini');
});

test('Table II: per-model rows take the paper standard PSI from Table I; the overall Δ is −0.002', () => {
  const rows = table2Comparison(
    {
      perModel: [{ model: B, nStandard: 30, nDefective: 30, standard: 0.5791, defective: 0.5729, delta: -0.0062 }],
      overall: { nStandard: 120, nDefective: 120, standard: 0.60508, defective: 0.60698, delta: 0.0019 },
    },
    published,
    mirrors,
  );
  assert.equal(rows.length, 2);
  assert.equal(rows[0]!['standard (paper)'], 0.557);
  assert.equal(rows[0]!['Δ'], -0.0062);
  assert.equal(rows[0]!.standard, 0.5791);
  assert.equal(rows[0]!.defective, 0.5729);
  assert.equal(rows[0]!['Δ (paper)'], NOT_PRINTED);
  assert.deepEqual(rows[1], {
    model: 'all models', 'paper model': 'all models', 'n standard': 120, 'n defective': 120,
    standard: 0.60508, 'standard (paper)': NOT_PRINTED, defective: 0.60698, 'defective (paper)': NOT_PRINTED, 'Δ': 0.0019, 'Δ (paper)': -0.002,
  });
});

test('Table III carries the printed shifts', () => {
  const shift = (measure: 'psi' | 'kd' | 'tv' | 'sd' | 'ef' | 'cl' | 'ra', before: number, after: number) => ({ measure, before, after, change: after - before });
  const t3 = defectiveShiftsComparison([shift('psi', 0.6, 0.598), shift('tv', 0.5, 0.559), shift('cl', 0.99, 0.99)], published);
  assert.deepEqual(t3.map((r) => [r.measure, r['shift (paper)']]), [['PSI', -0.002], ['TV', 0.059], ['CL', NOT_PRINTED]]);
  // shifts by hand: 0.598 − 0.6 = −0.002, 0.559 − 0.5 = 0.059, 0.99 − 0.99 = 0
  assertRowNear(t3[0], { measure: 'PSI', standard: 0.6, defective: 0.598, shift: -0.002, 'shift (paper)': -0.002 });
  near(t3[1]!.shift, 0.059, 'TV shift');
  assert.equal(t3[2]!.shift, 0);
});

test('Figure 1 table and the declining-trend check', () => {
  const perModel = [
    { model: 'm1', level: 1, levelName: 'Remember', n: 1, psi: 0.6 },
    { model: 'm1', level: 2, levelName: 'Understand', n: 7, psi: 0.58 },
    { model: 'm1', level: 4, levelName: 'Analyze', n: 6, psi: 0.59 },
    { model: 'm2', level: 1, levelName: 'Remember', n: 1, psi: 0.7 },
    { model: 'm2', level: 4, levelName: 'Analyze', n: 6, psi: 0.5 },
  ];
  const pooled = [
    { level: 1, levelName: 'Remember', n: 2, psi: 0.65 },
    { level: 2, levelName: 'Understand', n: 7, psi: 0.58 },
    { level: 4, levelName: 'Analyze', n: 12, psi: 0.545 },
  ];
  const t = figure1Table(perModel, pooled, published);
  assert.deepEqual(t[0], { level: 1, 'target Bloom level': 'Remember', n: 2, m1: 0.6, m2: 0.7, 'all models': 0.65, 'all models (paper)': 0.6 });
  assert.equal(t[1]!['m2'], null);
  assert.equal(t[0]!['all models (paper)'], 0.6);
  assert.equal(t[1]!['all models (paper)'], NOT_PRINTED);
  assert.equal(t[2]!['all models (paper)'], 0.56);
  const trend = bloomTrend(perModel, pooled);
  assertRowNear(trend[0], { model: 'm1', levels: '1,2,4', 'PSI lowest level': 0.6, 'PSI highest level': 0.59, change: -0.01, 'declines overall': true, 'never rises': false });
  assert.equal(trend[1]!['never rises'], true);
  assert.equal(trend[2]!.model, 'all models');
  near(trend[2]!.change, -0.105, 'pooled change'); // 0.545 − 0.65
});


test('scorePathsTable and compareScorings', () => {
  assert.deepEqual(scorePathsTable('round 1', { recorded: 3, rescored: 1, skippedMissing: 0 }).map((r) => r.n), [3, 1, 0]);
  const a = [rec('r1', A, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]), rec('r2', A, [0.6, 0.6, 0.6, 0.6, 0.6, 0.6])];
  const b = [rec('r2', A, [0.6, 0.6, 0.6, 0.6, 0.6, 0.9]), rec('r1', A, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5])];
  const c = compareScorings(a, b);
  assert.equal(c.matched, 2);
  assert.equal(c.largestPsiDifferenceRun, 'r2');
  assert.ok(Math.abs(c.maxPsiDifference - 0.05) < 1e-12);
  assert.ok(Math.abs(c.maxSubscoreDifference - 0.3) < 1e-12);
  assert.deepEqual(compareScorings(a, a), { matched: 2, maxPsiDifference: 0, maxSubscoreDifference: 0, largestPsiDifferenceRun: null });
  assert.throws(() => compareScorings(a, [a[0]!, rec('r3', A, [0, 0, 0, 0, 0, 0])]), /r2.*first list only/);
});

test('table1Spread: PSI range, S_SD highest/lowest ratio, distinct S_EF, lowest S_CL, each beside the paper', () => {
  const row = (model: string, psi: number, sd: number, ef: number, cl: number) => ({ model, n: 10, psi, kd: 0.8, tv: 1, sd, ef, cl, ra: 0.5 });
  const spread = table1Spread([row(A, 0.62, 0.3, 0.3341, 0.998), row(B, 0.54, 0.06, 0.3338, 0.97), row('m3', 0.58, 0.12, 0.3344, 1)], published);
  assert.deepEqual(spread.psi, { min: 0.54, max: 0.62, paperMin: 0.557, paperMax: 0.638 });
  // 0.3 / 0.06 = 5 (to the last bit: 4.999999999999999 or 5); paper 0.492 / 0.087 (its Table I S_SD for ChatGPT and Gemini)
  near(spread.sdRatio.computed, 5, 'S_SD ratio');
  assert.equal(spread.sdRatio.paperHighest, published.table1.sd['ChatGPT']);
  assert.equal(spread.sdRatio.paperLowest, published.table1.sd['Gemini']);
  near(spread.sdRatio.paper, 5.655172413793104, 'paper ratio (0.492 / 0.087 by hand)');
  assert.deepEqual(spread.ef, { distinct: ['0.334'], paper: 0.334 });
  assert.deepEqual(spread.cl, { min: 0.97, paperMin: 0.996 });
});
