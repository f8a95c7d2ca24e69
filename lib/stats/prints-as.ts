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
