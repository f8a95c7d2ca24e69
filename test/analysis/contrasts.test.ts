import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contrastDifferences, contrasts, contrastsInDesign } from '../../lib/analysis/contrasts';
import { scoredRecord as rec } from './helpers';

// Two states of abc: keys 'abc:{A}' and 'abc:{}' ('A' < '}' in code units, so {A} sorts first).
//   state   P0 exact (f1)   P1 exact (f1)   P2 exact
//   {}      0 (2/3)         1 (1)           1 and 0 (two models: mean 0.5)
//   {A}     0 (2/3)         1 (1)           1
// P1−P0 exact: [1 − 0, 1 − 0] = [1, 1];  f1: [1/3, 1/3]
// P2−P1 exact: {A} 1 − 1 = 0, {} 0.5 − 1 = −0.5 → [0, −0.5], mean −0.25.  P3−P2: no P3 responses.
const E = 'abc:{}';
const A = 'abc:{A}';
const scored = [
  rec({ condition: 'P0', stateKey: E }, { exact: 0, f1: 2 / 3 }),
  rec({ condition: 'P0', stateKey: A }, { exact: 0, f1: 2 / 3 }),
  rec({ condition: 'P1', stateKey: E }, { exact: 1 }),
  rec({ condition: 'P1', stateKey: A }, { exact: 1 }),
  rec({ condition: 'P2', stateKey: E }, { exact: 1 }),
  rec({ model: 'm2', condition: 'P2', stateKey: E }, { exact: 0 }),
  rec({ condition: 'P2', stateKey: A }, { exact: 1 }),
];

test('contrastDifferences: state means per condition, paired over common states, sorted by key', () => {
  assert.deepEqual(contrastDifferences(scored, 'P1-P0', 'exact'), { states: [A, E], differences: [1, 1] });
  const f1 = contrastDifferences(scored, 'P1-P0', 'f1');
  assert.deepEqual(f1.states, [A, E]);
  for (const d of f1.differences) assert.ok(Math.abs(d - 1 / 3) < 1e-15);
  assert.deepEqual(contrastDifferences(scored, 'P2-P1', 'exact'), { states: [A, E], differences: [0, -0.5] });
  assert.deepEqual(contrastDifferences(scored, 'P3-P2', 'exact'), { states: [], differences: [] });
  assert.throws(() => contrastDifferences(scored, 'P2-P0', 'exact'), /unknown contrast "P2-P0" \(expected P1-P0, P2-P1, P3-P2\)/);
});

test('contrasts: estimates, bootstrap ends, sign-flip p and Holm over the exact rows (hand-worked)', () => {
  const rows = contrasts(scored, { resamples: 2000, flips: 4000, seed: 's' });
  assert.deepEqual(rows.map((r) => [r.contrast, r.metric, r.states, r.seed]), [
    ['P1-P0', 'exact', 2, 's:P1-P0:exact'],
    ['P2-P1', 'exact', 2, 's:P2-P1:exact'],
    ['P3-P2', 'exact', 0, 's:P3-P2:exact'],
    ['P1-P0', 'f1', 2, 's:P1-P0:f1'],
    ['P2-P1', 'f1', 2, 's:P2-P1:f1'],
    ['P3-P2', 'f1', 0, 's:P3-P2:f1'],
  ]);
  const [p10, p21, p32, f10] = rows;
  // [1, 1]: every resample has mean 1 → interval [1, 1]. Sign patterns (+,+) (−,−) give |mean| 1,
  // (+,−) (−,+) give 0: half the flips are as extreme, so p ≈ 1/2 (binomial SE √(¼/4000) ≈ 0.008).
  assert.deepEqual([p10!.estimate, p10!.ci_low, p10!.ci_high], [1, 1, 1]);
  assert.ok(Math.abs(p10!.p! - 0.5) < 0.04, `p ${p10!.p}`);
  // [0, −0.5]: resampled means 0, −0.25, −0.5 with probability ¼, ½, ¼ (≫ 2.5 %), so the 95 % ends
  // are −0.5 and 0. Flipping the 0 changes nothing and flipping −0.5 keeps |mean| = 0.25: every
  // pattern is as extreme, p = (1 + 4000)/(1 + 4000) = 1.
  assert.deepEqual([p21!.estimate, p21!.ci_low, p21!.ci_high, p21!.p], [-0.25, -0.5, 0, 1]);
  assert.deepEqual([p32!.estimate, p32!.ci_low, p32!.ci_high, p32!.p, p32!.p_holm], [null, null, null, null, null]);
  // Holm over the two computed exact p values: the smaller times 2 (capped at 1), the larger
  // max(1 · p, previous) = 1.
  assert.equal(p10!.p_holm, Math.min(1, 2 * p10!.p!));
  assert.equal(p21!.p_holm, 1);
  // F1 rows are descriptive: p computed, p_holm null; [1/3, 1/3] gives a degenerate interval.
  assert.ok(Math.abs(f10!.estimate! - 1 / 3) < 1e-15);
  assert.equal(f10!.ci_low, f10!.ci_high);
  assert.equal(f10!.p_holm, null);
  // same seed → same rows; another seed moves the Monte-Carlo p
  assert.deepEqual(contrasts(scored, { resamples: 2000, flips: 4000, seed: 's' }), rows);
  assert.notEqual(contrasts(scored, { resamples: 2000, flips: 4000, seed: 't' })[0]!.p, p10!.p);
});

test('contrastsInDesign: only the adjacent contrasts whose two conditions are in the design; rows and Holm p unchanged', () => {
  const r = (condition: 'P0' | 'P1', stateKey: string, exact: number) => rec({ condition, stateKey }, { exact });
  const rows = contrasts([r('P0', 's1', 0), r('P1', 's1', 1), r('P0', 's2', 0), r('P1', 's2', 1)], { resamples: 10, flips: 10, seed: 's' });
  assert.equal(rows.length, 6, 'contrasts lists all three for both metrics');
  const kept = contrastsInDesign(rows, ['P0', 'P1']);
  assert.deepEqual(kept.map((r) => `${r.contrast} ${r.metric}`), ['P1-P0 exact', 'P1-P0 f1']);
  assert.deepEqual(kept, rows.filter((r) => r.contrast === 'P1-P0'));
  assert.deepEqual(contrastsInDesign(rows, ['P0', 'P2', 'P3']).map((r) => r.contrast), ['P3-P2', 'P3-P2']);
  assert.deepEqual(contrastsInDesign(rows, ['P0', 'P1', 'P2', 'P3']), rows);
});
