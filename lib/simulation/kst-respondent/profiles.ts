import type { Condition } from '../../conditions';

/**
 * The six behavioural profiles of the simulated respondent and their parameters. Each profile is a
 * stand-in that is calibrated (lib/simulation/kst-respondent/calibrate.ts) so that its exact-set accuracy per
 * prompt condition lands near one row of Table 4 of [KST-2026]; `mirrors` names that row. The names are
 * deliberately neutral (`sim-a` … `sim-f`): a simulated profile never carries a real model's name.
 * See README.md for the behavioural model and the measured calibration.
 */

/** Invalid-output kinds the simulator can produce ([KST-2026] §4.2), each mapped to a validateResponse reason. */
export const SIMULATED_INVALID_KINDS = [
  'malformed_json',
  'extra_prose',
  'duplicate_position',
  'out_of_range',
  'missing_justification',
  'refusal',
  'truncated',
] as const;
export type SimulatedInvalidKind = (typeof SIMULATED_INVALID_KINDS)[number];

/** Edge-error rates of a profile's belief about the prerequisite relation (before domain difficulty). */
export interface BeliefRates {
  /** Probability that a reference cover pair [p, q] is missing from the belief. */
  miss: number;
  /** Probability that an incomparable ordered pair (p, q) is added as a spurious direct prerequisite. */
  spurious: number;
}

export interface SimulatedProfile {
  /** Model name after `simulated:`; always starts with `sim-`. */
  name: string;
  /** The Table 4 row of [KST-2026] this profile is calibrated towards (a label, not an identity). */
  mirrors: string;
  /** That row's published exact-set accuracy in percent, for computed-vs-published displays. */
  published: Record<Condition, number>;
  /** Belief edge-error rates under P0 (implicit reasoning) and P1 (explicit reconstruction). */
  belief: { P0: BeliefRates; P1: BeliefRates };
  /**
   * Probability that an edge decision of one presentation order follows the profile's shared latent
   * draw for that domain (the same misconception in both orders) rather than an order-specific draw.
   * 1 → both orders hold the same belief; 0 → independent beliefs. Controls order agreement.
   */
  consistency: number;
  /** Per-response probability of a one-component slip (drop one recommendation or add one), per condition. */
  slip: Record<Condition, number>;
  /** Per-response probability of an invalid output (any kind). */
  invalidRate: number;
  /** Relative weights of the invalid kinds (missing kinds weigh 0). */
  invalidWeights: Partial<Record<SimulatedInvalidKind, number>>;
  /** Optional per-profile replacement of DOMAIN_DIFFICULTY (used by the calibration search). */
  domainDifficulty?: Readonly<Record<string, DomainDifficulty>>;
}

/** A domain's difficulty multiplier under each ungrounded condition. */
export interface DomainDifficulty {
  P0: number;
  P1: number;
}

/**
 * Multiplier on both belief error rates per domain id and ungrounded condition (1 for domains not
 * listed): how hard it is to infer this domain's prerequisites from the task descriptions alone,
 * implicitly (P0) or as an explicit graph (P1). Calibrated so that the domain pattern of [KST-2026]
 * §4.5.2 appears (Slope hardest without structure and harder still under P1, Equation to Graph easiest).
 */
export const DOMAIN_DIFFICULTY: Readonly<Record<string, DomainDifficulty>> = {
  'linear-modelling': { P0: 1.0625, P1: 1.25 },
  slope: { P0: 4.6, P1: 6.75 },
  'graph-to-equation': { P0: 1.215, P1: 0.42 },
  'equation-to-graph': { P0: 0.035, P1: 0.035 },
};

/** Version suffix of every simulated `modelVersion` (`sim-a@1`); bump when the behaviour changes. */
export const SIMULATED_VERSION = 2;

/** Order consistency shared by all profiles (fitted against the paper's 85.25 % order agreement). */
const CONSISTENCY = 0.8;

const EVEN_INVALID: Partial<Record<SimulatedInvalidKind, number>> = {
  malformed_json: 1,
  extra_prose: 1,
  duplicate_position: 1,
  out_of_range: 1,
  missing_justification: 1,
  refusal: 1,
  truncated: 1,
};

/** The fitted profiles (parameters from scripts/fit-kst.ts, the objective of lib/simulation/kst-respondent/fit.ts; see README.md). */
export const SIMULATED_PROFILES: readonly SimulatedProfile[] = [
  {
    name: 'sim-a',
    mirrors: 'Claude Fable 5',
    published: { P0: 76, P1: 70, P2: 98, P3: 100 },
    belief: { P0: { miss: 0.049, spurious: 0.0294 }, P1: { miss: 0.085, spurious: 0.051 } },
    consistency: CONSISTENCY,
    slip: { P0: 0.03, P1: 0.03, P2: 0.02, P3: 0 },
    invalidRate: 0.003,
    invalidWeights: EVEN_INVALID,
  },
  {
    name: 'sim-b',
    mirrors: 'Claude Sonnet 5',
    published: { P0: 60, P1: 61, P2: 85, P3: 96 },
    belief: { P0: { miss: 0.1742, spurious: 0.1045 }, P1: { miss: 0.205, spurious: 0.123 } },
    consistency: CONSISTENCY,
    slip: { P0: 0.04, P1: 0.04, P2: 0.1564, P3: 0.03 },
    invalidRate: 0.004,
    invalidWeights: EVEN_INVALID,
  },
  {
    name: 'sim-c',
    mirrors: 'GPT-5.6 Sol',
    published: { P0: 62, P1: 61, P2: 100, P3: 100 },
    belief: { P0: { miss: 0.145, spurious: 0.087 }, P1: { miss: 0.1564, spurious: 0.0938 } },
    consistency: CONSISTENCY,
    slip: { P0: 0.03, P1: 0.03, P2: 0, P3: 0 },
    invalidRate: 0.002,
    invalidWeights: EVEN_INVALID,
  },
  {
    name: 'sim-d',
    mirrors: 'GPT-5.6 Terra',
    published: { P0: 57, P1: 63, P2: 95, P3: 93 },
    belief: { P0: { miss: 0.1742, spurious: 0.1045 }, P1: { miss: 0.1225, spurious: 0.0735 } },
    consistency: CONSISTENCY,
    slip: { P0: 0.04, P1: 0.04, P2: 0.0425, P3: 0.0805 },
    invalidRate: 0.004,
    invalidWeights: EVEN_INVALID,
  },
  {
    name: 'sim-e',
    mirrors: 'Gemini 3.1 Pro Preview',
    published: { P0: 51, P1: 63, P2: 100, P3: 100 },
    belief: { P0: { miss: 0.297, spurious: 0.1782 }, P1: { miss: 0.1492, spurious: 0.0895 } },
    consistency: CONSISTENCY,
    slip: { P0: 0.04, P1: 0.03, P2: 0, P3: 0 },
    invalidRate: 0.002,
    invalidWeights: EVEN_INVALID,
  },
  {
    name: 'sim-f',
    mirrors: 'Gemini 3.7 Flash',
    published: { P0: 62, P1: 59, P2: 100, P3: 100 },
    belief: { P0: { miss: 0.1409, spurious: 0.0845 }, P1: { miss: 0.2151, spurious: 0.1291 } },
    consistency: CONSISTENCY,
    slip: { P0: 0.03, P1: 0.04, P2: 0, P3: 0 },
    invalidRate: 0.003,
    invalidWeights: EVEN_INVALID,
  },
];

/** The profile called `name`, or undefined. */
export function findSimulatedProfile(name: string): SimulatedProfile | undefined {
  return SIMULATED_PROFILES.find((p) => p.name === name);
}

/**
 * Difficulty multiplier of a domain for a profile: the profile's own table if it has one, else
 * DOMAIN_DIFFICULTY; 1 when the domain is not listed.
 */
export function domainDifficulty(
  domainId: string,
  condition: 'P0' | 'P1',
  profile?: Pick<SimulatedProfile, 'domainDifficulty'>,
): number {
  const table = profile?.domainDifficulty ?? DOMAIN_DIFFICULTY;
  return Object.prototype.hasOwnProperty.call(table, domainId) ? table[domainId]![condition] : 1;
}
