import { createHash } from 'node:crypto';
import { writeFileAtomic } from '../io/atomic';
import { loadDomainDir, type Domain } from '../kst';
import { InputError } from '../errors';
import { openBatches, readLedger } from './batch-ledger';
import { runBatchCollection, type BatchEngineResult } from './batch-mode';
import { pendingJobs, runCollection, type EngineResult, type Job } from './engine';
import { extractedText, kstJobs, kstResultHandler, type KstCellMeta } from './kst-study';
import {
  ASSUMED_OUTPUT_TOKENS,
  assumedOutputTokens,
  estimateCost,
  estimateTokens,
  loadPriceTable,
  roundUsd,
  type PriceTable,
} from './prices';
import type { ProgressSink } from './progress';
import type { BatchTransport } from './batch-transport';
import { reservedTokens } from './engine';
import { EmptyDesignError } from './lifecycle';
import { catalogueWarnings, checkModelTarget, createBatchClient, createProvider, loadCatalogue } from './providers';
import type { Provider } from '../provider/contract';
import { parseModelSpec } from '../provider/contract';
import type { RetryPolicy } from './retry';
import { resolveModelTargets, type ModelOptions, type ResolvedTargets } from './providers/endpoints';
import { makeRedactor } from './redact';
import { loadStatesFile, type StatesFile } from './states-file';
import { readCompleted, storePaths } from './store';

/**
 * `kstbench collect` as a library call: loads the domains, builds the KST design and runs the generic
 * engine, then writes extracted.jsonl. The CLI only parses options and prints.
 */

export interface CollectParams {
  domainsDir: string;
  models: string[];
  outDir: string;
  conditions: string[];
  orders: number;
  concurrency: number;
  baseUrl?: string;
  maxOutputTokens: number;
  timeoutMs: number;
  maxRetries: number;
  seed: string;
  /** Price table file; default config/models.json (the model catalogue). */
  pricesFile?: string;
  /** `--states FILE`: a state sample (see states-file.ts) instead of every state of the listed domains. */
  statesFile?: string;
  /** `--retry-missing`: request cells whose final record is `missing` again (the new record supersedes it). */
  retryMissing?: boolean;
  /** `--batch`: provider batch APIs (openai:/anthropic: models only) at the batch discount. */
  batch?: boolean;
  /** `--poll-interval` in milliseconds (batch mode); default 30 s. */
  pollIntervalMs?: number;
  /** Largest batch submitted at once (batch mode); default DEFAULT_MAX_BATCH_REQUESTS. */
  maxBatchRequests?: number;
  /** `--resubmit-cancelled` (batch mode): send the cells of batches cancelled at the provider again. */
  resubmitCancelled?: boolean;
  /** `--tpm`: tokens per minute per model (prompt estimate + full output allowance per call). */
  tokensPerMinute?: number;
  /** `--retry-horizon` in milliseconds: how long a cell keeps waiting out transient failures. */
  retryHorizonMs?: number;
  /** `--no-preflight`: skip the one cheap request per model before dispatch. */
  noPreflight?: boolean;
  /** `--models-file`: per-model base URL, key variable, caps, sampling, thinking (providers/endpoints.ts). */
  modelsFile?: string;
}

/**
 * Resolves `--models` (entries may be `spec@URL`), `--models-file` and `--base-url` into the plain
 * specs that name the cells and the per-model provider options (providers/endpoints.ts: a key goes
 * only to its own host; a credential in a URL is refused). The params come back with plain specs.
 */
export function resolveTargets<P extends { models: string[]; baseUrl?: string; modelsFile?: string }>(params: P, check = true): { params: P; targets: ResolvedTargets } {
  const targets = resolveModelTargets(params.models, { baseUrl: params.baseUrl, ...(params.modelsFile !== undefined ? { modelsFile: params.modelsFile } : {}) });
  // Models the registry cannot build are refused here, before anything runs (an injected factory, in tests, knows its own).
  if (check) for (const t of targets.targets) checkModelTarget(t.spec, t.baseUrl);
  return { params: { ...params, models: targets.targets.map((t) => t.spec) }, targets };
}

/** Per-model endpoints for run.json (only models with an explicit URL; none for simulated runs). */
export function endpointsInfo(targets: ResolvedTargets): Record<string, unknown> {
  const urls = Object.fromEntries(targets.targets.filter((t) => t.baseUrl !== undefined).map((t) => [t.spec, t.baseUrl]));
  return Object.keys(urls).length > 0 ? { endpoints: urls } : {};
}

/** Default wait between polls of an unfinished provider batch. */
export const DEFAULT_POLL_INTERVAL_MS = 30_000;

export interface CollectDeps {
  createProvider?(spec: string, options: { baseUrl?: string; env?: NodeJS.ProcessEnv; model?: ModelOptions }): Provider;
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  progress?: (total: number, initialDone: number) => ProgressSink;
  interrupt?: AbortSignal;
  /** Backoff base (ms); tests shrink it. */
  retryBaseDelayMs?: number;
  createBatchClient?(spec: string, options: { baseUrl?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; model?: ModelOptions }): BatchTransport;
  /** Monotonic clock (ms) for rate control; tests advance it from their `sleep`. */
  clockMs?: () => number;
  /** Pre-flight notes (the CLI prints them on stderr). */
  onNote?: (model: string, note: string) => void;
}

/** The retry policy from the parameters (tests shrink the backoff base). */
export function retryPolicyFor(params: { maxRetries: number; retryHorizonMs?: number }, deps: { retryBaseDelayMs?: number }): Partial<RetryPolicy> {
  return {
    maxRetries: params.maxRetries,
    ...(deps.retryBaseDelayMs !== undefined ? { baseDelayMs: deps.retryBaseDelayMs } : {}),
    ...(params.retryHorizonMs !== undefined ? { retryHorizonMs: params.retryHorizonMs, quotaThresholdMs: params.retryHorizonMs } : {}),
  };
}

/**
 * Settings that define each model's cells (provider `settings()`: API, sampling, effort, thinking,
 * output cap), or null when no provider reports any (then the fingerprint and records stay as before).
 */
export function modelSettings(models: readonly string[], settingsOf: (model: string) => Record<string, unknown> | undefined): Record<string, Record<string, unknown>> | null {
  const all: Record<string, Record<string, unknown>> = {};
  for (const m of models) {
    const s = settingsOf(m);
    if (s !== undefined) all[m] = s;
  }
  return Object.keys(all).length > 0 ? all : null;
}

/** Refuses a --tpm below what one call reserves (it could never be sent). */
export function checkTokenBudget(jobs: ReadonlyArray<Job<unknown>>, maxOutputTokens: number, tokensPerMinute: number | undefined): void {
  if (tokensPerMinute === undefined) return;
  let largest = 0;
  for (const j of jobs) {
    const r = j.request();
    largest = Math.max(largest, reservedTokens({ system: r.system, user: r.user, maxOutputTokens }));
  }
  if (largest > tokensPerMinute) {
    throw new InputError(
      `--tpm ${tokensPerMinute} is below the ${largest} tokens one call reserves (prompt estimate + --max-output-tokens ${maxOutputTokens}); raise --tpm or lower --max-output-tokens`,
      { item: 'tpm' },
    );
  }
}

/** Prints each provider's notes (what is sent, catalogue notes) before the run; offline. */
export function printNotes(models: readonly string[], providerFor: (model: string) => Pick<Provider, 'notes'>, onNote?: (model: string, note: string) => void): void {
  for (const m of models) for (const note of providerFor(m).notes?.() ?? []) onNote?.(m, note);
}

/** The output cap the settings name for a model (a cut-off answer may be retried up to it), null when unknown. */
export function outputCapOf(settings: Record<string, unknown> | undefined): number | null {
  const cap = settings?.['output_cap'];
  return typeof cap === 'number' && Number.isInteger(cap) && cap > 0 ? cap : null;
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
    // Only with --states, so that directories started before this option resume unchanged.
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
      // Rate control and pre-flight only when given, so that older directories' run.json stays unchanged.
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

export interface CollectOutcome extends EngineResult {
  deterministic: boolean;
  /** Batch mode only: batches submitted by this run, and those still open (collected by the next run). */
  batch?: { submitted: string[]; open: string[] };
}

/** Refuses a live run in a directory whose batch ledger has uncollected batches (their cells would be requested twice). */
export function checkNoOpenBatches(outDir: string): void {
  const file = storePaths(outDir).batches;
  const open = openBatches(readLedger(file));
  if (open.length > 0) {
    throw new InputError(
      `${file}: ${open.length} batch(es) submitted by an earlier --batch run are not collected yet (first: ${open[0]!.batch_id}); ` +
        're-run with --batch to collect them (a live run would request those cells a second time)',
      { file, item: open[0]!.batch_id },
    );
  }
}

/**
 * `--batch`: every model must be openai: or anthropic: (the batch APIs); simulated and
 * openai-compatible models are refused with an InputError naming the model.
 */
export function checkBatchModels(models: readonly string[]): void {
  for (const spec of models) {
    const { provider } = parseModelSpec(spec);
    if (provider !== 'openai' && provider !== 'anthropic') {
      throw new InputError(
        `${spec}: --batch works with openai: and anthropic: models only (provider batch APIs); ${provider} models are collected without --batch`,
        { item: spec },
      );
    }
  }
}

async function collectKstBatch(params: CollectParams, deps: CollectDeps, prepared: PreparedDesign, targets: ResolvedTargets): Promise<CollectOutcome> {
  checkBatchModels(params.models);
  const env = deps.env ?? process.env;
  const create = deps.createBatchClient ?? createBatchClient;
  // Every client up front, so a missing key fails before anything is written.
  const clients = new Map<string, BatchTransport>();
  for (const spec of params.models) clients.set(spec, create(spec, { ...targets.optionsFor(spec), env, timeoutMs: params.timeoutMs }));
  // The live providers of the same models send the pre-flight cell before the first batch.
  const live = new Map<string, Provider>();
  if (!params.noPreflight) for (const spec of params.models) live.set(spec, (deps.createProvider ?? createProvider)(spec, { ...targets.optionsFor(spec), env }));
  for (const note of targets.notes) deps.onNote?.('routing', note);
  const settings = modelSettings(params.models, (m) => clients.get(m)!.settings?.());
  printNotes(params.models, (m) => live.get(m) ?? {}, deps.onNote);
  const result: BatchEngineResult = await runBatchCollection({
    dir: params.outDir,
    jobs: prepared.jobs,
    batchClientFor: (model) => clients.get(model)!,
    ...(params.noPreflight ? { preflight: false } : { preflightProviderFor: (model: string) => live.get(model)! }),
    outputCapFor: (m: string) => outputCapOf(settings?.[m]),
    handler: kstResultHandler(() => false),
    maxOutputTokens: params.maxOutputTokens,
    timeoutMs: params.timeoutMs,
    seed: params.seed,
    prices: prepared.prices,
    retry: retryPolicyFor(params, deps),
    pollIntervalMs: params.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    ...(params.maxBatchRequests !== undefined ? { maxBatchRequests: params.maxBatchRequests } : {}),
    resubmitCancelled: params.resubmitCancelled,
    retryMissing: params.retryMissing,
    clockMs: deps.clockMs,
    runInfo: { ...prepared.runInfo, deterministic: false, ...endpointsInfo(targets), ...(settings ? { settings } : {}) },
    fingerprint: { ...prepared.fingerprint, ...(settings ? { settings } : {}) },
    settingsFor: (m) => settings?.[m],
    finalize: (records, paths) => writeFileAtomic(paths.extracted, extractedText(records)),
    sleep: deps.sleep,
    redact: makeRedactor(env, targets.keyVariables),
    progress: deps.progress,
    interrupt: deps.interrupt,
  });
  const { submitted, open, ...rest } = result;
  return { ...rest, deterministic: false, batch: { submitted, open } };
}

export async function collectKst(rawParams: CollectParams, deps: CollectDeps = {}): Promise<CollectOutcome> {
  const { params, targets } = resolveTargets(rawParams, deps.createProvider === undefined);
  const prepared = prepareKstDesign(params);
  if (params.batch) return collectKstBatch(params, deps, prepared, targets);
  checkNoOpenBatches(params.outDir);
  const env = deps.env ?? process.env;
  const create = deps.createProvider ?? createProvider;
  // Create every provider up front so a missing key fails before anything is written.
  const providers = new Map<string, Provider>();
  for (const spec of params.models) providers.set(spec, create(spec, { ...targets.optionsFor(spec), env }));
  for (const note of targets.notes) deps.onNote?.('routing', note);
  const deterministic = [...providers.values()].every((p) => p.simulated);
  checkTokenBudget(prepared.jobs, params.maxOutputTokens, params.tokensPerMinute);
  const settings = modelSettings(params.models, (m) => providers.get(m)!.settings?.());
  printNotes(params.models, (m) => providers.get(m)!, deps.onNote);
  const result = await runCollection({
    preflight: !params.noPreflight,
    outputCapFor: (m) => outputCapOf(settings?.[m]),
    dir: params.outDir,
    jobs: prepared.jobs,
    providerFor: (model) => providers.get(model)!,
    handler: kstResultHandler((model) => providers.get(model)!.simulated),
    concurrency: params.concurrency,
    maxOutputTokens: params.maxOutputTokens,
    timeoutMs: params.timeoutMs,
    seed: params.seed,
    prices: prepared.prices,
    retry: retryPolicyFor(params, deps),
    ...(params.tokensPerMinute !== undefined ? { tokensPerMinute: params.tokensPerMinute } : {}),
    deterministic,
    runInfo: { ...prepared.runInfo, deterministic, ...endpointsInfo(targets), ...(settings ? { settings } : {}) },
    fingerprint: { ...prepared.fingerprint, ...(settings ? { settings } : {}) },
    settingsFor: (m) => settings?.[m],
    clockMs: deps.clockMs,
    finalize: (records, paths) => writeFileAtomic(paths.extracted, extractedText(records)),
    sleep: deps.sleep,
    redact: makeRedactor(env, targets.keyVariables),
    progress: deps.progress,
    interrupt: deps.interrupt,
    retryMissing: params.retryMissing,
  });
  return { ...result, deterministic };
}

export interface DryRunModelLine {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokensAssumed: number;
  costUsd: number | null;
  costUpperBoundUsd: number | null;
  note?: string;
}

export interface DryRunReport {
  /** Costs are at batch prices (price × (1 − batch_discount)). */
  batch: boolean;
  total: number;
  alreadyComplete: number;
  calls: number;
  models: DryRunModelLine[];
  inputTokens: number;
  outputTokensAssumed: number;
  costUsd: number | null;
  costUpperBoundUsd: number | null;
  /** Catalogue warnings per model: retired or retiring, Responses-only, unknown (catalogue.ts `catalogueWarnings`). */
  warnings: string[];
}

/** The catalogue's warnings for the run's models (retired, Responses-only, not in the SDK, unknown). */
export function modelWarnings(models: readonly string[]): string[] {
  const catalogue = loadCatalogue();
  return models.flatMap((m) => catalogueWarnings(catalogue, m));
}

/**
 * Estimates a run without calling anything or writing anything: the number of pending calls (cells
 * without a final record in --out), input tokens from the actual prompts (characters / 4), output
 * tokens from ASSUMED_OUTPUT_TOKENS per call, and the cost from the price table; the upper bound
 * assumes every call uses the full --max-output-tokens.
 */
export function dryRunKst(rawParams: CollectParams): DryRunReport {
  const { params } = resolveTargets(rawParams);
  if (params.batch) checkBatchModels(params.models);
  const prepared = prepareKstDesign(params);
  const completed = readCompleted(storePaths(params.outDir).responses, { tolerateTornTail: true });
  return { ...dryRunJobs(prepared.jobs, completed, params.models, prepared.prices, params.maxOutputTokens, params.batch === true, params.retryMissing), warnings: modelWarnings(params.models) };
}

/** The dry-run estimate of any study's jobs against the final records already in its store. */
export function dryRunJobs(
  jobs: ReadonlyArray<Job<unknown>>,
  completed: ReadonlyMap<string, Record<string, unknown>>,
  models: readonly string[],
  prices: PriceTable,
  maxOutputTokens: number,
  batchMode: boolean,
  retryMissing?: boolean,
): DryRunReport {
  const pending = pendingJobs(jobs, completed, retryMissing);
  const batch = { batch: batchMode };
  const lines: DryRunModelLine[] = models.map((model) => {
    const ofModel = pending.filter((j) => j.model === model);
    const inputTokens = ofModel.reduce((sum, j) => {
      const r = j.request();
      return sum + estimateTokens(r.system + r.user);
    }, 0);
    const outputTokensAssumed = ofModel.length * assumedOutputTokens(prices, model);
    const cost = estimateCost(prices, model, { inputTokens, outputTokens: outputTokensAssumed }, batch);
    const upper = estimateCost(prices, model, { inputTokens, outputTokens: ofModel.length * maxOutputTokens }, batch);
    return { model, calls: ofModel.length, inputTokens, outputTokensAssumed, costUsd: cost.usd, costUpperBoundUsd: upper.usd, note: cost.note };
  });
  const sum = (f: (l: DryRunModelLine) => number | null): number | null =>
    lines.reduce<number | null>((acc, l) => (acc === null || f(l) === null ? null : roundUsd(acc + f(l)!)), 0);
  return {
    total: jobs.length,
    batch: batchMode,
    alreadyComplete: jobs.length - pending.length,
    calls: pending.length,
    models: lines,
    inputTokens: lines.reduce((s, l) => s + l.inputTokens, 0),
    outputTokensAssumed: lines.reduce((s, l) => s + l.outputTokensAssumed, 0),
    costUsd: sum((l) => l.costUsd),
    costUpperBoundUsd: sum((l) => l.costUpperBoundUsd),
    warnings: [],
  };
}

export function formatDryRun(report: DryRunReport): string {
  const usd = (x: number | null) => (x === null ? 'unknown' : `$${x.toFixed(2)}`);
  const rows = report.models.map(
    (l) =>
      `  ${l.model.padEnd(36)} ${String(l.calls).padStart(6)} calls  ${String(l.inputTokens).padStart(10)} in  ${String(l.outputTokensAssumed).padStart(10)} out  ${usd(l.costUsd).padStart(10)}  (≤ ${usd(l.costUpperBoundUsd)})${l.note ? `  ${l.note}` : ''}`,
  );
  return [
    `Dry run: ${report.calls} calls (${report.total} cells in the design, ${report.alreadyComplete} already complete). Nothing was sent or written.`,
    ...rows,
    `  total: ${report.inputTokens} input tokens (prompt characters / 4), ${report.outputTokensAssumed} output tokens (per call: the catalogue's typical output of the model, else ${ASSUMED_OUTPUT_TOKENS})`,
    `  estimated cost ${usd(report.costUsd)}; upper bound at --max-output-tokens on every call ${usd(report.costUpperBoundUsd)}${report.batch ? ' (batch prices: batch_discount from the price table applied)' : ''}`,
    ...report.warnings.map((w) => `  WARNING: ${w}`),
    '',
  ].join('\n');
}

