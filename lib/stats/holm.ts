/**
 * Holm's (1979) step-down adjustment for a family of m p values, controlling the family-wise error rate.
 * Sort ascending p₍₁₎ ≤ … ≤ p₍ₘ₎ (ties keep input order), then
 *   adj₍ᵢ₎ = max_{j ≤ i} min(1, (m − j + 1) · p₍ⱼ₎),
 * and return the adjusted values in the input order (the same values as R's p.adjust(p, "holm")).
 * §4.4 of Steiner & Hochweber (2026) adjusts the three adjacent exact-set contrasts this way.
 *
 * @example
 * holm([0.01, 0.04, 0.03, 0.005]); // => [0.03, 0.06, 0.06, 0.02]
 */
import { InputError } from '../errors';

export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw new InputError(`holm: p value ${i} is ${p}, expected a number in [0, 1]`, { item: `p[${i}]` });
  });
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a]! - pValues[b]! || a - b);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, j) => {
    running = Math.max(running, Math.min(1, (m - j) * pValues[index]!));
    adjusted[index] = running;
  });
  return adjusted;
}

/**
 * The project's one reading of "significant at level α": p < α, strictly, as the power planner
 * documents it (docs/study.md, `study plan`) and the contrast sentences print it ("is below .05").
 * A p exactly at α is not called significant. One rule, so the notebook's sentence under a contrast,
 * its Holm exercise and the planner can never disagree about the same p; before, the exercise counted
 * p = α as significant while the sentence said "not below .05".
 *
 * @example
 * significantAt(0.049, 0.05); // => true
 * significantAt(0.05, 0.05); // => false
 */
export function significantAt(p: number, alpha: number): boolean {
  return p < alpha;
}
