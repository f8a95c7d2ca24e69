/**
 * Computed tables set beside the paper's published values (data/published/kst-benchmark-2026.json), in
 * percent with one decimal as the paper prints them. Pure functions: the notebooks render the rows.
 */
import type { ContrastRow, DomainConditionRow, OrderAgreement, Table3Row, Table4Row } from '../analysis';
import type { Condition } from '../conditions';
import type { PublishedKst } from '../records/published-kst';
import { percent } from '../stats/prints-as';

const pct2 = (x: number | null) => (x === null ? null : percent(x, 2));
const pct = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? null : percent(x));

/** The parts of the published-numbers file (the type its zod schema infers) that these tables read. */
export type PublishedKstTables = Pick<PublishedKst, 'table3' | 'table4' | 'domains' | 'contrasts' | 'order_agreement'>;

/** Table 3 rows: each measure computed (percent) beside the paper's. */
export function table3Comparison(rows: readonly Table3Row[], published: PublishedKstTables) {
  return rows.map((r) => {
    const p = published.table3.rows.find((x) => x.condition === r.condition);
    return {
      condition: r.condition,
      n: r.n,
      'n (paper)': p?.n ?? null,
      exact: pct(r.exact),
      'exact (paper)': p?.exact ?? null,
      precision: pct(r.precision),
      'precision (paper)': p?.precision ?? null,
      recall: pct(r.recall),
      'recall (paper)': p?.recall ?? null,
      f1: pct(r.f1),
      'f1 (paper)': p?.f1 ?? null,
      jaccard: pct(r.jaccard),
      'jaccard (paper)': p?.jaccard ?? null,
    };
  });
}

/**
 * Table 4 in the paper's wide layout: one row per model, "exact % (rank)" per condition, and the paper's
 * row for the model it mirrors (`mirrors` maps a model name to a paper model, e.g. for simulated profiles).
 */
export function table4Comparison(rows: readonly Table4Row[], published: PublishedKstTables, mirrors: Record<string, string> = {}) {
  const models = [...new Set(rows.map((r) => r.model))].sort();
  const conditions = [...new Set(rows.map((r) => r.condition))];
  return models.map((model) => {
    const out: Record<string, string | number | null> = { model, 'paper row': mirrors[model] ?? null };
    const paper = published.table4.rows.find((p) => p.model === mirrors[model]);
    for (const c of conditions) {
      const r = rows.find((x) => x.model === model && x.condition === c);
      out[c] = r ? `${pct(r.exact)!.toFixed(1)}% (${r.rank})` : null;
      out[`${c} (paper)`] = paper ? `${paper[c][0]}% (${paper[c][1]})` : null;
    }
    return out;
  });
}

/** Domain × condition exact accuracy, with the paper's value where the text prints one. */
export function domainConditionComparison(rows: readonly DomainConditionRow[], published: PublishedKstTables) {
  return rows.map((r) => ({
    domain: r.domain,
    condition: r.condition,
    n: r.n,
    exact: pct(r.exact),
    'exact (paper)': published.domains.domain_condition_exact[r.domain]?.[r.condition] ?? null,
  }));
}

/** Contrasts in percentage points beside the paper's estimates, intervals and Holm-adjusted p. */
export function contrastComparison(rows: readonly ContrastRow[], published: PublishedKstTables) {
  return rows.map((r) => {
    const p = published.contrasts.rows.find((x) => x.contrast === r.contrast && x.metric === r.metric);
    return {
      contrast: r.contrast,
      metric: r.metric,
      states: r.states,
      estimate: pct(r.estimate),
      'estimate (paper)': p?.estimate ?? null,
      '95% CI': r.ci_low === null ? null : `[${pct(r.ci_low)!.toFixed(1)}, ${pct(r.ci_high)!.toFixed(1)}]`,
      '95% CI (paper)': p?.ci_low === undefined ? null : `[${p.ci_low.toFixed(1)}, ${p.ci_high!.toFixed(1)}]`,
      p: r.p,
      p_holm: r.p_holm,
      'p_holm (paper)': p?.p_holm ?? (p?.p_holm_below !== undefined ? `< ${p.p_holm_below}` : null),
    };
  });
}

/** Presentation agreement beside the paper's 85.25 % / 92.5 % of 1,200 pairs. */
export function orderAgreementComparison(a: OrderAgreement, published: PublishedKstTables) {
  return [
    { measure: 'pairs', computed: a.pairs, paper: published.order_agreement.pairs },
    { measure: 'exact agreement (%)', computed: pct2(a.exact_agreement), paper: published.order_agreement.exact_agreement },
    { measure: 'mean pairwise Jaccard (%)', computed: pct2(a.mean_jaccard), paper: published.order_agreement.mean_jaccard },
  ];
}
