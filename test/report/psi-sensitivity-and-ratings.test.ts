import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { deltaSensitivity, weightSensitivity } from '../../lib/psi/aggregate';
import { NOT_PRINTED } from '../../lib/report/psi-tables';
import { deltaSensitivityTable, interRaterTable, raterVsPsiTable, sensitivitySpread, standardOverlapSummary, weightSensitivityTable } from '../../lib/report/psi-sensitivity-and-ratings';
import { A, B, assertRowNear, mirrors, near, published, rec } from './psi-fixtures';

test('δ sensitivity table: PSI per model, ranking and whether it changed (worked by hand)', () => {
  // Other sub-scores 0.6; overlap A 0.5, B 0.9. δ 0.65: KD 0.85 / 0.75 → PSI 3.85/6 = 0.641666… / 3.75/6 = 0.625 (A > B).
  // δ 0.9: KD 0.6 / 1.0 → PSI 3.6/6 = 0.6 / 4/6 = 0.666… (B > A). Mean S_KD (0.85 + 0.75)/2 = (0.6 + 1)/2 = 0.8.
  const mk = (id: string, model: string, overlap: number) =>
    rec(id, model, [0, 0.6, 0.6, 0.6, 0.6, 0.6], { evidence: { kd: { overlap } } as never });
  const scored = [mk('a1', A, 0.5), mk('b1', B, 0.9)];
  const result = deltaSensitivity(scored, [0.65, 0.9]);
  const table = deltaSensitivityTable(result, { names: mirrors });
  assert.equal(table.length, 2);
  assertRowNear(table[0], { 'δ_opt': 0.65, [A]: 0.6416666666666667, [B]: 0.625, 'mean S_KD': 0.8, ranking: 'ChatGPT > Gemini', 'same ranking as δ=0.65': true });
  assertRowNear(table[1], { 'δ_opt': 0.9, [A]: 0.6, [B]: 0.6666666666666666, 'mean S_KD': 0.8, ranking: 'Gemini > ChatGPT', 'same ranking as δ=0.65': false });
  assert.throws(() => deltaSensitivityTable(result, { baseline: 0.5 }), InputError);
  const spread = sensitivitySpread(result);
  // A: min 0.6, max 3.85/6, range 0.25/6 = 0.041666…
  assertRowNear(spread[0], { model: A, 'min PSI': 0.6, 'max PSI': 0.6416666666666667, range: 0.041666666666666664, 'best rank': 1, 'worst rank': 2 });
});

test('weight sensitivity table lists the weights and flags ranking changes', () => {
  // A: KD 1, rest 0 → equal 1/6; B: SD 1, rest 0 → 1/6 (tie → by name A first). Only-KD: A 1, B 0.
  const scored = [rec('a', A, [1, 0, 0, 0, 0, 0]), rec('b', B, [0, 0, 1, 0, 0, 0])];
  const vectors = [
    { name: 'equal', weights: { kd: 1 / 6, tv: 1 / 6, sd: 1 / 6, ef: 1 / 6, cl: 1 / 6, ra: 1 / 6 } },
    { name: 'sd-only', weights: { kd: 0, tv: 0, sd: 1, ef: 0, cl: 0, ra: 0 } },
  ];
  const rows = weightSensitivityTable(weightSensitivity(scored, vectors), vectors);
  assert.deepEqual(rows[1], {
    weights: 'sd-only', w_KD: 0, w_TV: 0, w_SD: 1, w_EF: 0, w_CL: 0, w_RA: 0, [A]: 0, [B]: 1, ranking: `${B} > ${A}`, 'same ranking as equal': false,
  });
  near(rows[0]![A], 1 / 6, 'equal-weight PSI of A'); // (1 + 0 + 0 + 0 + 0 + 0)/6
  near(rows[0]!.w_KD, 1 / 6, 'equal weight');
  assert.equal(rows[0]!['same ranking as equal'], true);
});

test('ratings tables set the paper rates beside each rater and say κ was not printed', () => {
  const [k] = interRaterTable([{ criterion: 'weaknesses_resolved', raterA: 'R1', raterB: 'R2', n: 4, observedAgreement: 0.75, kappa: 0.5 }]);
  assert.deepEqual(k, { criterion: 'weaknesses_resolved', raters: 'R1 – R2', 'cases rated by both': 4, 'observed agreement %': 75, "Cohen's κ": 0.5, 'κ (paper)': NOT_PRINTED });
  const rows = raterVsPsiTable(
    [
      { rater: 'R1', criterion: 'meaningful_improvement', n: 4, humanRate: 0.5, psiRate: 0.75, bothYes: 2, humanOnly: 0, psiOnly: 1, bothNo: 1, observedAgreement: 0.75, kappa: 0.5 },
      { rater: 'R1', criterion: 'weaknesses_resolved', n: 0, humanRate: NaN, psiRate: NaN, bothYes: 0, humanOnly: 0, psiOnly: 0, bothNo: 0, observedAgreement: NaN, kappa: NaN },
    ],
    published,
  );
  assert.equal(rows[0]!['rater yes % (paper)'], 74.2);
  assert.equal(rows[0]!['PSI improved %'], 75);
  assert.equal(rows[0]!['rater yes %'], 50);
  assert.equal(rows[0]!['agreement %'], 75);
  assert.equal(rows[0]!['κ with PSI'], 0.5);
  assert.equal(rows[0]!['PSI improved % (paper)'], 82.3);
  assert.equal(rows[1]!['rater yes % (paper)'], 82.3);
  assert.equal(rows[1]!['rater yes %'], null);
  assert.equal(rows[1]!['κ with PSI'], null);
  // a share that does not terminate in decimal stays unrounded: 2/3 agreement → 66.666…%
  const [third] = interRaterTable([{ criterion: 'weaknesses_resolved', raterA: 'R1', raterB: 'R2', n: 3, observedAgreement: 2 / 3, kappa: NaN }]);
  near(third!['observed agreement %'], 66.66666666666667, 'agreement %');
  assert.equal(third!["Cohen's κ"], null);
});

test('standardOverlapSummary: the median of an even count is the mean of the two middle overlaps', () => {
  const mk = (id: string, variant: 'standard' | 'defective', overlap: number) => rec(id, A, [0, 0, 0, 0, 0, 0], { variant, evidence: { kd: { overlap } } as never });
  // standard overlaps 0.1, 0.25, 0.75, 0.8 → middle pair 0.25 and 0.75 → median 0.5 (the upper middle value would be 0.75)
  const scored = [mk('a', 'standard', 0.8), mk('b', 'standard', 0.1), mk('c', 'defective', 0.99), mk('d', 'standard', 0.75), mk('e', 'standard', 0.25)];
  assert.deepEqual(standardOverlapSummary(scored), { n: 4, median: 0.5, min: 0.1, max: 0.8 });
  // odd count: the middle value
  assert.deepEqual(standardOverlapSummary(scored.slice(0, 4)), { n: 3, median: 0.75, min: 0.1, max: 0.8 });
  assert.throws(() => standardOverlapSummary([mk('c', 'defective', 0.5)]), (e: unknown) => e instanceof InputError && /no standard-prompt record/.test(e.message));
  assert.throws(() => standardOverlapSummary([rec('x1', A, [0, 0, 0, 0, 0, 0])]), (e: unknown) => e instanceof InputError && /run "x1" has no evidence/.test(e.message));
});
