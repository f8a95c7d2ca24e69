/** Evidence of S_TV. */
export interface TemporalViolationEvidence {
  /** Number of prerequisite-order comparisons made. */
  checks: number;
  /** Pairs [prerequisite, dependent] whose dependent was mentioned first. */
  violations: Array<[string, string]>;
  relation: 'transitive' | 'direct';
}

/**
 * Temporal violation S_TV = 1 − violations / checks.
 *
 * For every prerequisite pair (p, q) — p ≺ q in the taxonomy's transitive closure (or only the direct
 * pairs, `relation: 'direct'`) — with both p and q mentioned in the response, one check is made: a
 * violation when q's first mention comes strictly before p's (the response uses a concept before the
 * concept it depends on). Equal first positions are not a violation. No check possible → S_TV = 1
 * (nothing was introduced out of order).
 *
 * Closure {a≺b, a≺c, b≺c}, first mentions c@0, a@10, b@20: checks 3, violations (a,c), (b,c),
 * S_TV = 1 − 2/3 = 0.3333. The caller passes the pairs (closure or direct); `relation` only records
 * which they were in the evidence.
 * @example
 * const mentions = [{ id: 'c', first: 0 }, { id: 'a', first: 10 }, { id: 'b', first: 20 }];
 * const r = scoreTemporalViolation(mentions, [['a', 'b'], ['a', 'c'], ['b', 'c']]);
 * [r.evidence.checks, +r.score.toFixed(4)]; // => [3, 0.3333]
 * r.evidence.violations; // => [['a', 'c'], ['b', 'c']]
 * scoreTemporalViolation([{ id: 'a', first: 0 }], [['a', 'b']]).score; // => 1
 */
export function scoreTemporalViolation(
  mentions: ReadonlyArray<{ id: string; first: number }>,
  pairs: ReadonlyArray<readonly [string, string]>,
  relation: 'transitive' | 'direct' = 'transitive',
): { score: number; evidence: TemporalViolationEvidence } {
  const first = new Map(mentions.map((m) => [m.id, m.first]));
  let checks = 0;
  const violations: Array<[string, string]> = [];
  for (const [p, q] of pairs) {
    const fp = first.get(p);
    const fq = first.get(q);
    if (fp === undefined || fq === undefined) continue;
    checks++;
    if (fq < fp) violations.push([p, q]);
  }
  const score = checks === 0 ? 1 : 1 - violations.length / checks;
  return { score, evidence: { checks, violations, relation } };
}
