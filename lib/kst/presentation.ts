import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import { InputError } from '../errors';
import type { Domain } from './domain';

/**
 * One presentation of a domain's catalogue: the components shown under temporary 1-based positions
 * instead of their IDs, so a model cannot lean on ID numbering. The same presentation is reused for
 * every state, condition and model (mastered sets, relations, states and answers all go through it).
 */
export interface Presentation {
  domain: string;
  /** 1-based order number k. */
  order: number;
  /** SHA-256 hex of `kstbench:<domain.id>:order:<k>`; seeds the permutation. */
  seed: string;
  /** positions[i] = canonical ID shown at temporary position i + 1. */
  positions: string[];
  /** Temporary 1-based position of a canonical ID; InputError for an unknown ID. */
  toPosition(id: string): number;
  /** Canonical ID at a temporary 1-based position; InputError for anything but an integer in 1..n. */
  toId(position: number): string;
}

/** The seed string of presentation order `k` of a domain: SHA-256 hex of `kstbench:<id>:order:<k>`. */
export function presentationSeed(domainId: string, order: number): string {
  return createHash('sha256').update(`kstbench:${domainId}:order:${order}`, 'utf8').digest('hex');
}

/**
 * Builds presentation order k: Fisher–Yates over the canonical ID list driven by seedrandom(seed),
 * i.e. for i = n−1 down to 1 swap item i with item j = ⌊rng()·(i+1)⌋.
 */
export function presentation(domain: Domain, order: number): Presentation {
  if (!Number.isSafeInteger(order) || order < 1) {
    throw new InputError(`presentation order must be an integer ≥ 1, got ${order}`, { item: String(order) });
  }
  const seed = presentationSeed(domain.id, order);
  const rng = seedrandom(seed);
  const positions = [...domain.ids];
  for (let i = positions.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [positions[i], positions[j]] = [positions[j]!, positions[i]!];
  }
  const positionOf = new Map(positions.map((id, i) => [id, i + 1]));
  return {
    domain: domain.id,
    order,
    seed,
    positions,
    toPosition(id: string): number {
      const position = positionOf.get(id);
      if (position === undefined) {
        throw new InputError(`domain ${domain.id}, order ${order}: unknown component ID "${id}"`, { item: id });
      }
      return position;
    },
    toId(position: number): string {
      if (!Number.isInteger(position) || position < 1 || position > positions.length) {
        throw new InputError(
          `domain ${domain.id}, order ${order}: position ${position} is not an integer in 1..${positions.length}`,
          { item: String(position) },
        );
      }
      return positions[position - 1]!;
    },
  };
}

/** Presentation orders 1..count (default 2, as in the study) of a domain. */
export function presentationOrders(domain: Domain, count = 2): Presentation[] {
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new InputError(`presentation count must be an integer ≥ 1, got ${count}`, { item: String(count) });
  }
  return Array.from({ length: count }, (_, k) => presentation(domain, k + 1));
}
