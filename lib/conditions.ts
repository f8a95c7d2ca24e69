/**
 * The four structural-information conditions of the KST benchmark ([KST-2026], Table 2), in their
 * canonical order, and the three adjacent contrasts the inference reports (P1−P0, P2−P1, P3−P2).
 */
export const CONDITIONS = ['P0', 'P1', 'P2', 'P3'] as const;
export type Condition = (typeof CONDITIONS)[number];

export const CONDITION_LABELS: Record<Condition, string> = {
  P0: 'Descriptions only',
  P1: 'Model reconstruction',
  P2: 'Reference graph',
  P3: 'Admissible states',
};

/** Adjacent contrasts `later − earlier`, in reporting order. */
export const ADJACENT_CONTRASTS: ReadonlyArray<{ name: string; later: Condition; earlier: Condition }> = [
  { name: 'P1-P0', later: 'P1', earlier: 'P0' },
  { name: 'P2-P1', later: 'P2', earlier: 'P1' },
  { name: 'P3-P2', later: 'P3', earlier: 'P2' },
];

/** The adjacent contrasts (P1−P0, P2−P1, P3−P2) whose two conditions are both in the design. */
export function designContrasts(conditions: readonly Condition[]): typeof ADJACENT_CONTRASTS {
  return ADJACENT_CONTRASTS.filter((c) => conditions.includes(c.later) && conditions.includes(c.earlier));
}

export function isCondition(value: unknown): value is Condition {
  return typeof value === 'string' && (CONDITIONS as readonly string[]).includes(value);
}
