import { InputError } from '../errors';

/** The six PSI sub-scores, in the order the paper lists them. */
export const SUBSCORES = ['kd', 'tv', 'sd', 'ef', 'cl', 'ra'] as const;
export type SubscoreName = (typeof SUBSCORES)[number];

/** Human-readable names of the sub-scores (for tables, prompts and diagnoses). */
export const SUBSCORE_LABELS: Record<SubscoreName, string> = {
  kd: 'Knowledge distance',
  tv: 'Temporal (prerequisite-order) violation',
  sd: 'Scaffolding density',
  ef: 'Ebbinghaus forgetting',
  cl: 'Cognitive load',
  ra: "Bloom's alignment",
};

/** One value per sub-score (sub-scores themselves, or composite weights). */
export type Subscores = Record<SubscoreName, number>;

/**
 * Every tunable of the PSI pipeline. `DEFAULT_PSI_PARAMETERS` holds the values this project uses; the
 * README (lib/psi/README.md) explains each choice.
 */
export interface PsiParameters {
  /** δ_opt of S_KD = 1 − |sim − δ_opt|: the target share of familiar material (paper: 0.65). */
  deltaOpt: number;
  /**
   * sim(R, K) of S_KD. 'known-share' = |C_R ∩ K| / |C_R| (share of the response's concepts the learner
   * already knows); 'jaccard' = |C_R ∩ K| / |C_R ∪ K|.
   */
  overlap: 'known-share' | 'jaccard';
  /** Also match a keyword followed by a plural "s"/"es" (keywords ending in a letter only). */
  matchPlurals: boolean;
  /** Pairs S_TV checks: every pair of the transitive closure, or only the direct prerequisite pairs. */
  tvRelation: 'transitive' | 'direct';
  /** How a fenced code block counts toward N_total / L_total: one proposition, or one per non-blank line. */
  codeBlockPropositions: 'one' | 'lines';
  /** α_adapt = alphaBase + (1 − alphaBase) · min(1, refs / alphaNeeded). */
  alphaBase: number;
  /** Number of learner-specific references for full adaptation credit (α_adapt = 1). */
  alphaNeeded: number;
  /** S_EF over the scenario's whole memory (paper) or over the memory concepts the response mentions. */
  efMode: 'scenario' | 'response';
  /** Extra Apply-level weight per executable Python code block in S_RA's level detection. */
  codeBonus: number;
  /** Multipliers of the keyword counts of Bloom levels 1..6 (index 0 = Remember). */
  bloomLevelWeights: readonly [number, number, number, number, number, number];
  /** b_R when no Bloom cue at all is found (1..6). */
  bloomDefaultLevel: number;
  /** Composite weights w_i (non-negative, summing to 1). */
  weights: Subscores;
}

/** Equal weights 1/6, as in the paper. */
export const EQUAL_WEIGHTS: Readonly<Subscores> = Object.freeze({
  kd: 1 / 6,
  tv: 1 / 6,
  sd: 1 / 6,
  ef: 1 / 6,
  cl: 1 / 6,
  ra: 1 / 6,
});

export const DEFAULT_PSI_PARAMETERS: Readonly<PsiParameters> = Object.freeze({
  deltaOpt: 0.65,
  overlap: 'known-share',
  matchPlurals: true,
  tvRelation: 'transitive',
  codeBlockPropositions: 'one',
  alphaBase: 0.5,
  alphaNeeded: 4,
  efMode: 'scenario',
  codeBonus: 2,
  bloomLevelWeights: [1, 1, 1, 1, 1, 1] as const,
  bloomDefaultLevel: 1,
  weights: EQUAL_WEIGHTS,
});

/** Tolerance for "sums to 1" checks (weights, importance). */
export const SUM_TOLERANCE = 1e-9;

/**
 * Validates composite weights: all six present, finite, non-negative, summing to 1 (±1e-9).
 * Throws InputError naming the offending weight.
 */
export function validateWeights(weights: Partial<Subscores>, where = 'PSI weights'): Subscores {
  const out = {} as Subscores;
  for (const name of SUBSCORES) {
    const w = weights[name];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
      throw new InputError(`${where}: weight "${name}" must be a finite non-negative number, got ${String(w)}`, {
        item: name,
      });
    }
    out[name] = w;
  }
  const extra = Object.keys(weights).filter((k) => !(SUBSCORES as readonly string[]).includes(k));
  if (extra.length > 0) throw new InputError(`${where}: unknown weight name(s) ${extra.join(', ')}`, { item: extra[0] });
  const sum = SUBSCORES.reduce((s, name) => s + out[name], 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE) {
    throw new InputError(`${where}: weights must sum to 1, got ${sum}`, { item: 'weights' });
  }
  return out;
}

/**
 * Merges `overrides` into the defaults and validates every field; throws InputError naming the field.
 * @example
 * resolvePsiParameters({ deltaOpt: 0.5 }).deltaOpt; // => 0.5
 * resolvePsiParameters().weights; // => EQUAL_WEIGHTS
 */
export function resolvePsiParameters(overrides: Partial<PsiParameters> = {}): PsiParameters {
  const p: PsiParameters = { ...DEFAULT_PSI_PARAMETERS, ...overrides };
  const fail = (field: string, why: string): never => {
    throw new InputError(`PSI parameter "${field}" ${why}`, { item: field });
  };
  const unit = (field: keyof PsiParameters) => {
    const v = p[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) fail(field, `must be in [0, 1], got ${String(v)}`);
  };
  unit('deltaOpt');
  unit('alphaBase');
  if (p.overlap !== 'known-share' && p.overlap !== 'jaccard') fail('overlap', "must be 'known-share' or 'jaccard'");
  if (p.tvRelation !== 'transitive' && p.tvRelation !== 'direct') fail('tvRelation', "must be 'transitive' or 'direct'");
  if (p.codeBlockPropositions !== 'one' && p.codeBlockPropositions !== 'lines') {
    fail('codeBlockPropositions', "must be 'one' or 'lines'");
  }
  if (p.efMode !== 'scenario' && p.efMode !== 'response') fail('efMode', "must be 'scenario' or 'response'");
  if (!(Number.isFinite(p.alphaNeeded) && p.alphaNeeded > 0)) fail('alphaNeeded', 'must be a positive number');
  if (!(Number.isFinite(p.codeBonus) && p.codeBonus >= 0)) fail('codeBonus', 'must be a non-negative number');
  if (!Number.isInteger(p.bloomDefaultLevel) || p.bloomDefaultLevel < 1 || p.bloomDefaultLevel > 6) {
    fail('bloomDefaultLevel', 'must be an integer 1..6');
  }
  if (p.bloomLevelWeights.length !== 6 || p.bloomLevelWeights.some((w) => !(Number.isFinite(w) && w >= 0))) {
    fail('bloomLevelWeights', 'must be six non-negative numbers');
  }
  p.weights = validateWeights(p.weights, 'PSI parameter "weights"');
  return p;
}

/**
 * Composite PSI = Σ w_i S_i.
 * @example
 * const all = (x: number) => ({ kd: x, tv: x, sd: x, ef: x, cl: x, ra: x });
 * Math.abs(composite(all(0.6)) - 0.6) < 1e-12; // => true
 * composite(all(0.5), { ...all(0), kd: 1 }); // => 0.5
 */
export function composite(subscores: Subscores, weights: Subscores = EQUAL_WEIGHTS): number {
  return SUBSCORES.reduce((sum, name) => sum + weights[name] * subscores[name], 0);
}
