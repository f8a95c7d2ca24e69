import { buildDomain, type Domain } from '../../lib/kst';
import type { Condition } from '../../lib/conditions';
import type { ScoredRecord } from '../../lib/analysis/score';

/**
 * Three tasks A, B, C with one prerequisite A → B. States: ∅, {A}, {C}, {A,B}, {A,C}, {A,B,C} (6).
 * Outer fringes by hand: ∅ → {A, C}; {A} → {B, C}; {C} → {A}; {A,B} → {C}; {A,C} → {B}; Q → ∅.
 */
export function abcDomain(id = 'abc'): Domain {
  return buildDomain({
    id,
    title: id,
    source: 'test',
    components: ['A', 'B', 'C'].map((c) => ({ id: c, description: `task ${c}` })),
    prerequisites: [['A', 'B']],
  });
}

/** One line of a responses file for `abcDomain` (defaults: valid, model m1, P0, order 1). */
export function responseLine(overrides: Record<string, unknown>): Record<string, unknown> {
  return { run_id: 'r1', model: 'm1', domain: 'abc', condition: 'P0', order: 1, state: [], recommended: ['A', 'C'], status: 'valid', ...overrides };
}

/** A scored record with only the fields the tables read; every measure given explicitly. */
export function scoredRecord(
  fields: { model?: string; domain?: string; condition: Condition; stateKey?: string },
  scores: { exact: number; precision?: number; recall?: number; f1?: number; jaccard?: number },
): ScoredRecord {
  const f1 = scores.f1 ?? scores.exact;
  return {
    model: fields.model ?? 'm1',
    domain: fields.domain ?? 'abc',
    condition: fields.condition,
    stateKey: fields.stateKey ?? 'abc:{}',
    scores: { exact: scores.exact, precision: scores.precision ?? f1, recall: scores.recall ?? f1, f1, jaccard: scores.jaccard ?? f1 },
  } as unknown as ScoredRecord;
}
