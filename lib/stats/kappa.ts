/**
 * Agreement of two raters beyond chance (Cohen 1960). Lives in lib/stats because it is a statistic of
 * two label vectors, not of PSI: lib/psi uses it for human ratings.
 */
import { InputError } from '../errors';

/** A nominal label a rater gives an item. */
export type KappaLabel = string | number | boolean;

/**
 * Cohen's κ for two raters labelling the same items (nominal labels):
 * κ = (p_o − p_e) / (1 − p_e), p_o = share of items with equal labels,
 * p_e = Σ_k (n_A,k / n) · (n_B,k / n) = agreement expected from the raters' marginal frequencies.
 * When p_e = 1 (both raters give one and the same label to every item) κ is 0/0 and NaN is returned.
 * InputError for empty input or unequal lengths.
 * 50 items, yes/yes 20, yes/no 5, no/yes 10, no/no 15: p_o = 35/50 = 0.7, p_e = 0.5 · 0.6 + 0.5 · 0.4 = 0.5,
 * κ = (0.7 − 0.5) / (1 − 0.5) = 0.4.
 * @example
 * const a = [...Array(25).fill('yes'), ...Array(25).fill('no')];
 * const b = [...Array(20).fill('yes'), ...Array(5).fill('no'), ...Array(10).fill('yes'), ...Array(15).fill('no')];
 * +cohensKappa(a, b).toFixed(12); // => 0.4
 * cohensKappa(['x', 'y'], ['x', 'y']); // => 1
 * Number.isNaN(cohensKappa(['x', 'x'], ['x', 'x'])); // => true
 * cohensKappa([], []); // throws /no items/
 */
export function cohensKappa(raterA: readonly KappaLabel[], raterB: readonly KappaLabel[]): number {
  if (raterA.length !== raterB.length) {
    throw new InputError(`Cohen's kappa: raters labelled different numbers of items (${raterA.length} vs ${raterB.length})`);
  }
  const n = raterA.length;
  if (n === 0) throw new InputError("Cohen's kappa: no items");
  const countA = new Map<KappaLabel, number>();
  const countB = new Map<KappaLabel, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    const a = raterA[i]!;
    const b = raterB[i]!;
    if (a === b) agree++;
    countA.set(a, (countA.get(a) ?? 0) + 1);
    countB.set(b, (countB.get(b) ?? 0) + 1);
  }
  const po = agree / n;
  let pe = 0;
  for (const [label, na] of countA) pe += (na / n) * ((countB.get(label) ?? 0) / n);
  if (pe === 1) return NaN;
  return (po - pe) / (1 - pe);
}
