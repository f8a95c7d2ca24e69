import { join } from 'node:path';
import { UNLIMITED, type Domain, type WorkBudget } from '../kst';
import { csvMetaPath, csvMetaText } from '../records/csv-meta';
import { toCsv } from './csv';
import { contrastDifferences, contrasts, contrastsInDesign, type ContrastRow, type InferenceOptions } from './contrasts';
import { domainCondition, type DomainConditionRow } from './domain-condition';
import { orderAgreement, type OrderAgreement } from './order-agreement';
import type { ResponseRecord } from './responses';
import { scoreKstResponses, type ScoredRecord } from './score';
import { table1, type Table1Row } from './table1';
import { table3, type Table3Row } from './table3';
import { table4, type Table4Row } from './table4';

export { loadResponses, validateResponses, ResponseLineSchema } from './responses';
export type { ResponseLine, ResponseRecord } from './responses';
export { scoreKstResponses } from './score';
export { analysisProvenance } from './provenance';
export { modelComparison } from './model-comparison';
export { terminalSummary } from './terminal';
export type { TerminalSummary } from './terminal';
export type { ScoredRecord, ResponseScores } from './score';
export { table1, table3, table4, domainCondition, contrasts, contrastDifferences, contrastsInDesign, orderAgreement, toCsv };
export type { Table1Row, Table3Row, Table4Row, DomainConditionRow, ContrastRow, OrderAgreement, InferenceOptions };

export const DEFAULT_INFERENCE: InferenceOptions = { resamples: 10_000, flips: 100_000, seed: '20260908' };

export interface Analysis {
  table1: Table1Row[];
  table3: Table3Row[];
  table4: Table4Row[];
  domainCondition: DomainConditionRow[];
  contrasts: ContrastRow[];
  orderAgreement: OrderAgreement;
  counts: { responses: number; scored: number; valid: number; invalid: number; missing: number; simulated: number };
  inference: InferenceOptions;
}

/** Runs the whole analysis of the paper (Tables 1, 3, 4, the domain × condition grid, contrasts, order agreement). */
export function analyze(
  domains: readonly Domain[],
  records: readonly ResponseRecord[],
  inference: InferenceOptions = DEFAULT_INFERENCE,
  budget: WorkBudget = UNLIMITED,
): Analysis {
  const { scored, missing } = scoreKstResponses(records);
  return {
    table1: table1(domains, budget),
    table3: table3(scored),
    table4: table4(scored),
    domainCondition: domainCondition(scored),
    contrasts: contrasts(scored, inference),
    orderAgreement: orderAgreement(records),
    counts: {
      responses: records.length,
      scored: scored.length,
      valid: scored.filter((r: ScoredRecord) => r.status === 'valid').length,
      invalid: scored.filter((r: ScoredRecord) => r.status === 'invalid').length,
      missing: missing.length,
      simulated: records.filter((r) => r.simulated).length,
    },
    inference,
  };
}

/** The CSV files `kstbench analyze` writes, as {path, data} pairs under `outDir`. */
export function analysisFiles(result: Analysis, outDir: string, provenance: Record<string, unknown> = {}): Array<{ path: string; data: string }> {
  const file = (name: string, data: string) => ({ path: join(outDir, name), data });
  const simulated = result.counts.simulated > 0;
  // Each CSV with its sidecar <name>.csv.meta.json (lib/records/csv-meta.ts). Table 1 is computed from
  // the domain files alone, so it is never simulated; the others are made from the responses.
  const csv = <T extends object>(name: string, columns: ReadonlyArray<keyof T & string>, rows: readonly T[], fromResponses: boolean) => {
    const meta = { csv: name, simulated: fromResponses && simulated, title: null, columns: [...columns], rows: rows.length };
    return [file(name, toCsv(columns, rows)), file(csvMetaPath(name), csvMetaText(meta))];
  };
  return [
    ...csv('table1.csv', ['domain', 'components', 'states', 'terminal_states'], result.table1, false),
    ...csv('table3.csv', ['condition', 'n', 'exact', 'precision', 'recall', 'f1', 'jaccard'], result.table3, true),
    ...csv('table4.csv', ['model', 'condition', 'n', 'exact', 'rank'], result.table4, true),
    ...csv('domain_condition.csv', ['domain', 'condition', 'n', 'exact'], result.domainCondition, true),
    // `states`: how many states the contrast paired, so a state missing under one condition shows here.
    ...csv('contrasts.csv', ['contrast', 'metric', 'states', 'estimate', 'ci_low', 'ci_high', 'p', 'p_holm'], result.contrasts, true),
    ...csv('order_agreement.csv', ['pairs', 'exact_agreement', 'mean_jaccard'], [result.orderAgreement], true),
    file(
      'analysis.json',
      `${JSON.stringify(
        {
          counts: result.counts,
          simulated_input: result.counts.simulated > 0,
          inference: {
            ...result.inference,
            generator: 'seedrandom.alea',
            contrast_seeds: result.contrasts.map((c) => ({ contrast: c.contrast, metric: c.metric, seed: c.seed, states: c.states })),
          },
          ...provenance,
        },
        null,
        2,
      )}\n`,
    ),
  ];
}
export { orderAgreementBy } from './order-agreement';
export type { OrderAgreementRow } from './order-agreement';
export * from './graphs';
