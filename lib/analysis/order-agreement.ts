import { setAgreement } from '../metrics';
import { mean } from '../stats/mean';
import { groupBy } from './group';
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
  return agreementOfCombinations(combinations(records));
}

/** One row of `orderAgreementBy`: the agreement of the combinations whose key is `group`. */
export interface OrderAgreementRow extends OrderAgreement {
  group: string;
}

/** What `orderAgreementBy` can group by: a record field, or a function of the record. */
export type AgreementKey = 'model' | 'condition' | 'domain' | ((record: ResponseRecord) => string);

/**
 * Order agreement per group: the model × condition × state combinations are formed as in
 * `orderAgreement` and then split by `key` (a combination lies in one group, since model, condition
 * and domain are constant within it). Groups sorted by name; a group none of whose combinations has
 * two valid orders gets pairs 0 and null means. The pairs of the groups add up to the overall pairs.
 *
 * `orderAgreementBy(records, 'condition')` gives rows `{ group: 'P0', pairs, exact_agreement, mean_jaccard }`, ….
 */
export function orderAgreementBy(records: readonly ResponseRecord[], key: AgreementKey): OrderAgreementRow[] {
  const keyOf = typeof key === 'function' ? key : (r: ResponseRecord) => r[key];
  const byGroup = new Map<string, ResponseRecord[][]>();
  for (const r of records) if (!byGroup.has(keyOf(r))) byGroup.set(keyOf(r), []);
  for (const group of combinations(records)) byGroup.get(keyOf(group[0]!))!.push(group);
  return [...byGroup.keys()].sort().map((group) => ({ group, ...agreementOfCombinations(byGroup.get(group)!) }));
}

/** Valid responses grouped by model × condition × state, orders ascending within a group. */
function combinations(records: readonly ResponseRecord[]): ResponseRecord[][] {
  const valid = records.filter((r) => r.status === 'valid');
  return [...groupBy(valid, (r) => `${r.model}|${r.condition}|${r.stateKey}`).values()].map((g) => [...g].sort((a, b) => a.order - b.order));
}

function agreementOfCombinations(groups: readonly ResponseRecord[][]): OrderAgreement {
  const exact: number[] = [];
  const jaccard: number[] = [];
  for (const sorted of groups) {
    if (sorted.length < 2) continue;
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
