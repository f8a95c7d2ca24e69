import { join } from 'node:path';
import { loadDomainDir, type Domain } from '../../../lib/kst';
import { SIMULATED_PROFILES, type SimulatedProfile } from '../../../lib/simulation/kst-respondent/profiles';

/** The shipped study domains (data/raw/domains). */
export const DOMAINS = loadDomainDir(join(__dirname, '..', '..', '..', 'data', 'raw', 'domains'));
export const byId = (id: string): Domain => DOMAINS.find((d) => d.id === id)!;

/** A profile built by hand for a test (never one of the shipped table entries). */
export function testProfile(overrides: Partial<SimulatedProfile>): SimulatedProfile {
  return {
    ...SIMULATED_PROFILES[0]!,
    name: 'sim-test',
    mirrors: 'test',
    invalidRate: 0,
    slip: { P0: 0, P1: 0, P2: 0, P3: 0 },
    domainDifficulty: {}, // every domain at multiplier 1, independent of the calibrated table
    ...overrides,
  };
}

/** Acyclicity by Kahn's algorithm, written here independently of lib/kst. */
export function isAcyclic(ids: readonly string[], edges: ReadonlyArray<readonly [string, string]>): boolean {
  const indegree = new Map(ids.map((id) => [id, 0]));
  for (const [, q] of edges) indegree.set(q, indegree.get(q)! + 1);
  const queue = ids.filter((id) => indegree.get(id) === 0);
  let removed = 0;
  while (queue.length > 0) {
    const v = queue.pop()!;
    removed++;
    for (const [p, q] of edges) if (p === v) {
      indegree.set(q, indegree.get(q)! - 1);
      if (indegree.get(q) === 0) queue.push(q);
    }
  }
  return removed === ids.length;
}
