import seedrandom from 'seedrandom';
import { InputError } from '../errors';
import { bitsKey, emptyBits, hasBit, popcount32 } from './bitset';
import type { Domain } from './domain';
import { forEachStateBits } from './space';
import { compileStructure, domainLabel } from './structure';

/** Name of the sampling scheme for quasi-ordinal domains, recorded with every sample. */
export const SAMPLING_SCHEME = 'lazy-up-down-markov-chain';
/**
 * Scheme for domains that are not quasi-ordinal: a general knowledge space need not be accessible
 * (well-graded), so the up-down chain may not reach every state; instead the space is enumerated from
 * its basis and each draw is an independent uniform pick, ⌊rng()·states⌋.
 */
export const UNIFORM_SCHEME = 'uniform-from-enumeration';
/** Largest space the uniform scheme enumerates. */
export const MAX_UNIFORM_SAMPLE_STATES = 2_000_000;

/** A seeded sample of knowledge states with the weights needed to aggregate over it. */
export interface StateSample {
  scheme: typeof SAMPLING_SCHEME | typeof UNIFORM_SCHEME;
  domain: string;
  seed: string;
  /** Number of draws taken (options.size). */
  draws: number;
  /** Chain steps discarded before the first draw. */
  burnIn: number;
  /** Chain steps between consecutive draws. */
  thin: number;
  /** Distinct sampled states, canonical-order IDs, sorted by size then canonical-index lexicographic. */
  states: string[][];
  /** counts[i] = number of draws that landed on states[i]; sums to draws. */
  counts: number[];
  /**
   * weights[i] = counts[i] / draws; sums to 1. Since every draw is (approximately) uniform over all
   * states, Σ weights[i]·f(states[i]) estimates the equally weighted mean of f over the whole space
   * while each distinct state needs to be evaluated only once.
   */
  weights: number[];
}

export interface SampleOptions {
  /** Number of draws (positive integer). */
  size: number;
  /** Seed for seedrandom; recorded in the result. */
  seed: string;
  /** Steps before the first draw; default max(1000, 100·n). */
  burnIn?: number;
  /** Steps between draws; default 2·n (each component proposed about once per draw). */
  thin?: number;
}

/**
 * Samples knowledge states approximately uniformly with the lazy up-down Markov chain (Glauber
 * dynamics on the lattice of down-sets), which needs only the prerequisites, never the whole space:
 *
 *   start at K = ∅; each step draws u ~ U[0, 1) from seedrandom(seed);
 *   if u < 1/2 stay (laziness makes the chain aperiodic); otherwise pick q uniformly among the n
 *   components and toggle it when the result is still a state:
 *     q ∉ K and every direct prerequisite of q is in K  → K ∪ {q}   (q in the outer fringe)
 *     q ∈ K and no direct successor of q is in K        → K \ {q}   (q in the inner fringe)
 *     otherwise stay.
 *
 * Each move K → K' has probability 1/(2n) in both directions, so the transition matrix is symmetric and
 * its stationary distribution is uniform over all states; the chain is irreducible (every state reaches
 * ∅ by removing inner-fringe tasks). After `burnIn` steps a state is recorded every `thin` steps.
 * Draws are therefore approximately uniform and mildly correlated; mixing time depends on the order
 * and is not bounded here, which is why burn-in and thinning are recorded and adjustable.
 * Deterministic for a given domain, seed and options.
 */
export function sampleStates(domain: Domain, options: SampleOptions): StateSample {
  const s = compileStructure(domain);
  const { size, seed } = options;
  const burnIn = options.burnIn ?? Math.max(1000, 100 * s.n);
  const thin = options.thin ?? 2 * s.n;
  for (const [name, value, min] of [
    ['size', size, 1],
    ['burnIn', burnIn, 0],
    ['thin', thin, 1],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < min) {
      throw new InputError(`${domainLabel(domain)}: sampleStates ${name} must be an integer ≥ ${min}, got ${value}`, {
        item: name,
      });
    }
  }
  const rng = seedrandom(seed);
  if (s.basis) return uniformSample(domain, s, size, seed, rng);
  const state = emptyBits(s.n);
  const step = (): void => {
    const u = rng();
    if (u < 0.5) return;
    const q = Math.min(s.n - 1, Math.floor((u - 0.5) * 2 * s.n));
    const word = q >>> 5;
    const bit = 1 << (q & 31);
    if ((state[word]! & bit) !== 0) {
      for (let k = s.successorStart[q]!, end = s.successorStart[q + 1]!; k < end; k++) {
        const r = s.successorList[k]!;
        if ((state[r >>> 5]! & (1 << (r & 31))) !== 0) return;
      }
      state[word]! &= ~bit;
    } else {
      for (let k = s.prerequisiteStart[q]!, end = s.prerequisiteStart[q + 1]!; k < end; k++) {
        const p = s.prerequisiteList[k]!;
        if ((state[p >>> 5]! & (1 << (p & 31))) === 0) return;
      }
      state[word]! |= bit;
    }
  };
  for (let i = 0; i < burnIn; i++) step();
  const seen = new Map<string, { bits: Uint32Array; count: number }>();
  for (let d = 0; d < size; d++) {
    if (d > 0) for (let i = 0; i < thin; i++) step();
    const key = bitsKey(state);
    const entry = seen.get(key);
    if (entry) entry.count++;
    else seen.set(key, { bits: state.slice(), count: 1 });
  }
  const entries = [...seen.values()].map((e) => ({ ...e, size: e.bits.reduce((t, w) => t + popcount32(w), 0) }));
  entries.sort((a, b) => a.size - b.size || compareSameSize(a.bits, b.bits));
  return {
    scheme: SAMPLING_SCHEME,
    domain: domain.id,
    seed,
    draws: size,
    burnIn,
    thin,
    states: entries.map((e) => s.ids.filter((_, i) => hasBit(e.bits, i))),
    counts: entries.map((e) => e.count),
    weights: entries.map((e) => e.count / size),
  };
}

/** The uniform-from-enumeration scheme (see UNIFORM_SCHEME); burnIn and thin are 0 and 1. */
function uniformSample(domain: Domain, s: ReturnType<typeof compileStructure>, size: number, seed: string, rng: () => number): StateSample {
  const all: Uint32Array[] = [];
  forEachStateBits(s, (bits) => {
    if (all.length >= MAX_UNIFORM_SAMPLE_STATES) {
      throw new InputError(
        `${domainLabel(domain)}: domain "${domain.id}" is not quasi-ordinal and has more than ${MAX_UNIFORM_SAMPLE_STATES} states, too many to sample uniformly by enumeration`,
        { file: domain.file, item: domain.id },
      );
    }
    all.push(bits.slice());
  });
  // Draw from a fixed order (size, then lexicographic), not the walk's: a sample depends on the seed
  // and the space only, whatever order the union-closure walk visits states in.
  const sizeOf = (bits: Uint32Array): number => bits.reduce((t, w) => t + popcount32(w), 0);
  all.sort((a, b) => sizeOf(a) - sizeOf(b) || compareSameSize(a, b));
  const counts = new Map<number, number>();
  for (let d = 0; d < size; d++) {
    const i = Math.min(all.length - 1, Math.floor(rng() * all.length));
    counts.set(i, (counts.get(i) ?? 0) + 1);
  }
  const entries = [...counts].map(([i, count]) => ({ bits: all[i]!, count, size: all[i]!.reduce((t, w) => t + popcount32(w), 0) }));
  entries.sort((a, b) => a.size - b.size || compareSameSize(a.bits, b.bits));
  return {
    scheme: UNIFORM_SCHEME,
    domain: domain.id,
    seed,
    draws: size,
    burnIn: 0,
    thin: 1,
    states: entries.map((e) => s.ids.filter((_, i) => hasBit(e.bits, i))),
    counts: entries.map((e) => e.count),
    weights: entries.map((e) => e.count / size),
  };
}

function compareSameSize(a: Uint32Array, b: Uint32Array): number {
  for (let w = 0; w < a.length; w++) {
    const d = a[w]! ^ b[w]!;
    if (d !== 0) return (a[w]! & d & -d) !== 0 ? -1 : 1;
  }
  return 0;
}
