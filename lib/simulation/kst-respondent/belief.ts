import seedrandom from 'seedrandom';
import { buildDomain, compileStructure, coverRelation, type Domain } from '../../kst';
import { hasBit } from '../../kst/bitset';
import { domainDifficulty, type SimulatedProfile } from './profiles';

/**
 * A simulated profile's belief about a domain's prerequisite relation under one presentation order and
 * one ungrounded condition (P0 or P1): the reference cover relation with some pairs missing and some
 * spurious pairs added. The belief is always acyclic (a spurious pair that would close a cycle is
 * skipped), so it is itself a valid domain and lib/kst computes its fringes.
 *
 * Drawing (all from seedrandom, never Math.random):
 *   rate_miss = min(0.95, profile.belief[c].miss · difficulty(domain)), rate_spur likewise.
 *   For every candidate error e — each reference cover pair (may go missing), then each ordered pair
 *   (p, q) of components incomparable in the reference order (may be added), both in canonical order —
 *   three numbers are drawn: u_shared from seedrandom(`sim|<profile>|<domain>|shared`) and (c, u_own)
 *   from seedrandom(`sim|<profile>|<domain>|o<order>|<condition>`). The error happens when
 *   u < rate with u = u_shared if c < consistency, else u_own. Every candidate consumes its draws
 *   whether or not it happens, so the shared stream stays aligned across orders and conditions: a
 *   misconception held in order 1 is, with probability ≈ consistency, also held in order 2 (and at the
 *   other condition's rate in the other ungrounded condition).
 */
export interface Belief {
  /** Direct pairs [p, q] (canonical IDs) the profile believes in, sorted by canonical index of p, then q. */
  edges: Array<[string, string]>;
  /** Reference cover pairs absent from the belief. */
  missing: Array<[string, string]>;
  /** Believed pairs that are not in the reference order at all. */
  spurious: Array<[string, string]>;
  /** The belief as a domain (same components, belief pairs), for lib/kst's fringe machinery. */
  domain: Domain;
}

export type UngroundedCondition = 'P0' | 'P1';

const cache = new WeakMap<SimulatedProfile, WeakMap<Domain, Map<string, Belief>>>();

/** The belief of `profile` about `domain` in presentation order `order` under condition P0 or P1 (memoised). */
export function drawBelief(profile: SimulatedProfile, domain: Domain, order: number, condition: UngroundedCondition): Belief {
  let byDomain = cache.get(profile);
  if (!byDomain) cache.set(profile, (byDomain = new WeakMap()));
  let byKey = byDomain.get(domain);
  if (!byKey) byDomain.set(domain, (byKey = new Map()));
  const key = `${order}|${condition}`;
  let belief = byKey.get(key);
  if (!belief) byKey.set(key, (belief = computeBelief(profile, domain, order, condition)));
  return belief;
}

function computeBelief(profile: SimulatedProfile, domain: Domain, order: number, condition: UngroundedCondition): Belief {
  const reference = compileStructure(domain);
  const n = reference.n;
  const difficulty = domainDifficulty(domain.id, condition, profile);
  const rates = profile.belief[condition];
  const missRate = Math.min(0.95, rates.miss * difficulty);
  const spuriousRate = Math.min(0.95, rates.spurious * difficulty);
  const shared = seedrandom(`sim|${profile.name}|${domain.id}|shared`);
  const own = seedrandom(`sim|${profile.name}|${domain.id}|o${order}|${condition}`);
  const happens = (rate: number): boolean => {
    const uShared = shared();
    const c = own();
    const uOwn = own();
    return (c < profile.consistency ? uShared : uOwn) < rate;
  };

  const cover = coverRelation(domain);
  const missing: Array<[string, string]> = [];
  const adjacency: number[][] = Array.from({ length: n }, () => []);
  for (const [p, q] of cover) {
    if (happens(missRate)) missing.push([p, q]);
    else adjacency[domain.index.get(p)!]!.push(domain.index.get(q)!);
  }

  const spurious: Array<[string, string]> = [];
  for (let p = 0; p < n; p++) {
    for (let q = 0; q < n; q++) {
      if (p === q || hasBit(reference.prerequisiteBits[q]!, p) || hasBit(reference.prerequisiteBits[p]!, q)) continue;
      if (!happens(spuriousRate)) continue;
      if (reaches(adjacency, q, p)) continue; // would close a cycle: the belief stays acyclic
      adjacency[p]!.push(q);
      spurious.push([reference.ids[p]!, reference.ids[q]!]);
    }
  }

  const edges: Array<[number, number]> = [];
  adjacency.forEach((targets, p) => targets.forEach((q) => edges.push([p, q])));
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const edgeIds = edges.map(([p, q]) => [reference.ids[p]!, reference.ids[q]!] as [string, string]);
  const beliefDomain = buildDomain(
    {
      id: domain.id,
      title: domain.title,
      source: `simulated belief of ${profile.name} (order ${order}, ${condition})`,
      components: domain.components.map((c) => ({ id: c.id, description: c.description })),
      prerequisites: edgeIds,
    },
    undefined,
  );
  return { edges: edgeIds, missing, spurious, domain: beliefDomain };
}

/** True when `to` is reachable from `from` along the directed edges (depth-first search). */
function reaches(adjacency: readonly number[][], from: number, to: number): boolean {
  const stack = [from];
  const seen = new Set<number>([from]);
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v === to) return true;
    for (const w of adjacency[v]!) {
      if (!seen.has(w)) {
        seen.add(w);
        stack.push(w);
      }
    }
  }
  return false;
}
