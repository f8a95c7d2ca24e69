import type { PublishedKst } from '../records/published-kst';
import { competitionRanks } from '../stats';
import { allowedCounts, differenceInterval, roundsTo } from './counts';

/** One consistency check of the published numbers against each other. */
export interface AuditCheck {
  id: string;
  where: string;
  claim: string;
  computed: string;
  ok: boolean;
}

/** The parsed data/published/kst-benchmark-2026.json (lib/records/published-kst.ts). */
type Published = PublishedKst;

const CONDITIONS = ['P0', 'P1', 'P2', 'P3'] as const;
const pct = (k: number, n: number) => `${k}/${n} = ${((100 * k) / n).toFixed(2)} %`;

type Add = (id: string, where: string, claim: string, computed: string, ok: boolean) => void;
type Table1Row = { domain: string; components: number; states: number; terminal_states: number };
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Table 1 totals, the design's call count, Table 3's n per condition. */
function designChecks(p: Published, add: Add): void {
  const t1 = p.table1.rows as Table1Row[];
  add('table1-totals', 'Table 1', `totals ${p.table1.total.components} components, ${p.table1.total.states} states, ${p.table1.total.terminal_states} terminal`,
    `${sum(t1.map((r) => r.components))}, ${sum(t1.map((r) => r.states))}, ${sum(t1.map((r) => r.terminal_states))}`,
    sum(t1.map((r) => r.components)) === p.table1.total.components && sum(t1.map((r) => r.states)) === p.table1.total.states && sum(t1.map((r) => r.terminal_states)) === p.table1.total.terminal_states);
  const d = p.design;
  const calls = d.states * d.conditions * d.models * d.orders;
  add('design-calls', d.where, `${d.states} × ${d.conditions} × ${d.models} × ${d.orders} = ${d.calls}`, String(calls), calls === d.calls);
  const perCondition = d.states * d.models * d.orders;
  const t3 = p.table3.rows;
  add('table3-n', 'Table 3', `n = ${perCondition} per condition, ${d.calls} in all`, t3.map((r) => r.n).join(' + ') + ` = ${sum(t3.map((r) => r.n))}`,
    t3.every((r) => r.n === perCondition) && sum(t3.map((r) => r.n)) === d.calls);
}

/** Table 4 against Table 3 and its own ranks; returns the correct responses per condition (Table 4 column sums). */
function table4Checks(p: Published, add: Add): Record<string, number> {
  // Table 4 cells are k/100; their mean over the six models is the condition's k/600.
  const t4 = p.table4.rows;
  const correct: Record<string, number> = {};
  for (const c of CONDITIONS) {
    const k = sum(t4.map((r) => r[c][0]));
    correct[c] = k;
    const row = p.table3.rows.find((r) => r.condition === c)!;
    add(`table4-mean-${c}`, 'Table 4 vs Table 3', `Table 3 exact ${c} = ${row.exact} %`, `Table 4 column mean ${pct(k, 600)}`,
      roundsTo((100 * k) / 600, row.exact) && allowedCounts(row.exact, row.n).includes(k));
    const ranks = competitionRanks(t4.map((r) => r[c][0]));
    const printed = t4.map((r) => r[c][1]);
    add(`table4-ranks-${c}`, 'Table 4', `ranks ${printed.join(', ')}`, `competition ranks ${ranks.join(', ')}`, ranks.every((x, i) => x === printed[i]));
  }
  return correct;
}

/** The overall figures against the per-condition ones, terminal responses, model averages, the condition spread. */
function overallChecks(p: Published, add: Add, correct: Record<string, number>, total: number): void {
  const d = p.design;
  const t3 = p.table3.rows;
  add('overall-exact', p.overall.where, `overall exact ${p.overall.exact} %`, pct(total, d.calls), roundsTo((100 * total) / d.calls, p.overall.exact));
  for (const m of ['precision', 'recall', 'f1', 'jaccard'] as const) {
    const mean = sum(t3.map((r) => r[m])) / t3.length;
    // The four condition values are themselves rounded: the true mean lies within ±0.05 of their mean.
    const ok = Math.abs(mean - p.overall[m]) <= 0.05 + 0.05 + 1e-9;
    add(`overall-${m}`, p.overall.where, `overall ${m} ${p.overall[m]} %`, `mean of Table 3 column ${mean.toFixed(3)} %`, ok);
  }
  const terminal = p.table1.total.terminal_states * d.conditions * d.models * d.orders;
  add('terminal-responses', p.overall.where, `${p.overall.terminal_responses} terminal-state responses`, `${p.table1.total.terminal_states} × ${d.conditions} × ${d.models} × ${d.orders} = ${terminal}`, terminal === p.overall.terminal_responses);

  const averages = p.table4.rows.map((r) => sum(CONDITIONS.map((c) => r[c][0])) / 4);
  const range = p.table4.model_average_range;
  add('model-average-range', range.where, `model averages ${range.low}–${range.high} %`, `Table 4 row means ${averages.map((a) => a.toFixed(2)).join(', ')}`,
    roundsTo(Math.min(...averages), range.low) && roundsTo(Math.max(...averages), range.high));
  const spread = (100 * (correct.P3! - correct.P0!)) / 600;
  const roundedSpread = t3.find((r) => r.condition === 'P3')!.exact - t3.find((r) => r.condition === 'P0')!.exact;
  add('condition-spread', '§4.5.2', `${p.table4.condition_spread}-point range across conditions`, `(${correct.P3} − ${correct.P0})/600 = ${spread.toFixed(2)} points (from the rounded Table 3 values: ${roundedSpread.toFixed(1)})`, roundsTo(spread, p.table4.condition_spread));
}

/** Every printed contrast against the Table 3 values (exact: from the counts; other metrics: the rounding interval). */
function contrastChecks(p: Published, add: Add, correct: Record<string, number>): void {
  const t3 = p.table3.rows;
  for (const row of p.contrasts.rows) {
    const [later, earlier] = row.contrast.split('-') as [string, string];
    const a = t3.find((r) => r.condition === later)!;
    const b = t3.find((r) => r.condition === earlier)!;
    if (row.metric === 'exact') {
      const diff = (100 * (correct[later]! - correct[earlier]!)) / 600;
      add(`contrast-${row.contrast}-exact`, p.contrasts.where, `${row.contrast} exact ${row.estimate} points`, `(${correct[later]} − ${correct[earlier]})/600 = ${diff.toFixed(3)}`, roundsTo(diff, row.estimate));
    } else {
      const [lo, hi] = differenceInterval(a[row.metric], b[row.metric]);
      add(`contrast-${row.contrast}-${row.metric}`, p.contrasts.where, `${row.contrast} ${row.metric} ${row.estimate} points`, `Table 3 difference in [${lo.toFixed(2)}, ${hi.toFixed(2)}]`, row.estimate >= lo - 0.05 && row.estimate <= hi + 0.05);
    }
  }
  const [rlo, rhi] = differenceInterval(t3[1]!.recall, t3[0]!.recall);
  add('recall-P1-P0', '§4.5.1', `recall fell by ${-p.contrasts.recall_p1_minus_p0} points`, `Table 3 difference in [${rlo.toFixed(2)}, ${rhi.toFixed(2)}]`, p.contrasts.recall_p1_minus_p0 >= rlo - 0.05 && p.contrasts.recall_p1_minus_p0 <= rhi + 0.05);
}

/** Domains: each domain-level percentage must be k/n for its n = states × 6 models × 2 orders (× 4 conditions overall), and the counts add up. */
function domainChecks(p: Published, add: Add, total: number): void {
  const d = p.design;
  const statesOf = Object.fromEntries((p.table1.rows as Table1Row[]).map((r) => [r.domain, r.states]));
  let domainTotal = 0;
  let unique = true;
  for (const [domain, percent] of Object.entries(p.domains.overall_exact)) {
    const n = statesOf[domain]! * d.models * d.orders * d.conditions;
    const ks = allowedCounts(percent, n);
    add(`domain-overall-${domain}`, p.domains.where, `${domain} ${percent} % of ${n}`, ks.length ? ks.map((k) => pct(k, n)).join(' or ') : 'no integer count', ks.length > 0);
    if (ks.length !== 1) unique = false;
    domainTotal += ks[0] ?? NaN;
  }
  add('domain-total', p.domains.where, `domain counts add up to the ${total} correct responses`, unique ? `sum of domain counts = ${domainTotal}` : 'domain counts not unique', unique && domainTotal === total);
  for (const [domain, byCondition] of Object.entries(p.domains.domain_condition_exact)) {
    const n = statesOf[domain]! * d.models * d.orders;
    const ks = CONDITIONS.map((c) => allowedCounts(byCondition[c], n));
    const overall = allowedCounts(p.domains.overall_exact[domain]!, n * 4);
    const ok = ks.every((k) => k.length > 0) && ks.every((k) => k.length === 1) && overall.includes(sum(ks.map((k) => k[0]!)));
    add(`domain-conditions-${domain}`, p.domains.where, `${domain}: ${CONDITIONS.map((c) => `${c} ${byCondition[c]} %`).join(', ')} of ${n} each, overall ${p.domains.overall_exact[domain]} %`,
      `${ks.map((k) => k.join('|')).join(' + ')} = ${sum(ks.map((k) => k[0] ?? NaN))} of ${n * 4}`, ok);
  }
}

/** Figure 3's counts within their n; the order-agreement percentage a whole number of pairs of the design. */
function figureAndAgreementChecks(p: Published, add: Add): void {
  const d = p.design;
  const f3 = p.figure3;
  for (const [model, k] of Object.entries(f3.correct as Record<string, number>)) {
    const label = (100 * k) / f3.n;
    add(`figure3-${model}`, f3.where, `${model}: ${k}/${f3.n}`, `${label.toFixed(1)} %`, k >= 0 && k <= f3.n);
  }
  const oa = p.order_agreement;
  const agreeing = (oa.exact_agreement * oa.pairs) / 100;
  add('order-agreement', oa.where, `${oa.exact_agreement} % of ${oa.pairs} pairs`, `${agreeing} pairs; pairs = ${d.models} × ${d.conditions} × ${d.states} = ${d.models * d.conditions * d.states}`,
    Number.isInteger(Math.round(agreeing * 1e9) / 1e9) && oa.pairs === d.models * d.conditions * d.states);
}

/**
 * Checks the KST paper's printed numbers against each other: design totals, Table 4 against Table 3,
 * overall figures against the per-condition ones, Table 4 ranks, contrasts, domain totals against the
 * grand total, and every exact-accuracy percentage against the integers its n allows. Uses only the
 * published file; nothing here is estimated from data.
 */
export function auditKstPaper(p: Published): AuditCheck[] {
  const checks: AuditCheck[] = [];
  const add: Add = (id, where, claim, computed, ok) => checks.push({ id, where, claim, computed, ok });
  designChecks(p, add);
  const correct = table4Checks(p, add);
  const total = sum(CONDITIONS.map((c) => correct[c]!));
  overallChecks(p, add, correct, total);
  contrastChecks(p, add, correct);
  domainChecks(p, add, total);
  figureAndAgreementChecks(p, add);
  return checks;
}

/**
 * The audit in words, as notebook 00 prints it: the count line, then one `INCONSISTENT` line per check
 * that fails (none when every printed number agrees).
 * @example
 * auditSummary([{ id: 'a', where: 'T1', claim: '2', computed: '3', ok: false }, { id: 'b', where: 'T2', claim: '1', computed: '1', ok: true }]); // => "2 checks, 1 consistent, 1 inconsistent\nINCONSISTENT a (T1): 2 vs 3"
 */
export function auditSummary(checks: readonly AuditCheck[]): string {
  const failing = checks.filter((c) => !c.ok);
  const counts = `${checks.length} checks, ${checks.length - failing.length} consistent, ${failing.length} inconsistent`;
  return [counts, ...failing.map((c) => `INCONSISTENT ${c.id} (${c.where}): ${c.claim} vs ${c.computed}`)].join('\n');
}
