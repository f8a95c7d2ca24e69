import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { analysisFiles, analysisProvenance, analyze, contrastsInDesign, loadResponses, validateResponses, type ResponseRecord, type ScoredRecord } from '../analysis';
import { graphSummaryBy, p1GraphRecords } from '../analysis/graphs';
import { orderAgreement, orderAgreementBy } from '../analysis/order-agreement';
import { scoreKstResponses } from '../analysis/score';
import { CONDITIONS, type Condition } from '../conditions';
import { InputError } from '../errors';
import { writeFilesAtomic } from '../io/atomic';
import { readJsonl } from '../io/jsonl';
import type { Domain } from '../kst';
import { readRunJson } from '../collect/lifecycle';
import type { RunFile } from '../records/run-file';
import { modelComparison } from '../analysis/model-comparison';
import { sampledStates, statesPerDomain } from './design';
import { loadStudyDomains, type Study } from './manifest';
import { paperParts } from './paper';
import { readStudyRepeats, repeatDir, type Repeat } from './repeats';
import { resultsPath, StudyResultsSchema, type StudyResults } from './results';

/**
 * `kstbench study analyze`: scores the study's responses (`<collection>/extracted.jsonl`, from the
 * collector or an import) and writes the tables of `kstbench analyze` plus `study-results.json` (Table 1,
 * 3, 4, the domain × condition grid, contrasts with bootstrap / sign-flip / Holm, order agreement, P1
 * graph verdicts and Figure 3's cell) under `<output>/analysis/`. Nothing is compared with a paper here.
 */

export const FIGURE3_RULE =
  'the domain × condition cell whose models differ most in exact-set accuracy (largest max − min), ties to the first domain id and the earlier condition; with one model, the cell with the most responses';

/** Figure 3's cell by FIGURE3_RULE; null only when nothing was scored. Never a cell without data. */
export function figure3Cell(scored: readonly ScoredRecord[]): { domain: string; condition: Condition } | null {
  const cells = new Map<string, { domain: string; condition: Condition; byModel: Map<string, { c: number; n: number }>; n: number }>();
  for (const r of scored) {
    const key = `${r.domain}|${r.condition}`;
    let cell = cells.get(key);
    if (!cell) cells.set(key, (cell = { domain: r.domain, condition: r.condition, byModel: new Map(), n: 0 }));
    const m = cell.byModel.get(r.model) ?? { c: 0, n: 0 };
    m.c += r.scores.exact;
    m.n += 1;
    cell.byModel.set(r.model, m);
    cell.n += 1;
  }
  const ordered = [...cells.values()].sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : CONDITIONS.indexOf(a.condition) - CONDITIONS.indexOf(b.condition)));
  let best: (typeof ordered)[number] | null = null;
  let bestScore = -1;
  for (const cell of ordered) {
    const rates = [...cell.byModel.values()].map((m) => m.c / m.n);
    const score = rates.length > 1 ? Math.max(...rates) - Math.min(...rates) : cell.n;
    if (score > bestScore + 1e-12) (best = cell), (bestScore = score);
  }
  return best ? { domain: best.domain, condition: best.condition } : null;
}

/** The P1 graph rows of one collection directory, from the collector's responses.jsonl (or the import's extracted lines). */
function graphRows(dir: string, domains: readonly Domain[], extractedFile: string) {
  const full = join(dir, 'responses.jsonl');
  const file = existsSync(full) ? full : extractedFile;
  const { lines } = readJsonl(file);
  const withGraph = lines.filter((l) => {
    const v = l.value as { condition?: unknown; status?: unknown; prerequisites?: unknown };
    return v.condition === 'P1' && v.status === 'valid' && Array.isArray(v.prerequisites);
  });
  if (withGraph.length === 0) return null;
  const records: ResponseRecord[] = validateResponses(lines, domains, file);
  return p1GraphRecords(records, lines, domains, file);
}

/** The P1 graph verdicts over every repeat's responses; null when no valid P1 response carries its graph. */
function graphVerdicts(sources: readonly RepeatSource[], domains: readonly Domain[]): StudyResults['graphs'] {
  const parts = sources.map((s) => graphRows(s.dir, domains, s.extracted)).filter((x): x is NonNullable<typeof x> => x !== null);
  if (parts.length === 0) return null;
  const rows = parts.flatMap((x) => x.rows);
  const invalid = parts.reduce((a, x) => a + x.invalid, 0);
  const missing = parts.reduce((a, x) => a + x.missing, 0);
  return { overall: graphSummaryBy(rows, null), by_model: graphSummaryBy(rows, 'model'), by_domain: graphSummaryBy(rows, 'domain'), invalid, missing };
}

/** One repeat's collection: its plan, directory, extracted.jsonl and validated records. */
interface RepeatSource {
  repeat: Repeat;
  dir: string;
  extracted: string;
  records: ResponseRecord[];
}

/** Every repeat's validated responses (each file checked on its own: one record per cell within a repeat). */
function repeatSources(study: Study, domains: readonly Domain[]): RepeatSource[] {
  return readStudyRepeats(study).map((repeat) => {
    const dir = repeatDir(study, repeat);
    const extracted = join(dir, 'extracted.jsonl');
    if (!existsSync(extracted)) throw new InputError(`${extracted}: no responses yet; run: kstbench study collect ${study.dir}`, { file: extracted });
    return { repeat, dir, extracted, records: loadResponses(extracted, domains) };
  });
}

/**
 * The first collection whose run.json says it did not complete, or undefined (every run complete, or
 * an import, which has no run.json). Analysing a partial collection is allowed, but never silently.
 */
export function unfinishedCollection(sources: ReadonlyArray<Pick<RepeatSource, 'dir'>>): StudyResults['collection'] {
  for (const s of sources) {
    const run = readRunJson(join(s.dir, 'run.json')) as RunFile | null;
    if (run === null || run.status === 'complete') continue;
    const design = run['design'] as { size?: unknown } | undefined;
    const cells = run.result?.total ?? (typeof design?.size === 'number' ? design.size : null);
    const reason = run.status === 'running' ? 'the collecting process ended without a status (killed or crashed)' : (run.result?.reason ?? null);
    return { dir: s.dir, status: run.status, reason, cells };
  }
  return undefined;
}

/**
 * Order agreement compares the orders of one cell within one repeat: with repeats, each record's state
 * key is tagged with its repeat so that pairs never mix repeats (the pairs of all repeats are pooled).
 */
function agreementRecords(sources: readonly RepeatSource[]): ResponseRecord[] {
  if (sources.length === 1) return sources[0]!.records;
  return sources.flatMap((s) => s.records.map((r) => ({ ...r, stateKey: `${r.stateKey}#repeat-${s.repeat.repeat}` })));
}

/**
 * Runs the analysis of a study and writes it; returns the results. With repeats (lib/study/repeats.ts)
 * the responses of every repeat are pooled: each state's score in a condition is the mean over its
 * models, orders and repeats, and the bootstrap and sign-flip resample states, as with one repeat.
 */
export function analyzeStudy(study: Study): StudyResults {
  const domains = loadStudyDomains(study);
  const sources = repeatSources(study, domains);
  const records = sources.flatMap((s) => s.records);
  const extracted = sources[0]!.extracted;
  const inference = study.manifest.analysis;
  const result = analyze(domains, records, inference);
  result.contrasts = contrastsInDesign(result.contrasts, study.manifest.design.conditions);
  const forAgreement = agreementRecords(sources);
  if (sources.length > 1) result.orderAgreement = orderAgreement(forAgreement);
  const { scored } = scoreKstResponses(records);
  const cell = figure3Cell(scored);
  const provenance = analysisProvenance(extracted, domains) as { inputs: StudyResults['inputs'] };
  const unfinished = unfinishedCollection(sources);
  const results: StudyResults = StudyResultsSchema.parse({
    results_version: 1,
    title: study.manifest.title,
    simulated: result.counts.simulated > 0,
    replicates: study.manifest.replicates,
    counts: result.counts,
    models: [...new Set(records.map((r) => r.model))].sort(),
    table1: result.table1,
    design_states: Object.fromEntries(statesPerDomain(domains, sampledStates(study, domains))),
    table3: result.table3,
    table4: result.table4,
    domain_condition: result.domainCondition,
    contrasts: result.contrasts,
    inference,
    order_agreement: result.orderAgreement,
    order_agreement_by_model: orderAgreementBy(forAgreement, 'model'),
    graphs: graphVerdicts(sources, domains),
    figure3: cell ? { ...cell, rule: FIGURE3_RULE, models: modelComparison(scored, cell.domain, cell.condition) } : null,
    inputs: provenance.inputs,
    ...(unfinished ? { collection: unfinished } : {}),
    ...(sources.length > 1 ? { repeats: sources.map((s) => ({ ...s.repeat, responses: (analysisProvenance(s.extracted, []) as { inputs: StudyResults['inputs'] }).inputs.responses })) } : {}),
    ...paperParts(study, records, sources, domains),
  });
  const dir = join(study.paths.output, 'analysis');
  writeFilesAtomic([...analysisFiles(result, dir, provenance), { path: resultsPath(study), data: `${JSON.stringify(results, null, 2)}\n` }]);
  return results;
}
