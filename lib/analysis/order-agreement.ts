import { setAgreement } from '../metrics';
import { groupBy, mean } from './group';
import type { ResponseRecord } from './responses';

export interface OrderAgreement {
  /** model × condition × state combinations with valid responses under at least two presentation orders. */
  pairs: number;
  /** Mean over pairs of 1 when the two recommendation sets are identical. */
  exact_agreement: number | null;
  /** Mean over pairs of the Jaccard similarity of the two sets (both empty → 1). */
  mean_jaccard: number | null;
}

/**
 * Agreement of the recommendation sets returned for the same model, condition and state under different
 * presentation orders (paper §3.3, RQ2). The sets are compared with each other, not with the reference,
 * so this measures consistency, not correctness. Only valid responses take part. With more than two
 * orders, a combination's value is the mean over its pairs of orders.
 */
export function orderAgreement(records: readonly ResponseRecord[]): OrderAgreement {
  const valid = records.filter((r) => r.status === 'valid');
  const groups = groupBy(valid, (r) => `${r.model}|${r.condition}|${r.stateKey}`);
  const exact: number[] = [];
  const jaccard: number[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const sorted = [...group].sort((a, b) => a.order - b.order);
    const ex: number[] = [];
    const ja: number[] = [];
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) {
        const a = setAgreement(sorted[i]!.recommended!, sorted[j]!.recommended!);
        ex.push(a.exact);
        ja.push(a.jaccard);
      }
    }
    exact.push(mean(ex));
    jaccard.push(mean(ja));
  }
  return {
    pairs: exact.length,
    exact_agreement: exact.length ? mean(exact) : null,
    mean_jaccard: jaccard.length ? mean(jaccard) : null,
  };
}
