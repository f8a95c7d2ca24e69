import { createHash } from 'node:crypto';
import { writeFileAtomic } from '../io/atomic';
import { loadDomainDir, type Domain } from '../kst';
import type { BatchTransport } from './batch-transport';
import type { Job } from './engine';
import { extractedText, kstJobs, kstResultHandler, type KstCellMeta } from './kst-study';
import { EmptyDesignError } from './lifecycle';
import { loadPriceTable, type PriceTable } from './prices';
import type { ProgressSink } from './progress';
import { checkBatchModels, createBatchClient, createProvider, loadCatalogue } from './providers';
import { checkContextWindows, contextWindowOf, type ContextWindowWording } from './context-window';
import { readCompleted, storePaths } from './store';
import type { Provider } from '../provider/contract';
import type { ModelOptions, ResolvedTargets } from './providers/endpoints';
import {
  DEFAULT_POLL_INTERVAL_MS,
  dryRunJobs,
  dryRunStudy,
  endpointsInfo,
  resolveTargets,
  runStudyCollection,
  type CollectOutcome,
  type DispatchParams,
  type DryRunReport,
  type NoteSink,
  type StudyCollection,
} from './runner';
import { loadStatesFile, type StatesFile } from './states-file';

// The collection entry point outside lib/collect (cli/, lib/study/) also takes the runner's shared pieces from here.
export { DEFAULT_POLL_INTERVAL_MS, dryRunJobs, formatDryRun, resolveTargets, type CollectOutcome, type DryRunReport, type NoteKind, type NoteSink } from './runner';

/**
 * `kstbench collect` as a library call: loads the domains, builds the KST design and hands it to the
 * collection runner (runner.ts, shared with the PSI study), which writes extracted.jsonl at the end
 * through this study's `finalize`. The CLI only parses options and prints.
 */

/** The KST collection's parameters: the runner's dispatch parameters and the KST design. */
export interface CollectParams extends DispatchParams {
  domainsDir: string;
  outDir: string;
  conditions: string[];
  orders: number;
  baseUrl?: string;
  /** Price table file; default config/models.json (the model catalogue). */
  pricesFile?: string;
  /** `--states FILE`: a state sample (see states-file.ts) instead of every state of the listed domains. */
  statesFile?: string;
  /** `--models-file`: per-model base URL, key variable, caps, sampling, thinking (providers/endpoints.ts). */
  modelsFile?: string;
}

export interface CollectDeps {
  createProvider?(spec: string, options: { baseUrl?: string; env?: NodeJS.ProcessEnv; model?: ModelOptions; onNote?: (note: string) => void }): Provider;
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  progress?: (total: number, initialDone: number) => ProgressSink;
  interrupt?: AbortSignal;
  /** Backoff base (ms); tests shrink it. */
  retryBaseDelayMs?: number;
  createBatchClient?(spec: string, options: { baseUrl?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; model?: ModelOptions }): BatchTransport;
  /** Monotonic clock (ms) for rate control; tests advance it from their `sleep`. */
  clockMs?: () => number;
  /** Routing, environment, setup and mid-run call notes (the CLI prints them on stderr). */
  onNote?: NoteSink;
  /** The fix named when --out holds another design (default: use a new --out directory); `kstbench study` names its own. */
  otherDesignFix?: string;
  /** The fix named when the pre-flight's answer is still cut off (default: the collect flags'); `kstbench study` names its own. */
  cutOffFix?: string;
}

/** SHA-256 of a domain's content (what the prompts are built from), for the resume fingerprint. */
export function domainHash(domain: Domain): string {
  const content = {
    id: domain.id,
    title: domain.title,
    components: domain.components,
    prerequisites: domain.prerequisites,
  };
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

export interface PreparedDesign {
  domains: Domain[];
  jobs: Array<Job<KstCellMeta>>;
  prices: PriceTable;
  fingerprint: Record<string, unknown>;
  runInfo: Record<string, unknown>;
  states: StatesFile | null;
}

/** Loads inputs and builds the design; no file is written. */
export function prepareKstDesign(params: CollectParams): PreparedDesign {
  if (params.conditions.length === 0) throw new EmptyDesignError('--conditions is empty: the design has no cell', { item: 'conditions' });
  if (params.models.length === 0) throw new EmptyDesignError('--models is empty: the design has no cell', { item: 'models' });
  const domains = loadDomainDir(params.domainsDir);
  if (domains.length === 0) {
    throw new EmptyDesignError(`${params.domainsDir}: no domain files (*.json) in this directory: the design has no cell`, { file: params.domainsDir });
  }
  const prices = loadPriceTable(params.pricesFile);
  const states = params.statesFile !== undefined ? loadStatesFile(params.statesFile, domains) : null;
  const jobs = kstJobs(domains, {
    models: params.models,
    conditions: params.conditions,
    orders: params.orders,
    seed: params.seed,
    ...(states ? { states: states.states } : {}),
  });
  const fingerprint = {
    study: 'kst',
    models: params.models,
    conditions: params.conditions,
    orders: params.orders,
    seed: params.seed,
    max_output_tokens: params.maxOutputTokens,
    domains: Object.fromEntries(domains.map((d) => [d.id, domainHash(d)])),
    // Only with --states: a fingerprint holds what defines the cells, and without --states nothing
    // does. A `states_sha256: null` here would refuse the resume of every run without --states,
    // among them the committed corpus data/raw/kst/ (its run.json fingerprint has no such key).
    ...(states ? { states_sha256: states.sha256 } : {}),
  };
  const statesPerDomain = new Map<string, number>();
  for (const job of jobs) {
    if (job.model === params.models[0] && job.meta.cell.condition === params.conditions[0] && job.meta.cell.order === 1) {
      statesPerDomain.set(job.meta.cell.domain, (statesPerDomain.get(job.meta.cell.domain) ?? 0) + 1);
    }
  }
  const runInfo = {
    command: 'kstbench collect',
    study: 'kst',
    params: {
      domains: params.domainsDir,
      models: params.models,
      conditions: params.conditions,
      orders: params.orders,
      concurrency: params.concurrency,
      base_url: params.baseUrl ?? null,
      max_output_tokens: params.maxOutputTokens,
      timeout_ms: params.timeoutMs,
      max_retries: params.maxRetries,
      seed: params.seed,
      ...(states ? { states_file: params.statesFile } : {}),
      ...(params.retryMissing ? { retry_missing: true } : {}),
      ...(params.batch ? { batch: true, poll_interval_ms: params.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS } : {}),
      // Options are recorded when given, not as nulls, as --states and --batch above: run.json says
      // what was asked, and the committed data/raw/kst/run.json (made without them) stays byte-identical.
      ...(params.tokensPerMinute !== undefined ? { tpm: params.tokensPerMinute } : {}),
      ...(params.retryHorizonMs !== undefined ? { retry_horizon_ms: params.retryHorizonMs } : {}),
      ...(params.noPreflight ? { preflight: false } : {}),
      ...(params.resubmitCancelled ? { resubmit_cancelled: true } : {}),
    },
    design: {
      size: jobs.length,
      per_model: params.models.length === 0 ? 0 : jobs.length / params.models.length,
      states: Object.fromEntries(statesPerDomain),
      shuffle: 'Fisher-Yates with seedrandom("<seed>|<model spec>") within each model',
      ...(states ? { state_sample: { file: states.file, sha256: states.sha256, domains: states.domains } } : {}),
    },
    clock_note:
      'All providers simulated → timestamps and latencies are null (logical clock: file position), records committed in design order, so re-running gives byte-identical files. Otherwise wall-clock ISO-8601 UTC.',
  };
  return { domains, jobs, prices, fingerprint, runInfo, states };
}

/** The KST study as the runner's study: its jobs, handler, fingerprint, run.json facts and extracted.jsonl. */
function kstCollection(params: CollectParams, deps: CollectDeps, prepared: PreparedDesign, targets: ResolvedTargets): StudyCollection<KstCellMeta> {
  const env = deps.env ?? process.env;
  const live = deps.createProvider ?? createProvider;
  const batch = deps.createBatchClient ?? createBatchClient;
  return {
    storeDir: params.outDir,
    jobs: prepared.jobs,
    prices: prepared.prices,
    fingerprint: prepared.fingerprint,
    runInfo: ({ deterministic, settings }) => ({ ...prepared.runInfo, deterministic, ...endpointsInfo(targets), ...(settings ? { settings } : {}) }),
    handler: (isSimulated) => kstResultHandler(isSimulated),
    finalize: (records, paths) => writeFileAtomic(paths.extracted, extractedText(records)),
    createProvider: (spec) => live(spec, { ...targets.optionsFor(spec), env, ...(deps.onNote ? { onNote: (note: string) => deps.onNote!(spec, note, 'call') } : {}) }),
    createBatchClient: (spec) => batch(spec, { ...targets.optionsFor(spec), env, timeoutMs: params.timeoutMs }),
  };
}

/** How the collector names a model whose prompts are over its context window: its flags. */
const COLLECT_WINDOW_WORDING: ContextWindowWording = {
  entry: () => ({ where: '--models', item: 'models' }),
  windowSource: '--models-file, else config/models.json',
  designFields: '--conditions, --states, --domains',
};

/** The models' context windows (--models-file, else the catalogue), in --models order. */
function modelWindows(params: CollectParams, targets: ResolvedTargets): Array<{ spec: string; contextWindow: number | null }> {
  const catalogue = loadCatalogue();
  return params.models.map((spec) => ({ spec, contextWindow: contextWindowOf(targets, spec, catalogue) }));
}

/**
 * A live run's context-window check before its first call, on the cells it would request: the prompts
 * are built once more only for the models whose window is known (never for simulated ones).
 */
function checkLiveContextWindows(params: CollectParams, targets: ResolvedTargets, prepared: PreparedDesign): void {
  const windows = modelWindows(params, targets).filter((m) => m.contextWindow !== null);
  if (windows.length === 0) return;
  const completed = readCompleted(storePaths(params.outDir).responses, { tolerateTornTail: true });
  const report = dryRunJobs(prepared.jobs, completed, windows.map((m) => m.spec), prepared.prices, params.maxOutputTokens, params.batch === true, params.retryMissing);
  checkContextWindows(windows, report, COLLECT_WINDOW_WORDING);
}

export async function collectKst(rawParams: CollectParams, deps: CollectDeps = {}): Promise<CollectOutcome> {
  const { params, targets } = resolveTargets(rawParams, deps.createProvider === undefined);
  const prepared = prepareKstDesign(params);
  checkLiveContextWindows(params, targets, prepared);
  return runStudyCollection(kstCollection(params, deps, prepared, targets), params, targets, { ...deps, env: deps.env ?? process.env });
}

/** A design of this many cells makes a dry run long enough (seconds of CPU) to say what it is doing. */
export const LONG_PLAN_CELLS = 100_000;

/** Where a long dry run says its planned count first, then each tenth of its prompts (the CLI: stderr); small designs say nothing. */
export interface DryRunPlanning {
  onLine?: (line: string) => void;
  /** The design size from which it speaks (default LONG_PLAN_CELLS; tests lower it). */
  longPlanCells?: number;
}

/**
 * Estimates a run without calling anything or writing anything (runner.ts `dryRunStudy`): the pending
 * calls (cells without a final record in --out), their tokens and cost.
 */
export function dryRunKst(rawParams: CollectParams, planning: DryRunPlanning = {}): DryRunReport {
  const { params, targets } = resolveTargets(rawParams);
  if (params.batch) checkBatchModels(params.models);
  const prepared = prepareKstDesign(params);
  const long = planning.onLine !== undefined && prepared.jobs.length >= (planning.longPlanCells ?? LONG_PLAN_CELLS);
  if (long) planning.onLine!(`dry run: ${prepared.jobs.length} cells in the design; building their prompts to estimate the tokens`);
  const progress = long ? (done: number, total: number) => planning.onLine!(`dry run: ${done} of ${total} prompts estimated`) : undefined;
  const report = dryRunStudy({ storeDir: params.outDir, jobs: prepared.jobs, prices: prepared.prices }, params, progress);
  // A cost quoted for prompts the model cannot take is refused, as `study check` refuses it.
  checkContextWindows(modelWindows(params, targets), report, COLLECT_WINDOW_WORDING);
  return report;
}
