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
