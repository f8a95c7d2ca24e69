/**
 * Why the simulators do not produce a paper's value, claim by claim. A claim on simulated input is
 * `outside-simulation-spread` when the paper's value lies outside the spread of R seeded replicate
 * corpora (lib/claims/rule.ts); each such claim needs its own entry here: the mechanism of the
 * simulator that puts the value where it is, and the gap it explains (`gap`: paper − replicate mean in
 * printed units for a number; for a statement, the share of replicates that give the paper's value).
 * test/claims/ledger.test.ts fails on an outside claim without an entry, on an entry whose claim is not
 * outside, and on a stated gap that is not the measured one. There are no group-wide entries.
 */

interface Gap {
  mechanism: string;
  gap: number;
}

const GAPS: Readonly<Record<string, Gap>> = {};

/** The reason a claim is outside the simulation's spread, or undefined. */
export function simulationGap(id: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(GAPS, id) ? GAPS[id]!.mechanism : undefined;
}

/** The gap a reason states (see the module comment), or undefined. */
export function statedGap(id: string): number | undefined {
  return Object.prototype.hasOwnProperty.call(GAPS, id) ? GAPS[id]!.gap : undefined;
}

/** Every claim with a reason (for the test that each one is outside now). */
export function simulationGapIds(): string[] {
  return Object.keys(GAPS);
}
