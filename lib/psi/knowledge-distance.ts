/** Evidence of S_KD. */
export interface KnowledgeDistanceEvidence {
  /** Concepts found in the response, in order of first mention. */
  conceptsFound: string[];
  /** Found concepts the learner already knows. */
  known: string[];
  /** Found concepts the learner does not know yet. */
  unknown: string[];
  /** sim(R, K) under `measure` (0 when no concept was found). */
  overlap: number;
  measure: 'known-share' | 'jaccard';
  deltaOpt: number;
}

/**
 * Knowledge distance S_KD = 1 − |sim(R, K) − δ_opt| (paper eq. for S_KD; δ_opt = 0.65 by default).
 *
 * C_R = concepts found in the response, K = the learner's known concepts.
 * - 'known-share': sim = |C_R ∩ K| / |C_R| — the share of the response's concepts the learner already
 *   knows; δ_opt = 0.65 then reads "about two thirds familiar, one third new" (the ZPD reading).
 * - 'jaccard':     sim = |C_R ∩ K| / |C_R ∪ K|.
 * No concept found: sim = 0 (the response does not connect to anything the learner knows), so
 * S_KD = 1 − δ_opt. This is the value both formulas give as C_R shrinks to nothing known.
 *
 * C_R = {a, b, c}, K = {a, b, x, y}: known-share 2/3, S_KD = 1 − |0.6667 − 0.65| = 0.98333; jaccard
 * 2/5 = 0.4, S_KD = 1 − 0.25 = 0.75.
 * @example
 * +scoreKnowledgeDistance(['a', 'b', 'c'], ['a', 'b', 'x', 'y'], { deltaOpt: 0.65, overlap: 'known-share' }).score.toFixed(5); // => 0.98333
 * +scoreKnowledgeDistance(['a', 'b', 'c'], ['a', 'b', 'x', 'y'], { deltaOpt: 0.65, overlap: 'jaccard' }).score.toFixed(5); // => 0.75
 * +scoreKnowledgeDistance([], ['a'], { deltaOpt: 0.65, overlap: 'jaccard' }).score.toFixed(5); // => 0.35
 */
export function scoreKnowledgeDistance(
  conceptsFound: readonly string[],
  knownConcepts: readonly string[],
  options: { deltaOpt: number; overlap: 'known-share' | 'jaccard' },
): { score: number; evidence: KnowledgeDistanceEvidence } {
  const K = new Set(knownConcepts);
  const found = [...new Set(conceptsFound)];
  const known = found.filter((id) => K.has(id));
  const unknown = found.filter((id) => !K.has(id));
  let overlap = 0;
  if (found.length > 0) {
    overlap = options.overlap === 'known-share' ? known.length / found.length : known.length / (K.size + unknown.length);
  }
  const score = 1 - Math.abs(overlap - options.deltaOpt);
  return {
    score,
    evidence: { conceptsFound: found, known, unknown, overlap, measure: options.overlap, deltaOpt: options.deltaOpt },
  };
}
