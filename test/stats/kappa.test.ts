import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { cohensKappa } from '../../lib/stats/kappa';

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} vs ${expected}`);

test("Cohen's kappa: textbook 2×2 example, a 3-category example, edge cases", () => {
  // Wikipedia "Cohen's kappa" worked example: 50 items; A yes/B yes 20, A yes/B no 5, A no/B yes 10,
  // no/no 15. p_o = 35/50 = 0.7; p_e = 0.5·0.6 + 0.5·0.4 = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 0.4
  const a = [...Array(20).fill('yes'), ...Array(5).fill('yes'), ...Array(10).fill('no'), ...Array(15).fill('no')];
  const b = [...Array(20).fill('yes'), ...Array(5).fill('no'), ...Array(10).fill('yes'), ...Array(15).fill('no')];
  close(cohensKappa(a, b), 0.4);
  // 10 items, labels a/b/c: 7 agreements → p_o 0.7; marginals A (4,3,3), B (4,3,3) →
  // p_e = 0.16 + 0.09 + 0.09 = 0.34; κ = 0.36 / 0.66 = 0.545454…
  close(cohensKappa(['a', 'a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c'], ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'a']), 0.36 / 0.66);
  assert.equal(cohensKappa([1, 2, 1], [1, 2, 1]), 1);
  assert.ok(Number.isNaN(cohensKappa(['x', 'x'], ['x', 'x']))); // p_e = 1: undefined
  assert.throws(() => cohensKappa([1], [1, 2]), InputError);
  assert.throws(() => cohensKappa([], []), InputError);
});

test('κ with unequal marginals, worked by hand: p_e uses each rater\'s own label shares', () => {
  // 20 items. Rater A says yes 15 times (0.75), rater B 8 times (0.4):
  //            B yes  B no
  //   A yes      7      8
  //   A no       1      4
  // p_o = (7 + 4) / 20 = 0.55; p_e = 0.75 · 0.4 + 0.25 · 0.6 = 0.45; κ = 0.10 / 0.55 = 2/11.
  // (With A's shares taken twice p_e would be 0.625 and κ −0.2; with B's twice 0.52 and κ 0.0625.)
  const pairs: Array<[string, string, number]> = [['yes', 'yes', 7], ['yes', 'no', 8], ['no', 'yes', 1], ['no', 'no', 4]];
  const a = pairs.flatMap(([x, , n]) => Array<string>(n).fill(x));
  const b = pairs.flatMap(([, y, n]) => Array<string>(n).fill(y));
  assert.ok(Math.abs(cohensKappa(a, b) - 2 / 11) < 1e-12, String(cohensKappa(a, b)));
  assert.ok(Math.abs(cohensKappa(b, a) - 2 / 11) < 1e-12, 'κ is symmetric in the raters');
});
