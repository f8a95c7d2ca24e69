import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import { shuffleInPlace } from '../stats/shuffle';
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
  /** SHA-256 hex of `kstbench:<domain.id>:order:<k>` (`…:redraw:<r>` if redrawn); seeds the permutation. */
  seed: string;
  /** positions[i] = canonical ID shown at temporary position i + 1. */
  positions: string[];
  /** Temporary 1-based position of a canonical ID; InputError for an unknown ID. */
  toPosition(id: string): number;
  /** Canonical ID at a temporary 1-based position; InputError for anything but an integer in 1..n. */
  toId(position: number): string;
}

/**
 * The seed string of presentation order `k` of a domain: SHA-256 hex of `kstbench:<id>:order:<k>`, or of
 * `kstbench:<id>:order:<k>:redraw:<r>` for the r-th redraw (see `presentation`).
 */
export function presentationSeed(domainId: string, order: number, redraw = 0): string {
  const text = redraw === 0 ? `kstbench:${domainId}:order:${order}` : `kstbench:${domainId}:order:${order}:redraw:${redraw}`;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function shuffled(ids: readonly string[], seed: string): string[] {
  return shuffleInPlace([...ids], seedrandom(seed));
}

function factorialAtLeast(n: number, k: number): boolean {
  let f = 1;
  for (let i = 2; i <= n && f < k; i++) f *= i;
  return f >= k;
}

/**
 * Positions and seed of order k. Two orders that happened to draw the same permutation would make the
 * presentation comparison empty (likely for tiny domains: two components have only two orders), so an
 * order that repeats an earlier one is redrawn with the next redraw seed, as long as the domain has at
 * least k distinct permutations. For the study domains no redraw occurs.
 */
function drawOrder(domain: Domain, order: number): { seed: string; positions: string[] } {
  return drawOrders(domain, order)[order - 1]!;
}

/**
 * Orders 1..count drawn in one pass, each against the set of the earlier ones. (Drawing order k by
 * first drawing 1..k−1 afresh, recursively, cost 2^k draws: `collect --orders 24` never finished.)
 * Redraws happen only while `k` distinct permutations exist, so the loop for each order ends.
 */
function drawOrders(domain: Domain, count: number): Array<{ seed: string; positions: string[] }> {
  const earlier = new Set<string>();
  const orders: Array<{ seed: string; positions: string[] }> = [];
  for (let order = 1; order <= count; order++) {
    const distinctPossible = factorialAtLeast(domain.ids.length, order);
    for (let redraw = 0; ; redraw++) {
      const seed = presentationSeed(domain.id, order, redraw);
      const positions = shuffled(domain.ids, seed);
      const key = positions.join('\u0000');
      if (!distinctPossible || !earlier.has(key)) {
        earlier.add(key);
        orders.push({ seed, positions });
        break;
      }
    }
  }
  return orders;
}

/**
 * Builds presentation order k: Fisher–Yates over the canonical ID list driven by seedrandom(seed),
 * i.e. for i = n−1 down to 1 swap item i with item j = ⌊rng()·(i+1)⌋; redrawn when it repeats an
 * earlier order (see drawOrder).
 */
export function presentation(domain: Domain, order: number): Presentation {
  if (!Number.isSafeInteger(order) || order < 1) {
    throw new InputError(`presentation order must be an integer ≥ 1, got ${order}`, { item: String(order) });
  }
  return presentationFrom(domain, order, drawOrder(domain, order));
}

function presentationFrom(domain: Domain, order: number, drawn: { seed: string; positions: string[] }): Presentation {
  const { seed, positions } = drawn;
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
  return drawOrders(domain, count).map((drawn, k) => presentationFrom(domain, k + 1, drawn));
}
