import type { MemoryItem } from './schema';

/** Evidence of S_EF. */
export interface ForgettingEvidence {
  mode: 'scenario' | 'response';
  /** Memory items summed over, with their retention e^(−t/S) and the (renormalised) weight used. */
  terms: Array<{ concept: string; retention: number; weight: number }>;
  /** Response mode only: true when the response mentions no memory concept and the scenario value is used. */
  fallback?: boolean;
}

/**
 * Ebbinghaus forgetting S_EF = Σ_i λ_i · e^(−t_i / S_i), t_i = days since last exposure, S_i = memory
 * strength in days, λ_i = importance (Σ λ_i = 1, checked when scenarios are loaded).
 *
 * - 'scenario' (paper): the sum runs over the scenario's whole `learner.memory`, so the value depends
 *   on scenario metadata only and is identical for every response to that scenario.
 * - 'response': the sum runs over the memory concepts the response mentions, with λ renormalised to
 *   sum to 1 over them (a response that builds on freshly-practised concepts scores high). When the
 *   response mentions none of them, the scenario value is used (`fallback: true`): the response leans
 *   on no remembered concept, so the learner's overall retention is the best available estimate.
 *
 * Memory [(t 2, S 4, λ 0.5), (t 10, S 5, λ 0.5)] gives 0.5·e^−0.5 + 0.5·e^−2 = 0.30327 + 0.06767 = 0.37093.
 * @example
 * const memory = [
 *   { concept: 'a', days_since_exposure: 2, strength_days: 4, importance: 0.5 },
 *   { concept: 'b', days_since_exposure: 10, strength_days: 5, importance: 0.5 },
 * ];
 * +scoreForgetting(memory).score.toFixed(5); // => 0.37093
 * +scoreForgetting(memory, 'response', ['b']).score.toFixed(5); // => 0.13534
 * scoreForgetting(memory, 'response', []).evidence.fallback; // => true
 */
export function scoreForgetting(
  memory: readonly MemoryItem[],
  mode: 'scenario' | 'response' = 'scenario',
  mentioned: readonly string[] = [],
): { score: number; evidence: ForgettingEvidence } {
  const retention = (m: MemoryItem) => Math.exp(-m.days_since_exposure / m.strength_days);
  const over = (items: readonly MemoryItem[]) => {
    const total = items.reduce((s, m) => s + m.importance, 0);
    const terms = items.map((m) => ({
      concept: m.concept,
      retention: retention(m),
      weight: total > 0 ? m.importance / total : 1 / items.length,
    }));
    return { score: terms.reduce((s, t) => s + t.weight * t.retention, 0), terms };
  };
  if (mode === 'scenario') {
    const all = over(memory);
    return { score: all.score, evidence: { mode, terms: all.terms } };
  }
  const set = new Set(mentioned);
  const referenced = memory.filter((m) => set.has(m.concept));
  if (referenced.length === 0) {
    const all = over(memory);
    return { score: all.score, evidence: { mode, terms: all.terms, fallback: true } };
  }
  const r = over(referenced);
  return { score: r.score, evidence: { mode, terms: r.terms, fallback: false } };
}
