import { dryRunJobs, resolveTargets, type DryRunReport } from '../collect/collect';
import { checkContextWindows, contextWindowOf } from '../collect/context-window';
import { checkDesignSize, kstJobs, type DesignLimitAdvice } from '../collect/kst-study';
import { ASSUMED_OUTPUT_TOKENS, loadPriceTable } from '../collect/prices';
import { createProvider, loadCatalogue, lookupModel, catalogueWarnings } from '../collect/providers';
import { readCompleted, storePaths } from '../collect/store';
import { InputError } from '../errors';
import { parseModelSpec } from '../provider/contract';
import { sampledStates, statesPerDomain } from './design';
import { loadStudyDomains, type Study } from './manifest';
import { checkImportFile } from './import';
import { loadRatings } from '../psi/ratings';
import { repeatDir, studyRepeats } from './repeats';
import type { Domain, StateSample } from '../kst';

/**
 * `kstbench study check`: everything that can fail before anything is spent, and nothing written —
 * the manifest, every domain, every model against the catalogue (config/models.json) and its key, the
 * number of cells and the cost estimate per model (the collector's own dry run, dryRunJobs, once per
 * repeat: the cost is the design's cells × repeats, less what each repeat's folder already holds).
 */

export interface ModelCheck {
  spec: string;
  /** The catalogue key that matched, or null (simulated, or an openai-compatible model not listed). */
  catalogue: string | null;
  /** Its context window in tokens: the models file's `context_window`, else the catalogue's; null when unknown. */
  contextWindow: number | null;
  notes: string[];
}

export interface StudyCheck {
  domains: Array<{ id: string; items: number; states: number; sampled: boolean }>;
  models: ModelCheck[];
  /** Cells per model (states × conditions × orders × repeats) and in all. */
  cellsPerModel: number;
  cells: number;
  /** Null when the study imports its responses instead of collecting. */
  cost: DryRunReport | null;
  /** What `--retry-missing` adds: the cells recorded `missing` (null for an import, or when there are none). */
  retryMissing: DryRunReport | null;
  imported: { file: string; rows: number } | null;
  domainObjects: Domain[];
  samples: StateSample[] | null;
}

function modelField(study: Study, i: number): string {
  return `${study.file}: models[${i}]`;
}

/**
 * Checks every model: its provider is known; an `openai:` or `anthropic:` model must be in the
 * catalogue (its limits and prices come from there); a simulated profile must exist; the key it needs
 * is in the environment; an openai-compatible model has a URL. InputError naming the manifest entry.
 */
export function checkModels(study: Study, env: NodeJS.ProcessEnv): ModelCheck[] {
  let resolved: ReturnType<typeof resolveTargets>;
  try {
    resolved = resolveTargets({ models: study.manifest.models, ...(study.manifest.models_file ? { modelsFile: study.resolve(study.manifest.models_file) } : {}) });
  } catch (err) {
    // The collector names the model spec it refused; the study names the manifest entry that holds it.
    const spec = err instanceof InputError ? err.where.item : undefined;
    const i = spec === undefined ? -1 : study.manifest.models.findIndex((m) => m === spec || m.startsWith(`${spec}@`));
    if (i >= 0) throw new InputError(`${modelField(study, i)}: ${(err as Error).message}`, { file: study.file, item: `models[${i}]` });
    throw err;
  }
  const { params, targets } = resolved;
  const catalogue = loadCatalogue();
  return params.models.map((spec, i) => {
    const where = modelField(study, i);
    let provider: string;
    try {
      provider = parseModelSpec(spec).provider;
    } catch (err) {
      throw new InputError(`${where}: ${(err as Error).message}`, { file: study.file, item: `models[${i}]` });
    }
    const match = lookupModel(catalogue, spec);
    if ((provider === 'openai' || provider === 'anthropic') && match === null) {
      throw new InputError(
        `${where}: ${spec} is not in the model catalogue (config/models.json); check the name, or add it there (its output cap and prices), or serve it as openai-compatible:MODEL@URL`,
        { file: study.file, item: `models[${i}]` },
      );
    }
    try {
      createProvider(spec, { ...targets.optionsFor(spec), env });
    } catch (err) {
      if (err instanceof InputError) throw new InputError(`${where}: ${err.message}`, { file: study.file, item: `models[${i}]` });
      throw err;
    }
    const contextWindow = contextWindowOf(targets, spec, catalogue);
    return { spec, catalogue: match?.key ?? null, contextWindow, notes: catalogueWarnings(catalogue, spec) };
  });
}

const addCost = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/** The longest prompt over the repeats' dry runs of one model (nothing when none has a pending prompt). */
function largestOf(lines: readonly DryRunReport['models'][number][]): { largestPrompt?: { runId: string; tokens: number } } {
  const prompts = lines.flatMap((l) => (l.largestPrompt ? [l.largestPrompt] : []));
  if (prompts.length === 0) return {};
  return { largestPrompt: prompts.reduce((a, b) => (b.tokens > a.tokens ? b : a)) };
}

/** The dry runs of the repeats as one: calls, tokens and costs summed per model and in all (one report stays as it is). */
export function sumDryRuns(reports: readonly DryRunReport[]): DryRunReport {
  const [first, ...rest] = reports;
  if (!first) throw new RangeError('sumDryRuns: no report');
  if (rest.length === 0) return first;
  const models = first.models.map((m) => {
    const same = reports.map((r) => r.models.find((x) => x.model === m.model)!);
    return {
      ...m,
      calls: same.reduce((a, x) => a + x.calls, 0),
      inputTokens: same.reduce((a, x) => a + x.inputTokens, 0),
      outputTokensAssumed: same.reduce((a, x) => a + x.outputTokensAssumed, 0),
      costUsd: same.map((x) => x.costUsd).reduce(addCost),
      costUpperBoundUsd: same.map((x) => x.costUpperBoundUsd).reduce(addCost),
      ...largestOf(same),
    };
  });
  const sum = (f: (r: DryRunReport) => number) => reports.reduce((a, r) => a + f(r), 0);
  return {
    ...first,
    total: sum((r) => r.total),
    alreadyComplete: sum((r) => r.alreadyComplete),
    alreadyMissing: sum((r) => r.alreadyMissing),
    calls: sum((r) => r.calls),
    models,
    inputTokens: sum((r) => r.inputTokens),
    outputTokensAssumed: sum((r) => r.outputTokensAssumed),
    costUsd: reports.map((r) => r.costUsd).reduce(addCost),
    costUpperBoundUsd: reports.map((r) => r.costUpperBoundUsd).reduce(addCost),
  };
}

/** How an oversize design is refused in a study: naming the manifest's fields and `study init --sample`. */
export function studyDesignLimits(study: Study): DesignLimitAdvice {
  return {
    states: `${study.file}: design.states`,
    conditions: `${study.file}: design.conditions`,
    sample: 'sample the states: "states": {"sample": N, "seed": S} in design (study init --sample N)',
  };
}

/**
 * The design's size checked before anything is counted per domain or enumerated (a space of millions
 * of states ran out of memory in `study check`, or failed after a minute of `study run`).
 */
export function checkStudyDesignSize(study: Study, domains: readonly Domain[], samples: readonly StateSample[] | null): void {
  const d = study.manifest.design;
  checkDesignSize(domains, {
    models: study.manifest.models,
    conditions: d.conditions,
    orders: d.orders,
    seed: d.seed,
    limits: studyDesignLimits(study),
    ...(samples ? { states: new Map(samples.map((s) => [s.domain, s.states])) } : {}),
  });
}

/** Runs every check; throws the first problem as one InputError line. */
export function checkStudy(study: Study, env: NodeJS.ProcessEnv = process.env): StudyCheck {
  const domainObjects = loadStudyDomains(study);
  const samples = sampledStates(study, domainObjects);
  if (!study.manifest.responses) checkStudyDesignSize(study, domainObjects, samples);
  const perDomain = statesPerDomain(domainObjects, samples);
  const imported = study.manifest.responses ? checkImportFile(study, domainObjects) : null;
  // A bad ratings file is one line naming its line and field now, not after the collection.
  if (study.manifest.psi?.ratings !== undefined) loadRatings(study.resolve(study.manifest.psi.ratings));
  const models = imported ? [] : checkModels(study, env);
  const design = study.manifest.design;
  const statesTotal = [...perDomain.values()].reduce((a, b) => a + b, 0);
  const cellsPerModel = statesTotal * design.conditions.length * design.orders * design.repeats;
  if (!imported && design.conditions.length === 0) {
    throw new InputError(`${study.file}: design.conditions: empty, so the design has no cell; give at least one of P0, P1, P2, P3`, { file: study.file, item: 'design.conditions' });
  }
  if (!imported && cellsPerModel === 0) {
    throw new InputError(`${study.file}: design: the design has no cell (${statesTotal} states × ${design.conditions.length} conditions × ${design.orders} orders × ${design.repeats} repeats)`, {
      file: study.file,
      item: 'design',
    });
  }
  let cost: DryRunReport | null = null;
  let retryMissing: DryRunReport | null = null;
  if (!imported) {
    const specs = models.map((m) => m.spec);
    const jobs = kstJobs(domainObjects, {
      models: specs,
      conditions: design.conditions,
      orders: design.orders,
      seed: design.seed,
      ...(samples ? { states: new Map(samples.map((s) => [s.domain, s.states])) } : {}),
    });
    // One dry run per repeat (each repeat is a collection directory of its own), summed.
    const prices = loadPriceTable();
    const completedByRepeat = studyRepeats(study).map((repeat) => readCompleted(storePaths(repeatDir(study, repeat)).responses, { tolerateTornTail: true }));
    cost = sumDryRuns(completedByRepeat.map((completed) => dryRunJobs(jobs, completed, specs, prices, design.max_output_tokens, false)));
    checkContextWindows(models, cost, {
      entry: (i) => ({ where: modelField(study, i), item: `models[${i}]`, file: study.file }),
      windowSource: 'models_file, else config/models.json',
      designFields: 'design.conditions, domains',
    });
    // Missing cells count as collected above; what asking for them again would cost is shown apart
    // (a second dry run, which builds every pending prompt again: only when some cell is missing).
    if (cost.alreadyMissing > 0) {
      retryMissing = sumDryRuns(completedByRepeat.map((completed) => dryRunJobs(jobs, completed, specs, prices, design.max_output_tokens, false, true)));
    }
  }
  return {
    domains: domainObjects.map((d) => ({ id: d.id, items: d.ids.length, states: perDomain.get(d.id)!, sampled: samples !== null })),
    models,
    cellsPerModel,
    cells: imported ? imported.rows : cellsPerModel * models.length,
    cost,
    retryMissing,
    imported,
    domainObjects,
    samples,
  };
}

/** The check as the lines `study check` prints. */
export function formatCheck(study: Study, c: StudyCheck): string {
  const usd = (x: number | null) => (x === null ? 'unknown' : `$${x.toFixed(2)}`);
  const lines = [`Study ${study.dir}: ${study.manifest.title}`, 'Domains:'];
  for (const d of c.domains) lines.push(`  ${d.id.padEnd(28)} ${String(d.items).padStart(4)} items  ${String(d.states).padStart(7)} ${d.sampled ? 'sampled ' : ''}states`);
  if (c.imported) {
    lines.push(`Responses: imported from ${c.imported.file} (${c.imported.rows} rows, all valid); nothing is collected.`);
    return `${lines.join('\n')}\nOK: nothing was sent or written.\n`;
  }
  const d = study.manifest.design;
  lines.push(`Design: ${d.conditions.join(',')} × ${d.orders} order(s) × ${d.repeats} repeat(s): ${c.cellsPerModel} cells per model, ${c.cells} in all`);
  lines.push('Models (cost estimate of the cells not yet collected; upper bound at max_output_tokens on every call):');
  for (const m of c.models) {
    const line = c.cost?.models.find((l) => l.model === m.spec);
    const where = m.spec.startsWith('simulated:') ? 'simulated respondent' : m.catalogue ? `catalogue ${m.catalogue}` : 'not in the catalogue';
    const tokens = `${String(line?.inputTokens ?? 0).padStart(10)} in ${String(line?.outputTokensAssumed ?? 0).padStart(10)} out`;
    lines.push(`  ${m.spec.padEnd(36)} ${where.padEnd(34)} ${String(line?.calls ?? 0).padStart(7)} calls ${tokens}  ${usd(line?.costUsd ?? null).padStart(9)} (≤ ${usd(line?.costUpperBoundUsd ?? null)})`);
    for (const n of m.notes) lines.push(`      note: ${n}`);
  }
  if (c.cost) {
    lines.push(`  total: ${c.cost.calls} calls (${c.cost.alreadyComplete + c.cost.alreadyMissing} already collected), estimated ${usd(c.cost.costUsd)}, at most ${usd(c.cost.costUpperBoundUsd)}`);
    // The tokens the estimate is made of, as the collector's dry run prints them (kstbench collect --dry-run).
    lines.push(`  tokens: ${c.cost.inputTokens} input (prompt characters / 4), ${c.cost.outputTokensAssumed} output (per call: the catalogue's typical output of the model, else ${ASSUMED_OUTPUT_TOKENS})`);
  }
  if (c.cost && c.retryMissing) {
    const extra = c.retryMissing.calls - c.cost.calls;
    lines.push(`  missing: ${extra} collected cell(s) ended without an answer; 'kstbench study collect ${study.dir} --retry-missing' requests them again: ${c.retryMissing.calls} calls in all, estimated ${usd(c.retryMissing.costUsd)}, at most ${usd(c.retryMissing.costUpperBoundUsd)}`);
  }
  return `${lines.join('\n')}\nOK: nothing was sent or written.\n`;
}
