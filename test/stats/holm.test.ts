import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import { holm } from '../../lib/stats';

const closeAll = (actual: number[], expected: number[]) => {
  assert.equal(actual.length, expected.length);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]!) < 1e-15, `[${i}] ${a} ≠ ${expected[i]}`));
};

test('textbook examples (same as R p.adjust(p, "holm"))', () => {
  // sorted 0.005, 0.01, 0.03, 0.04 → ×4, ×3, ×2, ×1 = 0.02, 0.03, 0.06, 0.04 → running max 0.02, 0.03, 0.06, 0.06
  closeAll(holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02]);
  // 0.05, 0.08, 0.09, 0.08 → 0.09, 0.05 → 0.09
  closeAll(holm([0.01, 0.02, 0.03, 0.04, 0.05]), [0.05, 0.08, 0.09, 0.09, 0.09]);
  // capped at 1, and the cap carries forward through the running maximum
  closeAll(holm([0.5, 0.6]), [1, 1]);
  closeAll(holm([0.2]), [0.2]);
  assert.deepEqual(holm([]), []);
});

test('ties keep input order and get equal adjusted values', () => {
  closeAll(holm([0.02, 0.01, 0.02]), [0.04, 0.03, 0.04]);
});

test('agrees with the step-down rejection procedure at every level α', () => {
  // Holm at level α: walk p₍₁₎ ≤ p₍₂₎ ≤ …, reject while p₍ⱼ₎ ≤ α / (m − j + 1); stop at the first failure.
  // The adjusted p of a hypothesis is the smallest α at which it is rejected.
  const gen = seedrandom.alea('holm');
  for (let trial = 0; trial < 50; trial += 1) {
    const m = 1 + Math.floor(gen() * 8);
    const p = Array.from({ length: m }, () => gen() ** 3);
    const adjusted = holm(p);
    const order = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]!);
    for (let k = 0; k < 40; k += 1) {
      const alpha = gen() * 0.3;
      const rejected = new Set<number>();
      for (let j = 0; j < m; j += 1) {
        if (p[order[j]!]! <= alpha / (m - j)) rejected.add(order[j]!);
        else break;
      }
      for (let i = 0; i < m; i += 1) assert.equal(adjusted[i]! <= alpha, rejected.has(i), `trial ${trial} α ${alpha} i ${i}`);
    }
  }
});

test('rejects p values outside [0, 1]', () => {
  assert.throws(() => holm([0.1, 1.2]), InputError);
  assert.throws(() => holm([Number.NaN]), /p value 0/);
});
