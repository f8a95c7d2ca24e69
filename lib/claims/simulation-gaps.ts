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

const GAPS: Readonly<Record<string, Gap>> = {
  // [PSI-2026] — the tutors' habits are tuned by hand (lib/simulation/psi-tutor/README.md, "Known gaps"), not fitted.
  'psi.table1.sd.chatgpt': {
    mechanism: 'The scaffolding-heavy tutor (sim-tutor-a, set beside ChatGPT) writes scaffolds (worked examples, step lists, comprehension checks) at hand-set rates that give S_SD ≈ 0.42; its mean PSI is already above the paper\'s 0.638 (about 0.65), and more scaffolding would raise S_SD and PSI together, so the hand tuning traded S_SD for the PSI mean.',
    gap: 0.068,
  },
  'psi.figure1.declines-every-model': {
    mechanism: 'Read strictly (every level\'s mean below the previous one, for each model), no simulated tutor declines: the Remember level rests on one scenario (S01) whose learner knows a single concept, so S_KD is low for any answer there and Remember sits at or below Understand for every tutor; the tutors\' habits do not depend on the target level beyond the Bloom vocabulary.',
    gap: 0,
  },
  'psi.selection.chatgpt': {
    mechanism: 'Weak cases are the defective answers below one common threshold (0.59); the simulated defective-case PSI spreads with sd ≈ 0.07–0.08 per tutor, much of it from the scenario (S_KD and S_TV depend on the learner\'s known concepts and the prerequisite chains), against σ ≈ 0.04 implied by the paper\'s counts, so the strong tutor has too many cases below the threshold.',
    gap: -4.85,
  },
  'psi.table5.sd-before': {
    mechanism: 'The selected weak cases start with more scaffolding than the paper\'s (their pool includes some scaffolded answers of the strong tutor, see psi.selection.chatgpt), so their mean S_SD before regeneration is above the paper\'s 0.073.',
    gap: -0.067,
  },
  'psi.table5.sd-after': {
    mechanism: 'Round 2 follows the regeneration checklist with hand-set compliance rates per item; starting from the higher S_SD of the simulated selection (psi.table5.sd-before) and adding scaffolds at those rates ends above the paper\'s 0.345.',
    gap: -0.094,
  },
};

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
