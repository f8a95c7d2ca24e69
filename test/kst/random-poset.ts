import seedrandom from 'seedrandom';
import { buildDomain, type Domain } from '../../lib/kst';

/**
 * Test helper: a seeded random DAG on `n` components. Edges i→j (i < j in a hidden topological
 * order) appear with probability `density`; component IDs are then listed in a shuffled canonical order
 * so that the file order is usually NOT topological.
 */
export function randomDomain(seed: string, n: number, density: number): Domain {
  const rng = seedrandom(seed);
  const hidden = Array.from({ length: n }, (_, i) => `T${i}`);
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (rng() < density) pairs.push([hidden[i]!, hidden[j]!]);
  const canonical = [...hidden];
  for (let i = canonical.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [canonical[i], canonical[j]] = [canonical[j]!, canonical[i]!];
  }
  return buildDomain({
    id: `random-${seed}`,
    title: 'random',
    source: 'test',
    components: canonical.map((id) => ({ id, description: `task ${id}` })),
    prerequisites: pairs,
  });
}

/**
 * A seeded sparse random DAG for large n: component j (in a hidden topological order) gets up to
 * `maxPrerequisites` direct prerequisites drawn uniformly from the components before it. Canonical
 * order is shuffled as in randomDomain.
 */
export function randomSparseDomain(seed: string, n: number, maxPrerequisites: number): Domain {
  const rng = seedrandom(seed);
  const hidden = Array.from({ length: n }, (_, i) => `T${i}`);
  const pairs: Array<[string, string]> = [];
  for (let j = 1; j < n; j++) {
    const k = Math.floor(rng() * (maxPrerequisites + 1));
    const chosen = new Set<number>();
    for (let t = 0; t < k; t++) chosen.add(Math.floor(rng() * j));
    for (const i of chosen) pairs.push([hidden[i]!, hidden[j]!]);
  }
  for (let i = hidden.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [hidden[i], hidden[j]] = [hidden[j]!, hidden[i]!];
  }
  return buildDomain({
    id: `sparse-${seed}`,
    title: 'sparse random',
    source: 'test',
    components: hidden.map((id) => ({ id, description: `task ${id}` })),
    prerequisites: pairs,
  });
}

/** A small domain from a compact spec, e.g. tiny(['A','B','C'], [['A','B']]). */
export function tiny(ids: string[], pairs: Array<[string, string]>, id = 'tiny'): Domain {
  return buildDomain({
    id,
    title: id,
    source: 'test',
    components: ids.map((c) => ({ id: c, description: `task ${c}` })),
    prerequisites: pairs,
  });
}

/**
 * Brute force, independent of lib/kst: every subset (as a canonical-index bitmask) that contains all
 * direct prerequisites of each of its members. Only for n ≤ 16.
 */
export function bruteForceStates(domain: Domain): number[] {
  const n = domain.ids.length;
  const pairs = domain.prerequisites.map(([p, q]) => [domain.index.get(p)!, domain.index.get(q)!] as const);
  const out: number[] = [];
  for (let mask = 0; mask < 1 << n; mask++) {
    if (pairs.every(([p, q]) => !((mask >> q) & 1) || ((mask >> p) & 1))) out.push(mask);
  }
  return out;
}

/** IDs of a mask in canonical order. */
export function maskIds(domain: Domain, mask: number): string[] {
  return domain.ids.filter((_, i) => (mask >> i) & 1);
}

/** Independent transitive closure by repeated relaxation (Warshall), as sorted "p<q" strings. */
export function warshallClosure(domain: Domain): string[] {
  const n = domain.ids.length;
  const reach = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
  for (const [p, q] of domain.prerequisites) reach[domain.index.get(p)!]![domain.index.get(q)!] = true;
  for (let k = 0; k < n; k++) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (reach[i]![k] && reach[k]![j]) reach[i]![j] = true;
  const out: string[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (reach[i]![j]) out.push(`${domain.ids[i]}<${domain.ids[j]}`);
  return out.sort();
}

/** Components with IDs `ids` and descriptions "task <id>" (the form used by the hand-made structures). */
export function taskComponents(ids: readonly string[]): Array<{ id: string; description: string }> {
  return ids.map((id) => ({ id, description: `task ${id}` }));
}
