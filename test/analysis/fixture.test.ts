/**
 * `kstbench analyze` on a fixture whose tables were worked out on paper.
 *
 * Domains: tiny = {A, B, C} with A ⪯ B (states ∅, A, C, AB, AC, ABC; fringes AC, BC, A, C, B, ∅) and
 * pair = {X, Y} with X ⪯ Y (states ∅, X, XY; fringes X, Y, ∅). Two models × P0, P1 × 9 states × 2 orders
 * = 72 lines. Every response equals the reference fringe except these eight (P = prediction, T = fringe):
 *   d1 m2 P0 tiny ∅   o1  P={A}   T={A,C}  prec 1   rec 1/2 F1 2/3 J 1/2 exact 0
 *   d2 m2 P0 tiny ∅   o2  P={A,B} T={A,C}  prec 1/2 rec 1/2 F1 1/2 J 1/3 exact 0
 *   d3 m2 P0 tiny ABC o1  P={C}   T=∅      rec 1, the rest 0 (non-empty prediction, empty reference)
 *   d4 m1 P0 pair ∅   o2  invalid          all 0
 *   d5 m1 P1 pair X   o1  missing          excluded
 *   d6 m2 P1 tiny C   o2  P=∅     T={A}    all 0 (empty prediction, non-empty reference)
 *   d8 m1 P0 tiny A   o1  P={B}   T={B,C}  prec 1   rec 1/2 F1 2/3 J 1/2 exact 0
 *   d9 m1 P0 tiny AC  o2  P={B,C} T={B}    prec 1/2 rec 1   F1 2/3 J 1/2 exact 0
 * Table 3, P0 (36 scored): exact 30/36; precision losses 0+½+1+1+0+½ = 3 → 33/36; recall losses
 *   ½+½+0+1+½+0 = 2.5 → 33.5/36; F1 losses ⅓+½+1+1+⅓+⅓ = 3.5 → 32.5/36; Jaccard losses ½+⅔+1+1+½+½ = 25/6 → (191/6)/36.
 * Table 3, P1 (35 scored, 1 missing): every measure 34/35.
 * Table 4: m1 P0 15/18, m2 P0 15/18 (tie, both rank 1); m1 P1 17/17 rank 1, m2 P1 17/18 rank 2.
 * State-level exact means P0: ∅ .5, A .75, C 1, AB 1, AC .75, ABC .75, pair∅ .75, X 1, XY 1; P1: C .75, rest 1.
 *   P1−P0 differences: .5, .25, −.25, 0, .25, .25, .25, 0, 0 → mean 1.25/9.
 *   Exact sign-flip p: |±.5 + .25·k| ≥ 1.25 (k = sum of five ±1) in 12 of the 2·32 sign patterns → 0.1875.
 * State-level F1 differences: 5/24, 1/12, −1/4, 0, 1/12, 1/4, 1/4, 0, 0 → mean (15/24)/9.
 * Order agreement: 36 model×condition×state groups, minus d4 and d5 → 34 pairs; 5 differ
 *   (d1/d2 J ½, d3 J 0, d8 J ½, d9 J ½, d6 J 0) → exact 29/34, mean Jaccard 30.5/34.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { kstbench, readCsv, tempDir, ROOT } from '../support/cli';

const fixture = join(ROOT, 'test', 'fixtures', 'analyze');

function close(actual: string, expected: number, tolerance = 1e-12) {
  assert.ok(Math.abs(Number(actual) - expected) <= tolerance, `expected ${expected}, got ${actual}`);
}

test('analyze reproduces the hand-worked fixture tables', () => {
  const out = tempDir();
  const r = kstbench(['analyze', '--domains', join(fixture, 'domains'), '--responses', join(fixture, 'responses.jsonl'), '--out', out, '--seed', '7']);
  assert.equal(r.code, 0, r.stderr);

  assert.deepEqual(readCsv(join(out, 'table1.csv')), [
    { domain: 'pair', components: '2', states: '3', terminal_states: '1' },
    { domain: 'tiny', components: '3', states: '6', terminal_states: '1' },
  ]);

  const t3 = readCsv(join(out, 'table3.csv'));
  assert.deepEqual(t3.map((r) => [r.condition, r.n]), [['P0', '36'], ['P1', '35']]);
  close(t3[0]!.exact!, 30 / 36);
  close(t3[0]!.precision!, 33 / 36);
  close(t3[0]!.recall!, 33.5 / 36);
  close(t3[0]!.f1!, 32.5 / 36);
  close(t3[0]!.jaccard!, 191 / 6 / 36);
  for (const m of ['exact', 'precision', 'recall', 'f1', 'jaccard']) close(t3[1]![m]!, 34 / 35);

  const t4 = readCsv(join(out, 'table4.csv'));
  assert.deepEqual(t4.map((r) => [r.model, r.condition, r.n, r.rank]), [
    ['m1', 'P0', '18', '1'],
    ['m1', 'P1', '17', '1'],
    ['m2', 'P0', '18', '1'],
    ['m2', 'P1', '18', '2'],
  ]);
  close(t4[0]!.exact!, 15 / 18);
  close(t4[1]!.exact!, 1);
  close(t4[3]!.exact!, 17 / 18);

  const dc = readCsv(join(out, 'domain_condition.csv'));
  assert.deepEqual(dc.map((r) => [r.domain, r.condition, r.n]), [
    ['pair', 'P0', '12'], ['pair', 'P1', '11'], ['tiny', 'P0', '24'], ['tiny', 'P1', '24'],
  ]);
  close(dc[0]!.exact!, 11 / 12);
  close(dc[1]!.exact!, 1);
  close(dc[2]!.exact!, 19 / 24);
  close(dc[3]!.exact!, 23 / 24);

  const c = readCsv(join(out, 'contrasts.csv'));
  assert.deepEqual(c.map((r) => [r.contrast, r.metric]), [
    ['P1-P0', 'exact'], ['P2-P1', 'exact'], ['P3-P2', 'exact'], ['P1-P0', 'f1'], ['P2-P1', 'f1'], ['P3-P2', 'f1'],
  ]);
  close(c[0]!.estimate!, 1.25 / 9);
  assert.ok(Number(c[0]!.ci_low) <= 1.25 / 9 && 1.25 / 9 <= Number(c[0]!.ci_high));
  // Monte-Carlo p against the exact 12/64; 100,000 flips give a standard error of about 0.0012.
  close(c[0]!.p!, 0.1875, 0.006);
  // Holm over the one computable exact contrast leaves it unchanged.
  assert.equal(c[0]!.p_holm, c[0]!.p);
  for (const row of [c[1]!, c[2]!, c[4]!, c[5]!]) assert.deepEqual([row.estimate, row.p, row.p_holm], ['', '', '']);
  close(c[3]!.estimate!, 15 / 24 / 9);
  assert.equal(c[3]!.p_holm, '');

  const oa = readCsv(join(out, 'order_agreement.csv'));
  assert.equal(oa[0]!.pairs, '34');
  close(oa[0]!.exact_agreement!, 29 / 34);
  close(oa[0]!.mean_jaccard!, 30.5 / 34);

  const manifest = JSON.parse(readFileSync(join(out, 'analysis.json'), 'utf8'));
  assert.deepEqual(manifest.counts, { responses: 72, scored: 71, valid: 70, invalid: 1, missing: 1, simulated: 0 });
});

test('analyze is byte-identical for the same seed', () => {
  const a = tempDir();
  const b = tempDir();
  const args = ['--domains', join(fixture, 'domains'), '--responses', join(fixture, 'responses.jsonl'), '--boot', '500', '--perm', '2000'];
  assert.equal(kstbench(['analyze', ...args, '--out', a]).code, 0);
  assert.equal(kstbench(['analyze', ...args, '--out', b]).code, 0);
  for (const f of ['table3.csv', 'table4.csv', 'contrasts.csv', 'order_agreement.csv', 'analysis.json']) {
    assert.equal(readFileSync(join(a, f), 'utf8'), readFileSync(join(b, f), 'utf8'), f);
  }
});
