import { InputError } from '../errors';
import { parseModelSpec, type Provider } from '../provider/contract';
import { openBatches, readLedger } from './batch-ledger';
import { runBatchCollection } from './batch-mode';
import type { BatchTransport } from './batch-transport';
import { pendingJobs, reservedTokens, runCollection, type EngineResult, type Job, type ResultHandler } from './engine';
import { missingNotRequested, type LifecycleOptions } from './lifecycle';
import { ASSUMED_OUTPUT_TOKENS, assumedOutputTokens, estimateCost, estimateTokens, roundUsd, type PriceTable } from './prices';
import type { ProgressSink } from './progress';
import { catalogueWarnings, checkBatchModels, checkModelTarget, loadCatalogue } from './providers';
import { resolveModelTargets, type ResolvedTargets } from './providers/endpoints';
import { ignoredSdkEnvNotes } from './providers/sdk-env';
import { makeRedactor } from './redact';
import type { RetryPolicy } from './retry';
import { readCompleted, storePaths, type StorePaths } from './store';

/**
 * The one collection runner of both studies ([KST-2026] `kstbench collect`, [PSI-2026]
 * `kstbench psi collect`): from a study's jobs to a finished run. It does the steps every collection
 * shares — providers (or batch clients) built up front so a missing key fails before anything is
 * written, routing and provider notes, the --tpm floor, the models' settings into the fingerprint and
 * the records, then the live engine (engine.ts) or the batch transport (batch-mode.ts), which own the
 * store, the lock, the pre-flight and the run status (lifecycle.ts). A study supplies only what is its
 * own ({@link StudyCollection}): its jobs (item type and prompt builder), its answer handler (scorer
 * and record schema), its fingerprint and run.json facts, the file it derives at the end, and how a
 * model's provider is built.
 */

/** The dispatch parameters both studies take (the flags of `DISPATCH_FLAGS` in cli/commands/collect.ts). */
export interface DispatchParams {
  models: string[];
  concurrency: number;
  maxOutputTokens: number;
  timeoutMs: number;
  maxRetries: number;
  seed: string;
  /** `--retry-missing`: request cells whose final record is `missing` again (the new record supersedes it). */
  retryMissing?: boolean;
  /** `--batch`: provider batch APIs (openai:/anthropic: models only) at the batch discount. */
  batch?: boolean;
  /** `--poll-interval` in milliseconds (batch mode); default DEFAULT_POLL_INTERVAL_MS. */
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
}

/**
 * What a note is, so it can be labelled by that (not all as "pre-flight"): `routing` (which server and
 * key a model gets), `environment` (SDK variables that are not sent), `setup` (a model's settings and
 * warnings, before its first call), `call` (heard during a call, mid-run: a followed same-origin
 * redirect that moved the path, providers/capped-fetch.ts).
 */
export type NoteKind = 'routing' | 'environment' | 'setup' | 'call';
/** Where notes go (the CLI prints them on stderr); `model` is the spec, or `routing` / `environment`. */
export type NoteSink = (model: string, note: string, kind: NoteKind) => void;

/** What the caller injects: the shell's signal, progress and notes, and the test clocks. */
export interface RunnerDeps {
  /** The environment whose secrets every written line is scrubbed of. */
  env: NodeJS.ProcessEnv;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  progress?: (total: number, initialDone: number) => ProgressSink;
  interrupt?: AbortSignal;
  /** Backoff base (ms); tests shrink it. */
  retryBaseDelayMs?: number;
  /** Monotonic clock (ms) for rate control; tests advance it from their `sleep`. */
  clockMs?: () => number;
  /** Routing, environment, setup and mid-run call notes (the CLI prints them on stderr). */
  onNote?: NoteSink;
  /** The fix named when the store holds another design (default: a new --out directory; see LifecycleOptions). */
  otherDesignFix?: string;
  /** The fix named when the pre-flight's answer is still cut off (default: the collect flags'; see LifecycleOptions). */
  cutOffFix?: string;
}

/** Each model's settings (provider `settings()`), or null when no provider reports any. */
export type ModelSettingsTable = Record<string, Record<string, unknown>>;

/** What a study supplies to {@link runStudyCollection}; everything else is the runner's. */
export interface StudyCollection<M> {
  /** The store directory (responses.jsonl, attempts.jsonl, run.json, batches.jsonl). */
  storeDir: string;
  /** Every job of the design in dispatch order: the study's item type and prompt builder. */
  jobs: ReadonlyArray<Job<M>>;
  prices: PriceTable;
  /** The fields a resume must find unchanged; the models' settings are added by the runner. */
  fingerprint: Record<string, unknown>;
  /** run.json facts, once the transport and the settings are known (the key order is the study's, so run.json stays byte-stable). */
  runInfo(run: { deterministic: boolean; batch: boolean; settings: ModelSettingsTable | null }): Record<string, unknown>;
  /** The answer handler (scorer and record schema); batch mode only runs real models. */
  handler(isSimulated: (model: string) => boolean): ResultHandler<M>;
  /** Writes the study's derived file from all final records at the end of every run. */
  finalize(records: ReadonlyArray<Record<string, unknown>>, paths: StorePaths): void;
  /** Builds a model's live provider (also the batch pre-flight's). */
  createProvider(spec: string): Provider;
  /** Builds a model's batch client (`--batch`). */
  createBatchClient(spec: string): BatchTransport;
}

export interface CollectOutcome extends EngineResult {
  deterministic: boolean;
  /** Batch mode only: batches submitted by this run, and those still open (collected by the next run). */
  batch?: { submitted: string[]; open: string[] };
}

/** Default wait between polls of an unfinished provider batch. */
export const DEFAULT_POLL_INTERVAL_MS = 30_000;

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
 * output cap), or null when no provider reports any (then the fingerprint and records carry none).
 */
export function modelSettings(models: readonly string[], settingsOf: (model: string) => Record<string, unknown> | undefined): ModelSettingsTable | null {
  const all: ModelSettingsTable = {};
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

/** The run's own notes, once before it: routing (--base-url), then the SDK variables kstbench ignores (providers/sdk-env.ts). */
function printRunNotes(targets: ResolvedTargets, deps: RunnerDeps): void {
  for (const note of targets.notes) deps.onNote?.('routing', note, 'routing');
  for (const note of ignoredSdkEnvNotes(targets.targets.map((t) => t.provider), deps.env)) deps.onNote?.('environment', note, 'environment');
}

/** Prints each provider's notes (what is sent, catalogue notes) before the run; offline. */
export function printNotes(models: readonly string[], providerFor: (model: string) => Pick<Provider, 'notes'>, onNote?: NoteSink): void {
  for (const m of models) for (const note of providerFor(m).notes?.() ?? []) onNote?.(m, note, 'setup');
}

/** The output cap the settings name for a model (a cut-off answer may be retried up to it), null when unknown. */
export function outputCapOf(settings: Record<string, unknown> | undefined): number | null {
  const cap = settings?.['output_cap'];
  return typeof cap === 'number' && Number.isInteger(cap) && cap > 0 ? cap : null;
}

/** Refuses a live run in a directory whose batch ledger has uncollected batches (their cells would be requested twice). */
export function checkNoOpenBatches(storeDir: string): void {
  const file = storePaths(storeDir).batches;
  const open = openBatches(readLedger(file));
  if (open.length > 0) {
    throw new InputError(
      `${file}: ${open.length} batch(es) submitted by an earlier --batch run are not collected yet (first: ${open[0]!.batch_id}); ` +
        're-run with --batch to collect them (a live run would request those cells a second time)',
      { file, item: open[0]!.batch_id },
    );
  }
}

/** Builds one value per model, in the order given, so the first missing key fails before anything is written. */
function perModel<T>(models: readonly string[], build: (spec: string) => T): Map<string, T> {
  return new Map(models.map((spec) => [spec, build(spec)]));
}

/** The lifecycle options both transports take, from the study, the parameters and the models' settings. */
function lifecycleOptions<M>(
  study: StudyCollection<M>,
  params: DispatchParams,
  targets: ResolvedTargets,
  deps: RunnerDeps,
  settings: ModelSettingsTable | null,
): Omit<LifecycleOptions<M>, 'handler' | 'runInfo' | 'deterministic'> {
  return {
    dir: study.storeDir,
    jobs: study.jobs,
    maxOutputTokens: params.maxOutputTokens,
    timeoutMs: params.timeoutMs,
    seed: params.seed,
    prices: study.prices,
    retry: retryPolicyFor(params, deps),
    fingerprint: { ...study.fingerprint, ...(settings ? { settings } : {}) },
    settingsFor: (m) => settings?.[m],
    finalize: (records, paths) => study.finalize(records, paths),
    clockMs: deps.clockMs,
    sleep: deps.sleep,
    redact: makeRedactor(deps.env, targets.keyVariables),
    progress: deps.progress,
    interrupt: deps.interrupt,
    retryMissing: params.retryMissing,
    ...(deps.otherDesignFix !== undefined ? { otherDesignFix: deps.otherDesignFix } : {}),
    ...(deps.cutOffFix !== undefined ? { cutOffFix: deps.cutOffFix } : {}),
  };
}

/** The live transport: every model's provider, the --tpm floor, then the engine's worker pool. */
async function runLive<M>(study: StudyCollection<M>, params: DispatchParams, targets: ResolvedTargets, deps: RunnerDeps): Promise<CollectOutcome> {
  checkNoOpenBatches(study.storeDir);
  const providers = perModel(params.models, (spec) => study.createProvider(spec));
  printRunNotes(targets, deps);
  const deterministic = [...providers.values()].every((p) => p.simulated);
  checkTokenBudget(study.jobs, params.maxOutputTokens, params.tokensPerMinute);
  const settings = modelSettings(params.models, (m) => providers.get(m)!.settings?.());
  printNotes(params.models, (m) => providers.get(m)!, deps.onNote);
  const result = await runCollection<M>({
    ...lifecycleOptions(study, params, targets, deps, settings),
    preflight: !params.noPreflight,
    outputCapFor: (m) => outputCapOf(settings?.[m]),
    providerFor: (model) => providers.get(model)!,
    handler: study.handler((model) => providers.get(model)!.simulated),
    concurrency: params.concurrency,
    ...(params.tokensPerMinute !== undefined ? { tokensPerMinute: params.tokensPerMinute } : {}),
    deterministic,
    runInfo: study.runInfo({ deterministic, batch: false, settings }),
  });
  return { ...result, deterministic };
}

/** The batch transport: every model's batch client (and its live provider for the pre-flight), then batch-mode.ts. */
async function runBatch<M>(study: StudyCollection<M>, params: DispatchParams, targets: ResolvedTargets, deps: RunnerDeps): Promise<CollectOutcome> {
  checkBatchModels(params.models);
  const clients = perModel(params.models, (spec) => study.createBatchClient(spec));
  const live = params.noPreflight ? new Map<string, Provider>() : perModel(params.models, (spec) => study.createProvider(spec));
  printRunNotes(targets, deps);
  const settings = modelSettings(params.models, (m) => clients.get(m)!.settings?.());
  printNotes(params.models, (m) => live.get(m) ?? {}, deps.onNote);
  const result = await runBatchCollection<M>({
    ...lifecycleOptions(study, params, targets, deps, settings),
    batchClientFor: (model) => clients.get(model)!,
    ...(params.noPreflight ? { preflight: false } : { preflightProviderFor: (model: string) => live.get(model)! }),
    outputCapFor: (m: string) => outputCapOf(settings?.[m]),
    handler: study.handler(() => false),
    pollIntervalMs: params.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
    ...(params.maxBatchRequests !== undefined ? { maxBatchRequests: params.maxBatchRequests } : {}),
    resubmitCancelled: params.resubmitCancelled,
    runInfo: study.runInfo({ deterministic: false, batch: true, settings }),
  });
  const { submitted, open, ...rest } = result;
  return { ...rest, deterministic: false, batch: { submitted, open } };
}

/** Runs a study's collection live or (`--batch`) through the provider batch APIs. */
export function runStudyCollection<M>(study: StudyCollection<M>, params: DispatchParams, targets: ResolvedTargets, deps: RunnerDeps): Promise<CollectOutcome> {
  return params.batch ? runBatch(study, params, targets, deps) : runLive(study, params, targets, deps);
}

export interface DryRunModelLine {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokensAssumed: number;
  costUsd: number | null;
  costUpperBoundUsd: number | null;
  note?: string;
  /** The simulated respondent: its calls reach no API, so they count no tokens and cost nothing. */
  simulated: boolean;
  /** The longest pending prompt (tokens as estimated, and its cell), for the context-window check; absent when none. */
  largestPrompt?: { runId: string; tokens: number };
}

export interface DryRunReport {
  /** Costs are at batch prices (price × (1 − batch_discount)). */
  batch: boolean;
  total: number;
  /** Cells with a final record that is not `missing` (they are never requested again). */
  alreadyComplete: number;
  /** Cells whose record is `missing` and that this run would not request (no --retry-missing). */
  alreadyMissing: number;
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
 * `--dry-run` of either study: the pending calls of its jobs against the final records already in its
 * store, their tokens and cost, and the catalogue's warnings. Nothing is sent or written.
 */
export function dryRunStudy(
  study: Pick<StudyCollection<unknown>, 'storeDir' | 'jobs' | 'prices'>,
  params: Pick<DispatchParams, 'models' | 'maxOutputTokens' | 'batch' | 'retryMissing'>,
  onEstimated?: EstimateProgress,
): DryRunReport {
  const completed = readCompleted(storePaths(study.storeDir).responses, { tolerateTornTail: true });
  const report = dryRunJobs(study.jobs, completed, params.models, study.prices, params.maxOutputTokens, params.batch === true, params.retryMissing, onEstimated);
  return { ...report, warnings: modelWarnings(params.models) };
}

/** Hears, every tenth of the way, how many of the real models' pending prompts a dry run has built and estimated. */
export type EstimateProgress = (done: number, total: number) => void;

/**
 * Estimates a run without calling anything: the pending calls (jobs without a final record in
 * `completed`), input tokens from the actual prompts (characters / 4), output tokens from the
 * catalogue's typical output per call (else ASSUMED_OUTPUT_TOKENS), and the cost from the price table;
 * the upper bound assumes every call uses the full --max-output-tokens.
 */
export function dryRunJobs(
  jobs: ReadonlyArray<Job<unknown>>,
  completed: ReadonlyMap<string, Record<string, unknown>>,
  models: readonly string[],
  prices: PriceTable,
  maxOutputTokens: number,
  batchMode: boolean,
  retryMissing?: boolean,
  onEstimated?: EstimateProgress,
): DryRunReport {
  const pending = pendingJobs(jobs, completed, retryMissing);
  const alreadyMissing = missingNotRequested(jobs, completed, retryMissing);
  const batch = { batch: batchMode };
  // Building every prompt is what takes the time (~1.2M cells: ~30 s CPU); a tenth of the real models' prompts per report.
  const real = new Set(models.filter((m) => parseModelSpec(m).provider !== 'simulated'));
  const toEstimate = onEstimated ? pending.reduce((n, j) => n + (real.has(j.model) ? 1 : 0), 0) : 0;
  const step = Math.max(1, Math.ceil(toEstimate / 10));
  let estimated = 0;
  const lines: DryRunModelLine[] = models.map((model) => {
    const ofModel = pending.filter((j) => j.model === model);
    if (parseModelSpec(model).provider === 'simulated') {
      return { model, calls: ofModel.length, inputTokens: 0, outputTokensAssumed: 0, costUsd: 0, costUpperBoundUsd: 0, simulated: true };
    }
    let largestPrompt: { runId: string; tokens: number } | undefined;
    const inputTokens = ofModel.reduce((sum, j) => {
      const r = j.request();
      const tokens = estimateTokens(r.system + r.user);
      estimated += 1;
      if (onEstimated && (estimated % step === 0 || estimated === toEstimate)) onEstimated(estimated, toEstimate);
      if (!largestPrompt || tokens > largestPrompt.tokens) largestPrompt = { runId: j.runId, tokens };
      return sum + tokens;
    }, 0);
    const outputTokensAssumed = ofModel.length * assumedOutputTokens(prices, model);
    const cost = estimateCost(prices, model, { inputTokens, outputTokens: outputTokensAssumed }, batch);
    const upper = estimateCost(prices, model, { inputTokens, outputTokens: ofModel.length * maxOutputTokens }, batch);
    return { model, calls: ofModel.length, inputTokens, outputTokensAssumed, costUsd: cost.usd, costUpperBoundUsd: upper.usd, note: cost.note, simulated: false, ...(largestPrompt ? { largestPrompt } : {}) };
  });
  const sum = (f: (l: DryRunModelLine) => number | null): number | null =>
    lines.reduce<number | null>((acc, l) => (acc === null || f(l) === null ? null : roundUsd(acc + f(l)!)), 0);
  return {
    total: jobs.length,
    batch: batchMode,
    alreadyComplete: jobs.length - pending.length - alreadyMissing,
    alreadyMissing,
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
  const rows = report.models.map((l) =>
    l.simulated
      ? `  ${l.model.padEnd(36)} ${String(l.calls).padStart(6)} calls  simulated (no API): no tokens, no cost`
      : `  ${l.model.padEnd(36)} ${String(l.calls).padStart(6)} calls  ${String(l.inputTokens).padStart(10)} in  ${String(l.outputTokensAssumed).padStart(10)} out  ${usd(l.costUsd).padStart(10)}  (≤ ${usd(l.costUpperBoundUsd)})${l.note ? `  ${l.note}` : ''}`,
  );
  const simulatedCalls = report.models.reduce((n, l) => n + (l.simulated ? l.calls : 0), 0);
  const calls = simulatedCalls > 0 ? `${report.calls - simulatedCalls} API calls and ${simulatedCalls} simulated (no API)` : `${report.calls} calls`;
  return [
    `Dry run: ${calls} (${report.total} cells in the design, ${report.alreadyComplete} already complete${report.alreadyMissing > 0 ? `, ${report.alreadyMissing} missing (--retry-missing requests them)` : ''}). Nothing was sent or written.`,
    ...rows,
    `  total: ${report.inputTokens} input tokens (prompt characters / 4), ${report.outputTokensAssumed} output tokens (per call: the catalogue's typical output of the model, else ${ASSUMED_OUTPUT_TOKENS})`,
    `  estimated cost ${usd(report.costUsd)}; upper bound at --max-output-tokens on every call ${usd(report.costUpperBoundUsd)}${report.batch ? ' (batch prices: batch_discount from the price table applied)' : ''}`,
    ...report.warnings.map((w) => `  WARNING: ${w}`),
    '',
  ].join('\n');
}
