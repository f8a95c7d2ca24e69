/**
 * The KST paper's rebuilt claims: for every ledger entry of data/published/kst-benchmark-2026.json with
 * a `rebuilt` counterpart, the value computed from the inputs by the lib function the entry names.
 * Claims are matched to their computation by id pattern (KST_REBUILDS); each group of inputs
 * (Table 3, Table 4, the contrasts, …) is computed once and only when a claim asks for it, so a
 * notebook cell can evaluate just its own claims cheaply.
 */
import { contrasts as computeContrasts, DEFAULT_INFERENCE, domainCondition, orderAgreement, scoreKstResponses, table1, table3, table4, type InferenceOptions, type ResponseRecord, type ScoredRecord } from '../analysis';
import * as breakdowns from '../analysis/breakdowns';
import type { Domain } from '../kst';
import type { PublishedKst } from '../records/published-kst';
import { paperRows } from '../report/mirrors';
import { terminalSummary } from '../analysis/terminal';
import { modelComparison } from '../analysis/model-comparison';
import { pairedDifferences, stateMeans } from '../stats';
import { mean } from '../stats/mean';
import { claimRowsFor, claimValuesFor, computedFromCheck, LazyResults, type ClaimRow, type Computed } from './ledger';
import { defaultReplicates } from './stored-replicates';
import type { ClaimReplicates } from '../records/claim-replicates';
import { CONDITIONS, type Condition } from '../conditions';
import { canonicalIdsInNoPrompt, fringeInNoPrompt, presentationsReused, type PromptRecordLike } from './prompts';

export interface KstClaimInputs {
  published: PublishedKst;
  /** The validated response records (extracted.jsonl); their `simulated` flags are the provenance. */
  records: readonly ResponseRecord[];
  /**
   * The final records (responses.jsonl): their status and invalid reason for the truncation claim, their
   * recorded prompts for the §4.2 claim that no prompt held the outer fringe (lib/claims/prompts.ts).
   */
  finalRecords?: ReadonlyArray<{ status: string; reason?: string | null } & PromptRecordLike>;
  domains: readonly Domain[];
  /** Bootstrap / sign-flip settings for the contrast claims (default: the paper's 10,000 / 100,000, seed 20260908). */
  inference?: InferenceOptions;
  /**
   * Replicate statistics of the simulator (lib/claims/replicates.ts). Default: the stored
   * data/replicates/kst.json (on collected records the interval is shown as a reference only);
   * `null` shows no interval.
   */
  replicates?: ClaimReplicates | null;
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? Number.NaN : 100 * x);
const slug = (name: string) => name.toLowerCase().replace(/ /g, '-').replace(/\./g, '');

/** Lazily computed groups of results shared by the claims. */
class KstResults extends LazyResults<KstClaimInputs> {
  get scored(): ScoredRecord[] {
    return this.once('scored', () => scoreKstResponses(this.inputs.records).scored);
  }
  get table3() {
    return this.once('t3', () => table3(this.scored));
  }
  get table4() {
    return this.once('t4', () => table4(this.scored));
  }
  get modelDomain() {
    return this.once('mdc', () => breakdowns.modelDomainCondition(this.scored));
  }
  get domainCondition() {
    return this.once('dc', () => new Map(domainCondition(this.scored).map((r) => [`${r.domain}|${r.condition}`, r.exact])));
  }
  get contrasts() {
    return this.once('contrasts', () => computeContrasts(this.scored, this.inputs.inference ?? DEFAULT_INFERENCE));
  }
  /** computed model → paper Table 4 row it is set beside. */
  get mirrors(): Record<string, string> {
    return this.once('mirrors', () => paperRows(new Set(this.inputs.records.map((r) => r.model)), this.inputs.published.table4.rows.map((r) => r.model)));
  }
  /** The computed model set beside a paper model, if any. */
  modelFor(paperModel: string): string | undefined {
    return Object.keys(this.mirrors).find((m) => this.mirrors[m] === paperModel);
  }
  /** Paper names of computed models, in the paper's Table 4 row order, joined " / ". */
  paperNames(models: readonly string[]): string {
    const order = this.inputs.published.table4.rows.map((r) => r.model);
    return models
      .map((m) => this.mirrors[m] ?? m)
      .sort((a, b) => (order.indexOf(a) === -1 ? 99 : order.indexOf(a)) - (order.indexOf(b) === -1 ? 99 : order.indexOf(b)))
      .join(' / ');
  }
  accuracy(domain: string, condition: Condition): number {
    return this.domainCondition.get(`${domain}|${condition}`) ?? Number.NaN;
  }
}

type Rebuild = (m: RegExpMatchArray, k: KstResults) => Computed;
const num = (value: number, detail?: string): Computed => (detail === undefined ? { value } : { value, detail });
const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);

/**
 * §4.5.2: the models perfect under P2 differ under P0. With fewer than two P2-perfect models, or a P0
 * value missing for one of them, the sentence cannot be decided on this input: unavailable.
 */
export function perfectInP2DifferInP0(rows: ReadonlyArray<{ model: string; condition: Condition; exact: number }>): Computed {
  const at = (m: string, c: Condition) => rows.find((r) => r.model === m && r.condition === c)?.exact;
  const missing = (['P0', 'P2'] as const).filter((c) => !rows.some((r) => r.condition === c));
  if (missing.length > 0) return { value: false, unavailable: `Table 4 has no ${missing.join(' or ')} rows` };
  const perfect = [...new Set(rows.map((r) => r.model))].filter((m) => at(m, 'P2') === 1);
  if (perfect.length < 2) return { value: false, unavailable: `${perfect.length === 0 ? 'no model' : `only ${perfect[0]}`} at 100 % in P2, so no two P2-perfect models to compare in P0` };
  const noP0 = perfect.filter((m) => !Number.isFinite(at(m, 'P0')));
  if (noP0.length > 0) return { value: false, unavailable: `no P0 exact share for the P2-perfect model${noP0.length > 1 ? 's' : ''} ${noP0.join(', ')}` };
  const p0 = perfect.map((m) => at(m, 'P0')!);
  return { value: new Set(p0).size > 1, detail: `P0 of the P2-perfect models: ${p0.map((x) => (100 * x).toFixed(0)).join(', ')}` };
}

/** §4.5.2: every model × condition × state combination of the records was answered under every presentation order (at least two). */
export function ordersInEveryCombination(records: ReadonlyArray<Pick<ResponseRecord, 'model' | 'condition' | 'domain' | 'stateKey' | 'order'>>): Computed {
  const orders = new Map<string, Set<number>>();
  for (const r of records) {
    const key = `${r.model}|${r.condition}|${r.domain}|${r.stateKey}`;
    orders.set(key, (orders.get(key) ?? new Set()).add(r.order));
  }
  const all = new Set(records.map((r) => r.order)).size;
  const short = [...orders.values()].filter((o) => o.size < all).length;
  return { value: all >= 2 && short === 0, detail: `${orders.size} model × condition × state combinations, ${short} without all ${all} orders` };
}

/** Claim id pattern → how its value is computed. Every rebuilt KST claim matches exactly one. */
export const KST_REBUILDS: ReadonlyArray<[RegExp, Rebuild]> = [
  [/^kst\.table1\.total\.(components|states|terminal_states)$/, (m, k) => num(table1(k.inputs.domains).reduce((s, r) => s + Number(r[m[1] as 'states']), 0))],
  [/^kst\.table1\.([a-z-]+)\.(components|states|terminal_states)$/, (m, k) => num(Number(table1(k.inputs.domains).find((r) => r.domain === m[1])?.[m[2] as 'states'] ?? Number.NaN))],
  [/^kst\.table1\.max-(components|states)$/, (m, k) => num(Math.max(...table1(k.inputs.domains).map((r) => Number(r[m[1] as 'states']))))],
  [/^kst\.collection\.calls$/, (_m, k) => num(k.inputs.records.length)],
  [/^kst\.design\.models$/, (_m, k) => num(new Set(k.inputs.records.map((r) => r.model)).size)],
  [/^kst\.design\.orders$/, (_m, k) => num(new Set(k.inputs.records.map((r) => r.order)).size)],
  [/^kst\.design\.calls-per-model$/, (_m, k) => {
    const perModel = new Map<string, number>();
    for (const r of k.inputs.records) perModel.set(r.model, (perModel.get(r.model) ?? 0) + 1);
    const ns = [...new Set(perModel.values())];
    return num(ns.length === 1 ? ns[0]! : Number.NaN, ns.length === 1 ? undefined : `calls per model ${ns.sort((a, b) => a - b).join(', ')}`);
  }],
  [/^kst\.design\.(bootstrap-resamples|sign-flips)$/, (m, k) => {
    const inference = k.inputs.inference ?? DEFAULT_INFERENCE;
    return num(m[1] === 'bootstrap-resamples' ? inference.resamples : inference.flips);
  }],
  [/^kst\.design\.(fringe-never-in-prompt|positions-only|orders-reused)$/, (m, k) => {
    if (k.inputs.finalRecords === undefined) throw new Error(`claim kst.design.${m[1]}: needs the final records (responses.jsonl) with their prompts`);
    const records = k.inputs.finalRecords;
    const check = m[1] === 'fringe-never-in-prompt' ? fringeInNoPrompt(records, k.inputs.domains) : m[1] === 'positions-only' ? canonicalIdsInNoPrompt(records, k.inputs.domains) : presentationsReused(records);
    return computedFromCheck(check);
  }],
  [/^kst\.collection\.valid$/, (_m, k) => num(k.inputs.records.filter((r) => r.status === 'valid').length)],
  [/^kst\.collection\.missing$/, (_m, k) => num(k.inputs.records.filter((r) => r.status === 'missing').length)],
  [/^kst\.collection\.truncated$/, (_m, k) => {
    if (k.inputs.finalRecords === undefined) throw new Error('claim kst.collection.truncated: needs the final records (responses.jsonl) with their invalid reasons');
    if (k.inputs.finalRecords.length === 0) return { value: Number.NaN, unavailable: 'no final records (responses.jsonl; an import has none), so no invalid reason to count' };
    return num(k.inputs.finalRecords.filter((r) => r.status === 'invalid' && r.reason === 'truncated').length);
  }],
  [/^kst\.overall\.(exact|precision|recall|f1|jaccard)$/, (m, k) => num(pct(breakdowns.overallMeans(k.scored)[m[1] as 'exact']))],
  [/^kst\.overall\.terminal-responses$/, (_m, k) => num(terminalSummary(k.scored).responses)],
  [/^kst\.overall\.terminal-correct$/, (_m, k) => num(terminalSummary(k.scored).correct)],
  [/^kst\.table3\.(P[0-3])\.n$/, (m, k) => num(k.table3.find((r) => r.condition === m[1])?.n ?? Number.NaN)],
  [/^kst\.(?:table3|figure1)\.(P[0-3])\.(exact|precision|recall|f1|jaccard)$/, (m, k) => num(pct(k.table3.find((r) => r.condition === m[1])?.[m[2] as 'exact']))],
  [/^kst\.contrasts\.P1-P0\.recall\.estimate$/, (_m, k) => {
    const means = (c: Condition) => stateMeans(k.scored.filter((r) => r.condition === c), { state: (r) => r.stateKey, value: (r) => r.scores.recall });
    const { differences } = pairedDifferences(means('P1'), means('P0'));
    return num(pct(mean(differences)), `${differences.length} states`);
  }],
  [/^kst\.contrasts\.(P[0-3]-P[0-3])\.(exact|f1)\.(estimate|ci-low|ci-high|p-holm)$/, (m, k) => {
    const row = k.contrasts.find((r) => r.contrast === m[1] && r.metric === m[2]);
    const field = { estimate: 'estimate', 'ci-low': 'ci_low', 'ci-high': 'ci_high', 'p-holm': 'p_holm' }[m[3]!] as 'estimate';
    const v = row?.[field] ?? null;
    return num(m[3] === 'p-holm' ? (v ?? Number.NaN) : pct(v));
  }],
  [/^kst\.contrasts\.(P[0-3]-P[0-3])\.exact\.ci-(includes|excludes)-zero$/, (m, k) => {
    const row = k.contrasts.find((r) => r.contrast === m[1] && r.metric === 'exact');
    const includes = row !== undefined && row.ci_low !== null && row.ci_high !== null && row.ci_low <= 0 && row.ci_high >= 0;
    return { value: row?.ci_low != null && (m[2] === 'includes' ? includes : !includes && row.ci_low > 0), detail: row?.ci_low == null ? 'no interval' : `[${pct(row.ci_low).toFixed(1)}, ${pct(row.ci_high).toFixed(1)}]` };
  }],
  [/^kst\.contrasts\.P3-P2\.exact\.p-above-05$/, (_m, k) => {
    const p = k.contrasts.find((r) => r.contrast === 'P3-P2' && r.metric === 'exact')?.p_holm ?? null;
    return { value: p !== null && p > 0.05, detail: p === null ? 'no p' : `Holm p ${p.toFixed(4)}` };
  }],
  [/^kst\.contrasts\.largest-gain$/, (_m, k) => {
    const exact = k.contrasts.filter((r) => r.metric === 'exact' && r.estimate !== null);
    const top = exact.reduce((a, b) => (b.estimate! > a.estimate! ? b : a), exact[0]!);
    return { value: top?.contrast === 'P2-P1', detail: top ? `largest: ${top.contrast} ${pct(top.estimate).toFixed(1)}` : 'no contrasts' };
  }],
  [/^kst\.domains\.range\.(P[23])\.(lowest|highest)$/, (m, k) => {
    const xs = k.inputs.published.table1.rows.map((r) => k.accuracy(r.domain, m[1] as Condition));
    return num(100 * (m[2] === 'lowest' ? Math.min(...xs) : Math.max(...xs)));
  }],
  [/^kst\.domains\.([a-z-]+)\.overall$/, (m, k) => num(pct(breakdowns.domainAccuracy(k.scored).find((r) => r.domain === m[1])?.exact))],
  [/^kst\.domains\.([a-z-]+)\.(P[0-3])$/, (m, k) => num(100 * k.accuracy(m[1]!, m[2] as Condition))],
  [/^kst\.domains\.gaps-ungrounded$/, (_m, k) => {
    const s = (c: Condition) => spread(k.inputs.published.table1.rows.map((r) => k.accuracy(r.domain, c)));
    const [p0, p1, p2, p3] = CONDITIONS.map(s) as [number, number, number, number];
    return { value: Math.min(p0, p1) > Math.max(p2, p3), detail: `domain spread P0 ${(100 * p0).toFixed(1)}, P1 ${(100 * p1).toFixed(1)}, P2 ${(100 * p2).toFixed(1)}, P3 ${(100 * p3).toFixed(1)} points` };
  }],
  [/^kst\.domains\.slope-hardest$/, (_m, k) => {
    const lowest = (c: Condition) => k.inputs.published.table1.rows.map((r) => r.domain).reduce((a, b) => (k.accuracy(b, c) < k.accuracy(a, c) ? b : a));
    return { value: lowest('P0') === 'slope' && lowest('P1') === 'slope', detail: `lowest in P0: ${lowest('P0')}, in P1: ${lowest('P1')}` };
  }],
  [/^kst\.domains\.conversion-easy$/, (_m, k) => {
    const ok = (['P0', 'P1'] as const).every((c) => Math.min(k.accuracy('graph-to-equation', c), k.accuracy('equation-to-graph', c)) > Math.max(k.accuracy('linear-modelling', c), k.accuracy('slope', c)));
    return { value: ok };
  }],
  [/^kst\.models\.average-(low|high)$/, (m, k) => {
    const avgs = breakdowns.modelAverages(k.table4).map((r) => r.average);
    return num(100 * (m[1] === 'low' ? Math.min(...avgs) : Math.max(...avgs)), `${avgs.length} models`);
  }],
  [/^kst\.models\.condition-spread$/, (_m, k) => num(100 * spread(k.table3.map((r) => r.exact)))],
  [/^kst\.models\.p2-above-p1$/, (_m, k) => {
    const models = [...new Set(k.table4.map((r) => r.model))];
    const at = (m: string, c: Condition) => k.table4.find((r) => r.model === m && r.condition === c)?.exact ?? Number.NaN;
    return { value: models.length > 0 && models.every((m) => at(m, 'P2') > at(m, 'P1')) };
  }],
  [/^kst\.models\.perfect-in-p2$/, (_m, k) => num(k.table4.filter((r) => r.condition === 'P2' && r.exact === 1).length)],
  [/^kst\.models\.perfect-p2-differ-in-p0$/, (_m, k) => perfectInP2DifferInP0(k.table4)],
  [/^kst\.models\.top-tie-p3$/, (_m, k) => num(k.table4.filter((r) => r.condition === 'P3' && r.rank === 1).length)],
  [/^kst\.models\.ties-increase$/, (_m, k) => {
    const tops = CONDITIONS.map((c) => k.table4.filter((r) => r.condition === c && r.rank === 1).length) as [number, number, number, number];
    return { value: Math.min(tops[2], tops[3]) > Math.max(tops[0], tops[1]), detail: `models at rank 1: ${tops.join(' / ')} (P0–P3)` };
  }],
  [/^kst\.models\.terra-p3-below-p2$/, (_m, k) => {
    const model = k.modelFor('GPT-5.6 Terra');
    const at = (c: Condition) => k.table4.find((r) => r.model === model && r.condition === c)?.exact ?? Number.NaN;
    return { value: at('P3') < at('P2'), detail: `P2 ${(100 * at('P2')).toFixed(0)}, P3 ${(100 * at('P3')).toFixed(0)}` };
  }],
  [/^kst\.models\.fable-first-p0-p1$/, (_m, k) => {
    const model = k.modelFor('Claude Fable 5');
    const rank = (c: Condition) => k.table4.find((r) => r.model === model && r.condition === c)?.rank;
    return { value: model !== undefined && rank('P0') === 1 && rank('P1') === 1, detail: `ranks ${rank('P0') ?? '–'}, ${rank('P1') ?? '–'}` };
  }],
  [/^kst\.models\.order-changes$/, (_m, k) => {
    const order = (c: Condition) => k.table4.filter((r) => r.condition === c).map((r) => `${r.model}:${r.rank}`).join(',');
    return { value: new Set(CONDITIONS.map(order)).size > 1 };
  }],
  [/^kst\.table4\.([a-z0-9.-]+)\.(P[0-3])\.(exact|rank)$/, (m, k) => {
    const paper = k.inputs.published.table4.rows.find((r) => slug(r.model) === m[1]);
    const model = paper && k.modelFor(paper.model);
    const row = k.table4.find((r) => r.model === model && r.condition === m[2]);
    return num(row === undefined ? Number.NaN : m[3] === 'exact' ? 100 * row.exact : row.rank, model);
  }],
  [/^kst\.table4\.cell-n$/, (_m, k) => {
    const ns = [...new Set(k.table4.map((r) => r.n))];
    return num(ns.length === 1 ? ns[0]! : Number.NaN, ns.length === 1 ? undefined : `cell sizes ${ns.join(', ')}`);
  }],
  [/^kst\.figure3\.spread$/, (_m, k) => {
    const f = k.inputs.published.figure3;
    const counts = modelComparison(k.scored, f.domain, f.condition).map((r) => r.correct);
    return num(spread(counts));
  }],
  [/^kst\.figure3\.n$/, (_m, k) => {
    const f = k.inputs.published.figure3;
    const ns = [...new Set(modelComparison(k.scored, f.domain, f.condition).map((r) => r.n))];
    return num(ns.length === 1 ? ns[0]! : Number.NaN, ns.length === 1 ? undefined : `per model: ${ns.join(', ')}`);
  }],
  [/^kst\.figure3\.(?!n$|spread$)([a-z0-9.-]+)$/, (m, k) => {
    const f = k.inputs.published.figure3;
    const paperModel = Object.keys(f.correct).find((p) => slug(p) === m[1]);
    const model = paperModel && k.modelFor(paperModel);
    const row = modelComparison(k.scored, f.domain, f.condition).find((r) => r.model === model);
    return num(row?.correct ?? Number.NaN, row ? `of ${row.n}` : undefined);
  }],
  [/^kst\.p1-leaders\.([a-z-]+)\.(model|exact)$/, (m, k) => {
    const cell = breakdowns.cellLeaders(k.modelDomain).find((c) => c.domain === m[1] && c.condition === 'P1');
    if (!cell) return { value: Number.NaN };
    return m[2] === 'model' ? { value: k.paperNames(cell.leaders) } : num(100 * cell.top);
  }],
  [/^kst\.p1-leaders\.equation-to-graph\.at-100$/, (_m, k) => num(k.modelDomain.filter((r) => r.domain === 'equation-to-graph' && r.condition === 'P1' && r.exact === 1).length)],
  [/^kst\.p1-leaders\.flash-last-pooled$/, (_m, k) => {
    const model = k.modelFor('Gemini 3.7 Flash');
    const p1 = k.table4.filter((r) => r.condition === 'P1');
    const last = p1.length > 0 && model !== undefined && p1.find((r) => r.model === model)!.exact === Math.min(...p1.map((r) => r.exact));
    const leadsSlope = breakdowns.cellLeaders(k.modelDomain).find((c) => c.domain === 'slope' && c.condition === 'P1')?.leaders.includes(model ?? '') ?? false;
    return { value: last && leadsSlope, detail: `last in P1: ${last ? 'yes' : 'no'}, leads Slope × P1: ${leadsSlope ? 'yes' : 'no'}` };
  }],
  [/^kst\.model-domain\.no-consistent-leader$/, (_m, k) => {
    const c = breakdowns.consistentLeaders(k.modelDomain);
    const best = Math.max(...Object.values(c.cellsLed));
    return { value: c.cells > 0 && c.everywhere.length === 0, detail: `most cells led by one model: ${best} of ${c.cells}` };
  }],
  [/^kst\.design\.orders-balanced$/, (_m, k) => ordersInEveryCombination(k.inputs.records)],
  [/^kst\.order\.pairs$/, (_m, k) => num(orderAgreement(k.inputs.records).pairs)],
  [/^kst\.order\.exact-agreement$/, (_m, k) => num(pct(orderAgreement(k.inputs.records).exact_agreement))],
  [/^kst\.order\.mean-jaccard$/, (_m, k) => num(pct(orderAgreement(k.inputs.records).mean_jaccard))],
  [/^kst\.order\.one-in$/, (_m, k) => {
    const a = orderAgreement(k.inputs.records).exact_agreement;
    return num(a === null || a === 1 ? Number.NaN : 1 / (1 - a), `${(100 * (1 - (a ?? 0))).toFixed(2)} % of pairs differ`);
  }],
];

/** The rebuild of a claim id: the first matching pattern, or undefined. */
export function kstRebuildFor(id: string): Rebuild | undefined {
  return KST_REBUILDS.find(([re]) => re.test(id))?.[1];
}

/** The computed values of the KST claims whose counterpart cell is one of `cells` (all when omitted). */
export function kstClaimValues(inputs: KstClaimInputs, cells?: readonly string[]) {
  return claimValuesFor(inputs.published, KST_REBUILDS, new KstResults(inputs), cells);
}

/**
 * Rows (printed, computed, simulation interval, status) for the KST claims whose counterpart cell is
 * one of `cells` (cell ids such as "claims-table3"; all claims when omitted). Only the inputs those
 * claims need are computed. Whether the input is simulated comes from the records' own flags.
 */
export function kstClaimRows(inputs: KstClaimInputs, options: { cells?: readonly string[] } = {}): ClaimRow[] {
  const simulated = inputs.records.some((r) => r.simulated);
  const replicates = inputs.replicates === null ? undefined : (inputs.replicates ?? defaultReplicates('kst'));
  return claimRowsFor(inputs.published, KST_REBUILDS, new KstResults(inputs), simulated, options.cells, replicates);
}
