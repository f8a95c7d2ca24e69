import { emptyBits, hasBit, orInto } from './bitset';
import type { Domain } from './domain';
import { compileStructure } from './structure';

/**
 * The surmise relation without its reflexive pairs: every [p, q] with p ≺ q in the transitive closure
 * of the direct prerequisites (p must be mastered before q). Sorted by canonical index of p, then of q.
 * Closure rows are built in topological order: pre*(q) = ⋃ over direct prerequisites p of ({p} ∪ pre*(p)),
 * one word-wide OR per edge, so thousands of components are fine.
 *
 * @example
 * const { buildDomain } = require('./domain');
 * const comp = (id: string) => ({ id, description: id });
 * const chain = buildDomain({ id: 'd', title: 'd', source: 's', components: ['A', 'B', 'C'].map(comp), prerequisites: [['A', 'B'], ['B', 'C']] });
 * surmiseRelation(chain); // => [['A', 'B'], ['A', 'C'], ['B', 'C']]
 */
export function surmiseRelation(domain: Domain): Array<[string, string]> {
  const s = compileStructure(domain);
  const pairs: Array<[string, string]> = [];
  for (let p = 0; p < s.n; p++) {
    for (let q = 0; q < s.n; q++) if (hasBit(s.prerequisiteBits[q]!, p)) pairs.push([s.ids[p]!, s.ids[q]!]);
  }
  return pairs;
}

/**
 * The transitive reduction (cover / Hasse relation): [p, q] with p ≺ q and no r such that p ≺ r ≺ q.
 * A cover pair is always one of the direct pairs, and a direct pair [p, q] is a cover unless p is a
 * strict prerequisite of some other direct prerequisite r of q. Sorted like surmiseRelation.
 *
 * @example
 * const { buildDomain } = require('./domain');
 * const comp = (id: string) => ({ id, description: id });
 * const d = buildDomain({ id: 'd', title: 'd', source: 's', components: ['A', 'B', 'C'].map(comp), prerequisites: [['A', 'B'], ['B', 'C'], ['A', 'C']] });
 * coverRelation(d); // => [['A', 'B'], ['B', 'C']]
 */
export function coverRelation(domain: Domain): Array<[string, string]> {
  const s = compileStructure(domain);
  const pairs: Array<[number, number]> = [];
  const implied = emptyBits(s.n);
  for (let q = 0; q < s.n; q++) {
    implied.fill(0);
    for (const r of s.directPrerequisites[q]!) orInto(implied, s.prerequisiteBits[r]!);
    for (const p of s.directPrerequisites[q]!) if (!hasBit(implied, p)) pairs.push([p, q]);
  }
  pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return pairs.map(([p, q]) => [s.ids[p]!, s.ids[q]!]);
}
