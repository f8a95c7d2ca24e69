/**
 * The one "prints as" rule of the project: a value x prints as a number p printed with d decimals when
 * |x − p| ≤ ½·10^−d. Both ends of the rounding interval count, because the papers do not say how they
 * round halves (61.35 prints as 61.3 as well as 61.4). Used by the claims rule (lib/claims/rule.ts), the
 * paper audit (lib/audit/counts.ts) and the report's colours (lib/site/compare.ts), so a cell the ledger
 * calls a match is never coloured as differing.
 *
 * @example
 * printsAs(61.35, 61.3, 1); // => true
 * printsAs(61.36, 61.3, 1); // => false
 * printsAs(0.0505, 0.05, 2); // => true
 */
const EPS = 1e-9;

export function printsAs(value: number, printed: number, decimals: number): boolean {
  return Number.isFinite(value) && Math.abs(value - printed) <= 0.5 * 10 ** -decimals + EPS;
}

/**
 * Rounds x to d decimals, half away from zero, robust to binary representation.
 * @example
 * roundTo(0.0505, 3); // => 0.051
 * roundTo(-1.25, 1); // => -1.3
 */
export function roundTo(x: number, d: number): number {
  const f = 10 ** d;
  return (Math.sign(x) * Math.round(Math.abs(x) * f + EPS)) / f;
}

/**
 * The one percentage rule of the tables, figures and sentences: a proportion (or a difference of two)
 * as a percentage with `decimals` places, percent(x, d) = roundTo(100·x, d), so halves round away from
 * zero for negative differences as for positive ones and a binary representation just below a half
 * (0.0285·1000 = 28.499…) does not round down. `Math.round(x·1000)/10` rounded −1.25 points to −1.2,
 * while the contrast sentences (toFixed of |x|) and the claims ledger (roundTo) said −1.3.
 *
 * Worked by hand: 100·(−1/80) = −1.25 → −1.3; 100·57/2000 = 2.85 → 2.9; 100·0.8525 = 85.25 (two places).
 * @example
 * percent(-1 / 80); // => -1.3
 * percent(57 / 2000); // => 2.9
 * percent(0.8525, 2); // => 85.25
 * percent(0.6125); // => 61.3
 */
export function percent(x: number, decimals = 1): number {
  return roundTo(x * 100, decimals);
}
