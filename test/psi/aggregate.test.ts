import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import {
  defectiveShifts,
  deltaSensitivity,
  leaveOneOutWeights,
  meanSubscoresByModel,
  pairRegenerations,
  psiByBloomLevel,
  regenerationResults,
  regenerationSubscoreChanges,
  scorePsiRecords,
  standardVsDefective,
  weightSensitivity,
  type PsiRecord,
  type ScoredRecord,
} from '../../lib/psi';
import { fixtureCourse, T1 } from './helpers';

const close = (actual: number, expected: number, eps = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= eps, `expected ${expected}, got ${actual}`);

/** A scored record whose six sub-scores all equal `psi` (so every mean is easy to check by hand). */
function rec(run_id: string, model: string, variant: 'standard' | 'defective', scenario: string, psi: number, round: 1 | 2 = 1, parent?: string): ScoredRecord {
  return {
    run_id, model, variant, scenario, round, psi,
    subscores: { kd: psi, tv: psi, sd: psi, ef: psi, cl: psi, ra: psi },
    scoreSource: 'recorded',
    ...(parent ? { parent_run_id: parent } : {}),
  };
}

const round1 = [
  rec('a1', 'A', 'standard', 'S01', 0.6),
  rec('a2', 'A', 'standard', 'S02', 0.8),
  rec('a3', 'A', 'defective', 'S01', 0.5),
  rec('a4', 'A', 'defective', 'S02', 0.7),
  rec('b1', 'B', 'standard', 'S01', 0.4),
  rec('b3', 'B', 'defective', 'S01', 0.5),
];
const round2 = [rec('a3-r2', 'A', 'defective', 'S01', 0.6, 2, 'a3'), rec('b3-r2', 'B', 'defective', 'S01', 0.45, 2, 'b3')];

test('Table I/II/III: means per model, standard vs defective, shifts', () => {
  const t1 = meanSubscoresByModel(round1);
  assert.deepEqual(t1.map((r) => [r.model, r.n]), [['A', 2], ['B', 1]]);
  close(t1[0]!.psi, 0.7); // (0.6 + 0.8) / 2
  close(t1[0]!.sd, 0.7);
  close(t1[1]!.psi, 0.4);
  const t2 = standardVsDefective(round1);
  close(t2.perModel[0]!.defective, 0.6); // (0.5 + 0.7) / 2
  close(t2.perModel[0]!.delta, -0.1);
  close(t2.perModel[1]!.delta, 0.1); // 0.5 − 0.4
  close(t2.overall.standard, 0.6); // (0.6 + 0.8 + 0.4) / 3
  close(t2.overall.defective, 1.7 / 3); // (0.5 + 0.7 + 0.5) / 3
  const t3 = defectiveShifts(round1);
  assert.deepEqual(t3.map((r) => r.measure), ['psi', 'kd', 'tv', 'sd', 'ef', 'cl', 'ra']);
  close(t3[3]!.change, 1.7 / 3 - 0.6);
});

test('Figure 1: PSI by target Bloom level (S01 → Apply 3, S02 → Understand 2)', () => {
  const f = psiByBloomLevel(round1, fixtureCourse());
  assert.deepEqual(f.perModel.map((r) => [r.model, r.level, r.n, r.psi]), [['A', 2, 1, 0.8], ['A', 3, 1, 0.6], ['B', 3, 1, 0.4]]);
  assert.equal(f.pooled.length, 2);
  close(f.pooled[1]!.psi, 0.5); // (0.6 + 0.4) / 2
});

test('Tables IV/V: regeneration pairs, improvement rate, gains, sub-score changes', () => {
  const pairs = pairRegenerations(round1, round2);
  const t4 = regenerationResults(pairs);
  // A: 0.5 → 0.6 (+0.1, improved); B: 0.5 → 0.45 (−0.05) → 1 of 2, mean gain 0.025
  assert.equal(t4.overall.cases, 2);
  assert.equal(t4.overall.improved, 1);
  close(t4.overall.rate, 0.5);
  close(t4.overall.meanGain, 0.025);
  assert.deepEqual(t4.perModel.map((m) => [m.model, m.cases, m.improved]), [['A', 1, 1], ['B', 1, 0]]);
  const t5 = regenerationSubscoreChanges(pairs);
  close(t5[0]!.before, 0.5);
  close(t5[0]!.after, 0.525);
  assert.throws(() => pairRegenerations(round1, [rec('x', 'A', 'defective', 'S01', 0.5, 2, 'nope')]), InputError);
  assert.throws(() => pairRegenerations(round1, [...round2, rec('a3-again', 'A', 'defective', 'S01', 0.5, 2, 'a3')]), /more than once/);
});

test('scorePsiRecords: recorded scores kept, text re-scored, missing skipped; δ and weight sensitivity', () => {
  const course = fixtureCourse();
  const base = { round: 1 as const, scenario: 'S01', variant: 'standard' as const, simulated: true, status: 'valid' as const };
  const records: PsiRecord[] = [
    { ...base, run_id: 'x1', model: 'M', text: T1 },
    { ...base, run_id: 'x2', model: 'N', text: 'ignored', scores: { psi: 0.5, kd: 0.5, tv: 0.5, sd: 0.5, ef: 0.5, cl: 0.5, ra: 0.5 } },
    { ...base, run_id: 'x3', model: 'N', text: '', status: 'missing' },
  ];
  const { scored, paths } = scorePsiRecords(records, course);
  assert.deepEqual(paths, { recorded: 1, rescored: 1, skippedMissing: 1 });
  close(scored[0]!.psi, 0.6354332, 1e-6); // T1's hand-worked PSI (score.test.ts)
  assert.equal(scored[1]!.scoreSource, 'recorded');
  assert.throws(() => deltaSensitivity(scored, [0.5]), /x2.*recorded scores only/);
  const always = scorePsiRecords(records, course, {}, { rescore: 'always' }).scored;
  const ds = deltaSensitivity(always.slice(0, 1), [0.65, 0.5]);
  close(ds[0]!.perModel[0]!.psi, 0.6354332, 1e-6);
  // δ 0.5: KD 1 − |2/3 − 0.5| = 0.833333, PSI drops by (0.983333 − 0.833333)/6 = 0.025
  close(ds[1]!.perModel[0]!.kd, 1 - (2 / 3 - 0.5));
  close(ds[1]!.perModel[0]!.psi, 0.6354332 - 0.025, 1e-6);
  const vectors = leaveOneOutWeights();
  assert.equal(vectors.length, 8);
  const ws = weightSensitivity(round1, [{ name: 'ra-only', weights: { kd: 0, tv: 0, sd: 0, ef: 0, cl: 0, ra: 1 } }, ...vectors]);
  assert.deepEqual(ws[0]!.ranking, ['A', 'B']);
  close(ws[0]!.perModel[0]!.psi, 0.7);
  assert.throws(() => weightSensitivity(round1, [{ name: 'bad', weights: { kd: 1, tv: 1, sd: 0, ef: 0, cl: 0, ra: 0 } }]), /sum to 1/);
});
