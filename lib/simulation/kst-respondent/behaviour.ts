import seedrandom from 'seedrandom';
import type { Condition } from '../../conditions';
import { compileStructure, idsToBits, bitsToIds, outerFringe, outerFringeBits, type Domain, type Presentation } from '../../kst';
import { drawBelief, type Belief } from './belief';
import { SIMULATED_INVALID_KINDS, type SimulatedInvalidKind, type SimulatedProfile } from './profiles';

/**
 * The decision of the simulated respondent for one cell, before any text is rendered:
 *
 *   P0, P1  recommend the outer fringe of the profile's BELIEF structure (belief.ts), i.e.
 *           every unmastered q whose believed direct prerequisites are all mastered; P1 also reports
 *           the belief's pairs as its inferred graph.
 *   P2, P3  recommend the reference outer fringe (the supplied structure is followed).
 *   all     then, with probability slip[condition], one slip: drop one recommendation or add one
 *           unmastered non-recommended component (whichever is possible; drop first when u < ½);
 *           and with probability invalidRate the answer is rendered as one kind of invalid output.
 *
 * Per-cell draws come from seedrandom(`sim|<profile>|<domain>|<state ids or ∅>|<condition>|o<order>`)
 * in a fixed sequence (invalid, invalid kind, slip, slip kind, slip pick), so the decision is a pure
 * function of (profile, domain, state, condition, presentation order).
 */

export interface SimulationInput {
  domain: Domain;
  /** Mastered components (canonical IDs). */
  state: readonly string[];
  condition: Condition;
  presentation: Presentation;
}

/** One recommended component and the mastered components its justification points to. */
export interface Recommendation {
  id: string;
  /** Direct prerequisites (believed in P0/P1, reference cover pairs in P2) that are mastered; [] in P3. */
  because: string[];
  /** True when this component was added by a slip (the respondent's mistake, not its belief). */
  slip: boolean;
}

export interface SimulatedDecision {
  /** What the recommendations are derived from. */
  basis: 'belief' | 'relation' | 'states';
  /** Recommendations in canonical order. */
  recommendations: Recommendation[];
  /** P1: the believed direct pairs (canonical IDs); undefined otherwise. */
  prerequisites?: Array<[string, string]>;
  /** The belief used under P0/P1. */
  belief?: Belief;
  slip: { kind: 'drop' | 'add'; id: string } | null;
  /** The kind of invalid output to render, or null for a valid answer. */
  invalid: SimulatedInvalidKind | null;
  /** True when the state is the whole domain (terminal state). */
  terminal: boolean;
}

export interface DecideOptions {
  /** Force this invalid kind (tests and demonstrations); otherwise drawn at the profile's rate. */
  forceInvalid?: SimulatedInvalidKind;
}

/** The per-cell seed string: `sim|<profile>|<domain>|<state ids joined by ',' or ∅>|<condition>|o<order>`. */
export function cellSeed(profile: SimulatedProfile, input: SimulationInput): string {
  const state = [...input.state].sort((a, b) => input.domain.index.get(a)! - input.domain.index.get(b)!);
  return `sim|${profile.name}|${input.domain.id}|${state.length === 0 ? '∅' : state.join(',')}|${input.condition}|o${input.presentation.order}`;
}

/** Decides what the profile answers in one cell (see the module comment). */
export function decide(profile: SimulatedProfile, input: SimulationInput, options: DecideOptions = {}): SimulatedDecision {
  const { domain, state, condition, presentation } = input;
  const rng = seedrandom(cellSeed(profile, input));
  const uInvalid = rng();
  const uInvalidKind = rng();
  const uSlip = rng();
  const uSlipKind = rng();
  const uSlipPick = rng();

  const mastered = new Set(state);
  const terminal = domain.ids.every((id) => mastered.has(id));
  let basis: SimulatedDecision['basis'];
  let recommendations: Recommendation[];
  let belief: Belief | undefined;
  if (condition === 'P0' || condition === 'P1') {
    basis = 'belief';
    belief = drawBelief(profile, domain, presentation.order, condition);
    recommendations = beliefFringe(belief.domain, state);
  } else {
    basis = condition === 'P2' ? 'relation' : 'states';
    const s = compileStructure(domain);
    recommendations = outerFringe(domain, state).map((id) => ({
      id,
      because: condition === 'P2' ? Array.from(s.directPrerequisites[domain.index.get(id)!]!, (i) => s.ids[i]!) : [],
      slip: false,
    }));
  }

  let slip: SimulatedDecision['slip'] = null;
  if (uSlip < profile.slip[condition]) {
    const recommended = new Set(recommendations.map((r) => r.id));
    const addable = domain.ids.filter((id) => !mastered.has(id) && !recommended.has(id));
    const canDrop = recommendations.length > 0;
    const canAdd = addable.length > 0;
    if (canDrop && (uSlipKind < 0.5 || !canAdd)) {
      const dropped = recommendations[Math.floor(uSlipPick * recommendations.length)]!;
      recommendations = recommendations.filter((r) => r !== dropped);
      slip = { kind: 'drop', id: dropped.id };
    } else if (canAdd) {
      const added = addable[Math.floor(uSlipPick * addable.length)]!;
      recommendations = [...recommendations, { id: added, because: [], slip: true }].sort(
        (a, b) => domain.index.get(a.id)! - domain.index.get(b.id)!,
      );
      slip = { kind: 'add', id: added };
    }
  }

  let invalid: SimulatedInvalidKind | null = options.forceInvalid ?? null;
  if (invalid === null && uInvalid < profile.invalidRate) invalid = pickInvalidKind(profile, recommendations.length, uInvalidKind);

  const decision: SimulatedDecision = { basis, recommendations, slip, invalid, terminal };
  if (belief) decision.belief = belief;
  if (condition === 'P1' && belief) decision.prerequisites = belief.edges.map(([p, q]) => [p, q]);
  return decision;
}

/** Outer fringe of `state` in the belief structure, with the believed (mastered) prerequisites of each component. */
function beliefFringe(beliefDomain: Domain, state: readonly string[]): Recommendation[] {
  const s = compileStructure(beliefDomain);
  const fringe = bitsToIds(s, outerFringeBits(s, idsToBits(s, state)));
  return fringe.map((id) => ({
    id,
    because: Array.from(s.directPrerequisites[beliefDomain.index.get(id)!]!, (i) => s.ids[i]!),
    slip: false,
  }));
}

/**
 * Picks an invalid kind by the profile's weights among the kinds possible for this answer
 * (`duplicate_position` needs at least one recommendation). `u` is uniform in [0, 1).
 */
export function pickInvalidKind(profile: SimulatedProfile, recommendationCount: number, u: number): SimulatedInvalidKind {
  const kinds = SIMULATED_INVALID_KINDS.filter(
    (k) => (profile.invalidWeights[k] ?? 0) > 0 && (k !== 'duplicate_position' || recommendationCount > 0),
  );
  const usable = kinds.length > 0 ? kinds : (['malformed_json'] as SimulatedInvalidKind[]);
  const total = usable.reduce((sum, k) => sum + (profile.invalidWeights[k] ?? 1), 0);
  let acc = 0;
  for (const k of usable) {
    acc += (profile.invalidWeights[k] ?? 1) / total;
    if (u < acc) return k;
  }
  return usable[usable.length - 1]!;
}
