import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, loadResponses } from '../analysis';
import { collectKst, dryRunJobs, resolveTargets } from '../collect/collect';
import { kstJobs } from '../collect/kst-study';
import { loadPriceTable, roundUsd } from '../collect/prices';
import type { Condition } from '../conditions';
import { InputError } from '../errors';
import { closeFigureBrowser } from '../figures/browser';
import { renderFigure } from '../figures/save';
import { figureHtml, figureSize, finalSpec } from '../figures/spec';
import { writeFilesAtomic } from '../io/atomic';
import { percent } from '../stats/prints-as';
import { toCsv } from '../analysis/csv';
import { sampledStates, statesPerDomain } from './design';
import { checkStudyDesignSize } from './check';
import { loadStudyDomainSources, type Study } from './manifest';
import { designContrasts, planPower, powerCurveSpec, statesNeeded, type PlanInput, type PlanRow } from './plan';

/**
 * `kstbench study plan`: the planner on a study's own design — its conditions, models and orders; the
 * baseline accuracy per condition from the simulated respondent run on the study's own domains and
 * states (a pilot in a temporary folder, removed afterwards) or from rates the user gives; the cost of
 * each candidate design from the catalogue (the collector's dry run of the study's cells, scaled).
 * Writes `<output>/plan/plan.json` (inputs, seeds, rows), `plan.csv` and the power curve.
 */

export interface PlanOptions {
  contrast?: string;
  effect: number;
  /** User-given baseline rates; otherwise the simulated respondent's. */
  rates?: Partial<Record<Condition, number>>;
  /** Simulated profiles of the pilot (default: the study's simulated models, else sim-a … sim-f). */
  profiles?: string[];
  stateCounts?: number[];
  repeats: number[];
  studies: number;
  flips: number;
  alpha: number;
  stateSd: number;
  seed: string;
  target: number;
  figure: boolean;
}

export const DEFAULT_STATE_COUNTS = [10, 20, 30, 50, 75, 100, 150, 200, 300];
export const DEFAULT_PILOT_PROFILES = ['sim-a', 'sim-b', 'sim-c', 'sim-d', 'sim-e', 'sim-f'].map((p) => `simulated:${p}`);

/** Exact-set accuracy per condition of the simulated respondent on the study's own design. */
export async function pilotRates(study: Study, profiles: readonly string[]): Promise<Partial<Record<Condition, number>>> {
  const sources = loadStudyDomainSources(study);
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-plan-pilot-'));
  try {
    const samples = sampledStates(study, sources.map((s) => s.domain));
    const files = sources.map((s) => ({ path: join(dir, 'domains', `${s.domain.id}.json`), data: s.text }));
    if (samples) files.push({ path: join(dir, 'states.json'), data: JSON.stringify(samples) });
    writeFilesAtomic(files);
    const d = study.manifest.design;
    const params = {
      domainsDir: join(dir, 'domains'),
      models: [...profiles],
      outDir: join(dir, 'collection'),
      conditions: [...d.conditions],
      orders: d.orders,
      concurrency: 4,
      maxOutputTokens: d.max_output_tokens,
      timeoutMs: d.timeout_s * 1000,
      maxRetries: 0,
      seed: d.seed,
      noPreflight: true,
      ...(samples ? { statesFile: join(dir, 'states.json') } : {}),
    };
    await collectKst(params, {});
    const domains = sources.map((s) => s.domain);
    const result = analyze(domains, loadResponses(join(dir, 'collection', 'extracted.jsonl'), domains), { resamples: 1, flips: 1, seed: '0' });
    return Object.fromEntries(result.table3.map((r) => [r.condition, r.exact]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Cost per cell of each model, from the dry run of the study's design (null: some price unknown). */
export function costPerCell(study: Study, samplesStates: Map<string, string[][]> | null): { perCell: number | null; models: number } {
  const { params } = resolveTargets({ models: study.manifest.models, ...(study.manifest.models_file ? { modelsFile: study.resolve(study.manifest.models_file) } : {}) });
  const domains = loadStudyDomainSources(study).map((s) => s.domain);
  const d = study.manifest.design;
  const jobs = kstJobs(domains, { models: params.models, conditions: d.conditions, orders: d.orders, seed: d.seed, ...(samplesStates ? { states: samplesStates } : {}) });
  const dry = dryRunJobs(jobs, new Map(), params.models, loadPriceTable(), d.max_output_tokens, false);
  const perModel = params.models.length === 0 ? 0 : dry.total / params.models.length;
  return { perCell: dry.costUsd === null || perModel === 0 ? null : dry.costUsd / perModel, models: params.models.length };
}

export interface StudyPlan {
  input: Omit<PlanInput, 'rates'> & { rates: Record<string, number>; ratesSource: string };
  designStates: number;
  rows: Array<PlanRow & { cells: number; costUsd: number | null }>;
  needed: Array<{ repeats: number; states: number | null }>;
}

/** Runs the planner on a study and writes its outputs. */
export async function planStudy(study: Study, o: PlanOptions, onProgress: (line: string) => void = () => {}): Promise<StudyPlan> {
  const d = study.manifest.design;
  const contrasts = designContrasts(d.conditions);
  const contrast = o.contrast ?? contrasts[0]?.name;
  if (contrast === undefined) throw new InputError(`${study.file}: design.conditions: ${d.conditions.join(', ')} contain no adjacent contrast (P1-P0, P2-P1, P3-P2) to plan for`, { file: study.file });
  const domains = loadStudyDomainSources(study).map((s) => s.domain);
  const samples = sampledStates(study, domains);
  // The check's size limits first, in the study's words (the pilot and the cost would hit them in the collector's).
  checkStudyDesignSize(study, domains, samples);
  const designStates = [...statesPerDomain(domains, samples).values()].reduce((a, b) => a + b, 0);
  const simulatedModels = study.manifest.models.filter((m) => m.startsWith('simulated:'));
  const profiles = o.profiles ?? (simulatedModels.length > 0 ? simulatedModels : DEFAULT_PILOT_PROFILES);
  let rates = o.rates;
  let ratesSource = 'given by --rates';
  if (!rates) {
    onProgress(`baseline: simulated respondent (${profiles.join(', ')}) on the study's ${designStates} states …`);
    rates = await pilotRates(study, profiles);
    ratesSource = `simulated respondent ${profiles.join(', ')} on the study's design`;
  }
  const models = Math.max(1, study.manifest.models.length);
  const stateCounts = [...new Set([...(o.stateCounts ?? DEFAULT_STATE_COUNTS), designStates])].sort((a, b) => a - b);
  // The study's own repeats are always a candidate, so its row has the cells `study check` counts.
  const repeats = [...new Set([...o.repeats, d.repeats])].sort((a, b) => a - b);
  const input: PlanInput = { conditions: d.conditions, rates, contrast, effect: o.effect, responsesPerRepeat: models * d.orders, stateCounts, repeats, studies: o.studies, flips: o.flips, alpha: o.alpha, stateSd: o.stateSd, seed: o.seed, target: o.target };
  const started = Date.now();
  const { rates: used, rows } = planPower(input, (done, total) => onProgress(`designs ${done}/${total} (${((Date.now() - started) / 1000).toFixed(1)} s)`));
  const { perCell } = costPerCell(study, samples ? new Map(samples.map((s) => [s.domain, s.states])) : null);
  const withCost = rows.map((r) => {
    const cells = r.states * d.conditions.length * d.orders * r.repeats * models;
    return { ...r, cells, costUsd: perCell === null ? null : roundUsd((perCell * cells) / models) };
  });
  const plan: StudyPlan = { input: { ...input, rates: used, ratesSource }, designStates, rows: withCost, needed: statesNeeded(rows, o.target) };
  await writePlan(study, plan, o);
  return plan;
}

async function writePlan(study: Study, plan: StudyPlan, o: PlanOptions): Promise<void> {
  const dir = join(study.paths.output, 'plan');
  const files: Array<{ path: string; data: string | Uint8Array }> = [
    { path: join(dir, 'plan.json'), data: `${JSON.stringify(plan, null, 2)}\n` },
    { path: join(dir, 'plan.csv'), data: toCsv(['states', 'repeats', 'responses', 'cells', 'power', 'se', 'normal', 'costUsd'], plan.rows) },
  ];
  if (o.figure) {
    const spec = powerCurveSpec(plan.rows, { contrast: plan.input.contrast, effect: plan.input.effect, target: o.target });
    const options = { title: 'Power curve', simulated: true };
    try {
      const { svg, png } = await renderFigure(figureHtml('power-curve', spec, options), figureSize(finalSpec(spec, options), {}));
      files.push({ path: join(dir, 'power-curve.svg'), data: svg }, { path: join(dir, 'power-curve.png'), data: png });
    } finally {
      await closeFigureBrowser();
    }
  }
  writeFilesAtomic(files);
}

/** The plan as the table `study plan` prints. */
export function formatPlan(study: Study, plan: StudyPlan, figure = true): string {
  const i = plan.input;
  const usd = (x: number | null) => (x === null ? 'unknown' : `$${x.toFixed(2)}`);
  const lines = [
    `Plan for ${study.dir}: detect ${i.contrast} = ${i.effect >= 0 ? '+' : ''}${percent(i.effect).toFixed(1)} points (α = ${i.alpha}, Holm over ${designContrasts(i.conditions).map((c) => c.name).join(', ')})`,
    `Baseline exact-set accuracy (${i.ratesSource}): ${Object.entries(i.rates).map(([c, r]) => `${c} ${percent(r).toFixed(1)} %`).join(', ')}`,
    `${i.studies} simulated studies per design, ${i.flips} sign flips per test, state sd (logit) ${i.stateSd}, seed ${i.seed}:<states>:<repeats>:<study>`,
    `The study's own design has ${plan.designStates} states, ${i.responsesPerRepeat} responses per state and condition per repeat.`,
    '',
    `  states  repeats  responses   power  (± se)  normal approx.   cells      cost`,
  ];
  for (const r of plan.rows) {
    lines.push(`  ${String(r.states).padStart(6)}  ${String(r.repeats).padStart(7)}  ${String(r.responses).padStart(9)}  ${percent(r.power).toFixed(1).padStart(5)} %  ±${percent(r.se).toFixed(1).padStart(4)}  ${percent(r.normal).toFixed(1).padStart(11)} %  ${String(r.cells).padStart(7)}  ${usd(r.costUsd).padStart(9)}`);
  }
  lines.push('');
  for (const n of plan.needed) lines.push(`  ${percent(i.target ?? 0.8, 0)} % power with ${n.repeats} repeat(s): ${n.states === null ? `not reached up to ${Math.max(...plan.rows.map((r) => r.states))} states` : `${n.states} states`}`);
  lines.push(`Written: ${join(study.paths.output, 'plan')}/plan.json, plan.csv${figure ? ', power-curve.svg, power-curve.png' : ''} (power estimated from SIMULATED studies)`);
  return `${lines.join('\n')}\n`;
}
