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
