import { existsSync } from 'node:fs';
import { writeFileAtomic } from '../io/atomic';
import { readJsonFile } from '../io/json';
import { InputError } from '../errors';
import type { ZodType } from 'zod';
import { AttemptLineSchema, EventLineSchema } from '../records/attempt';
import { RunFileSchema } from '../records/run-file';
import { CircuitBreaker, defaultRemedy, type BreakerFailure, type BreakerTrip } from './circuit-breaker';
import { estimateCost, roundUsd, type CostEstimate, type PriceTable } from './prices';
import { silentProgress, type ProgressSink } from './progress';
import type { CompletionRequest, CompletionResult } from '../provider/contract';
import { makeRedactor, type Redactor } from './redact';
import { checkFingerprint, NEW_OUT_DIR_FIX } from './fingerprint';
import { DEFAULT_RETRY_POLICY, type ErrorClass, type RetryPolicy } from './retry';
import { Appender, acquireLock, readCompleted, repairTail, storePaths, type StorePaths, type TailRepair } from './store';

/**
 * The one run lifecycle of the collector, shared by both transports (the live worker pool in
 * engine.ts, the provider batch APIs in batch-mode.ts):
 *
 *   lock → run.json read + fingerprint check → torn tails repaired → final records read (resume) →
 *   run.json `running` → the transport moves cells → summary: run_end event, derived files,
 *   run.json with the final status → lock released.
 *
 * It owns what a run *is*: the stop rules (quota, interrupt, write failure), the circuit breaker
 * and the final status. A run ends
 * - `quota_stopped` / `interrupted` when a stop was requested;
 * - `failed` when a model's breaker opened, a cell failed deterministically (those cells keep no
 *   record and are requested again next time), every cell this run finished is `missing`, every
 *   cell of the design is `missing` (a re-run with nothing to request), or the files could not be
 *   written;
 * - `complete` only when every cell of the design has a final record and none of the above holds.
 * If anything throws after run.json said `running`, run.json is rewritten `failed` with the reason.
 */

export interface Job<M = unknown> {
  runId: string;
  /** Model spec `provider:model`; chooses the provider and the price. */
  model: string;
  /** Builds the request body; the engine adds runId, maxOutputTokens and timeoutMs. */
  request(): Omit<CompletionRequest, 'runId' | 'maxOutputTokens' | 'timeoutMs'>;
  meta: M;
}

export type CellOutcome =
  | { kind: 'response'; result: CompletionResult; attempts: number; costUsd: number | null; costNote?: string }
  | {
      kind: 'missing';
      errorClass: ErrorClass;
      reason: string;
      attempts: number;
      costUsd: number | null;
      costNote?: string;
    };

export interface ResultHandler<M = unknown> {
  /** Builds the final record for `job`. Must contain `run_id` and a string `status`. */
  finalRecord(job: Job<M>, request: CompletionRequest, outcome: CellOutcome): Record<string, unknown>;
  /** The record schema (lib/records) every final record is checked against before it is written. */
  recordSchema?: ZodType;
}

/** `incomplete`: every cell has a record, but some are `missing` (own exit code; resume with --retry-missing). */
export type RunStatus = 'running' | 'complete' | 'incomplete' | 'quota_stopped' | 'interrupted' | 'failed';

export type Stop = { status: 'quota_stopped' | 'failed' | 'interrupted'; reason: string; remedy?: string };

/** Usage as providers report it (the optional fields only when the provider returns them). */
export type Usage = NonNullable<CompletionResult['usage']> & { cachedInputTokens?: number; reasoningTokens?: number };

/** Prices one attempt's usage; default: the catalogue config/models.json through `estimateCost` (cached input at its own rate). */
export type CostOf = (model: string, usage: Usage, options: { batch?: boolean }) => CostEstimate;

/** What both transports are given. */
export interface LifecycleOptions<M> {
  dir: string;
  /** All jobs of the design, in dispatch order. Completed ones are skipped. */
  jobs: ReadonlyArray<Job<M>>;
  handler: ResultHandler<M>;
  maxOutputTokens: number;
  timeoutMs: number;
  /** Seed for backoff jitter (recorded in run.json by the caller's `runInfo`). */
  seed: string;
  prices: PriceTable;
  /** Overrides the price lookup (e.g. a model catalogue with cached-input rates). */
  costOf?: CostOf;
  retry?: Partial<RetryPolicy>;
  deterministic?: boolean;
  /** Parameters and design facts for run.json. */
  runInfo: Record<string, unknown>;
  /**
   * Fields that must equal those in an existing run.json for a resume to be allowed (e.g. models,
   * conditions, seed, settings): a changed design must not be mixed into old files.
   */
  fingerprint: Record<string, unknown>;
  /** Every setting that defines a cell of `model` (API, sampling, effort, thinking, cap), written into each final record. */
  settingsFor?(model: string): Record<string, unknown> | undefined;
  /** Called with all final records (file order) at the end of every run, e.g. to write extracted.jsonl. */
  finalize?(records: ReadonlyArray<Record<string, unknown>>, paths: StorePaths): void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => Date;
  clockMs?: () => number;
  redact?: Redactor;
  /** Makes the progress display once the design size and resumed count are known. */
  progress?: (total: number, initialDone: number) => ProgressSink;
  /** Aborting it (e.g. on SIGINT) stops dispatch; in-flight calls finish; status `interrupted`. */
  interrupt?: AbortSignal;
  /**
   * `--retry-missing`: cells whose latest final record is `missing` are requested again; the new
   * record supersedes the old one (see `readCompleted`) and carries `supersedes_missing: true`.
   */
  retryMissing?: boolean;
  /** Identical deterministic failures that stop a model's queue (default 3). */
  breakerThreshold?: number;
  /**
   * The fix named when the store holds another design (fingerprint, foreign records, foreign batches):
   * `kstbench collect`'s NEW_OUT_DIR_FIX by default; `kstbench study` has no --out and passes its own.
   */
  otherDesignFix?: string;
  /**
   * The fix named when the pre-flight's answer is still cut off: preflight.ts's CUT_OFF_FIX (the
   * collect commands' flags) by default; `kstbench study` has none of those flags and passes its own.
   */
  cutOffFix?: string;
}

export interface EngineResult {
  status: Exclude<RunStatus, 'running'>;
  total: number;
  /** Cells that already had a final record when the run started (and are not requested again). */
  resumed: number;
  /** Of `resumed`, the cells whose record is `missing` (no answer yet; `--retry-missing` requests them). */
  resumedMissing: number;
  /** Final records written by this run, by status. */
  written: Record<string, number>;
  /** Cells still without a final record. */
  pending: number;
  /** Attempts made by this run, simulated ones included (run.json's `attempts`). */
  attempts: number;
  /** Of `attempts`, those answered by the simulated respondent: no API was called. */
  simulatedAttempts: number;
  /** Estimated cost of this run's attempts (null if some model has no price). */
  costUsd: number | null;
  /** Transport faults (resets, cut bodies, DNS/connect failures) met and retried, counted apart from deterministic failures. */
  transportFaults?: number;
  reason?: string;
  /** With status `failed`: the one-line fix to print next to the reason. */
  remedy?: string;
  /** Models whose queue the circuit breaker stopped. */
  breakerTrips?: BreakerTrip[];
  /** Torn last lines a killed earlier run left, repaired before this run read its files (the resume says so). */
  tornRepairs?: Array<{ file: string } & Exclude<TailRepair, { kind: 'clean' }>>;
  paths: StorePaths;
}

/** The run as a transport sees it. */
export interface RunContext<M> {
  readonly options: LifecycleOptions<M>;
  readonly paths: StorePaths;
  readonly deterministic: boolean;
  readonly policy: RetryPolicy;
  readonly jobsById: ReadonlyMap<string, Job<M>>;
  /** Jobs to request, in dispatch order (computed at start). */
  readonly pending: ReadonlyArray<Job<M>>;
  /** run_id → latest final record; kept current as this run writes records. */
  readonly completed: Map<string, Record<string, unknown>>;
  readonly attemptsLog: Appender;
  readonly responsesLog: Appender;
  readonly breaker: CircuitBreaker;
  /** Scrubs secrets from a line before it is written (every file of the store). */
  readonly redact: Redactor;
  /** Fires when a stop is requested (interrupt, quota, failure). */
  readonly stopSignal: AbortSignal;
  readonly stopped: Stop | null;
  requestStop(stop: Stop): void;
  /** ISO time, or null in deterministic mode. */
  stamp(): string | null;
  event(name: string, detail?: Record<string, unknown>): Promise<void>;
  /** Sleep that ends early when the run is stopped. */
  sleep(ms: number): Promise<void>;
  clockMs(): number;
  /** The request sent for `job` (under `runId`, e.g. a batch custom_id). */
  requestFor(job: Job<M>, runId?: string): CompletionRequest;
  costOf: CostOf;
  /** The final record as written: handler record, `extra`, settings, supersede mark, completion time. */
  finalFor(job: Job<M>, request: CompletionRequest, outcome: CellOutcome, extra?: Record<string, unknown>): Record<string, unknown>;
  /** Counts a final record once it is queued for writing (status tally, progress, resume map). */
  countFinal(record: Record<string, unknown>): void;
  /** Counts attempts of this run; `simulated` ones called no API (the simulated respondent). */
  countAttempts(n: number, simulated?: boolean): void;
  /** Checks an attempt line against its schema (lib/records/attempt.ts) before it is written. */
  checkAttempt(line: Record<string, unknown>): void;
  addCost(usd: number | null): void;
  /**
   * A cell failed deterministically: it gets no record (stays re-requestable), the run will end
   * `failed`, and the breaker counts it (returns the trip if it opened the model's breaker).
   */
  deterministicFailure(job: Job<M>, failure: BreakerFailure): Promise<BreakerTrip | null>;
  /** A cell that ends without a record for a reason that is not its own (the run will end `failed`). */
  cellUnfinished(job: Job<M>, failure: BreakerFailure): void;
  /** Counts a transport fault (reset, cut body, DNS/connect): retried like a 5xx, never by the breaker, reported apart. */
  countTransportFault(): void;
}

export interface Transport<M> {
  /** Extra JSONL files whose torn tails are repaired on start (label, path). */
  extraFiles?(paths: StorePaths): Array<[label: string, file: string]>;
  /** Checks and events after resume data is read and before `run_start` (may throw InputError). */
  beforeStart?(ctx: RunContext<M>): Promise<void>;
  /** The `run_start` event's detail. */
  startDetail?(base: Record<string, unknown>, ctx: RunContext<M>): Record<string, unknown>;
  /** Moves the pending cells; returns when done or stopped. */
  run(ctx: RunContext<M>): Promise<void>;
  /** Extra fields for run_end and run.json's result (e.g. open batches). */
  endDetail?(ctx: RunContext<M>): Record<string, unknown>;
}

/** Sleep that ends early (resolves) when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Reads an earlier run.json (null when absent); InputError naming the file (and the field) when it is not a run file. */
export function readRunJson(file: string): Record<string, unknown> | null {
  if (!existsSync(file)) return null;
  return readJsonFile(file, RunFileSchema) as Record<string, unknown>;
}

/**
 * The jobs still to request: those without a final record, plus (with `retryMissing`) those whose
 * latest final record has status `missing`. Keeps the dispatch order of `jobs`.
 */
export function pendingJobs<J extends { runId: string }>(
  jobs: ReadonlyArray<J>,
  completed: ReadonlyMap<string, Record<string, unknown>>,
  retryMissing = false,
): J[] {
  return jobs.filter((j) => {
    const record = completed.get(j.runId);
    return record === undefined || (retryMissing && record.status === 'missing');
  });
}

/**
 * How many jobs pendingJobs leaves out although their latest final record is `missing` (recorded,
 * with no answer): all such jobs without `retryMissing`, none with it.
 */
export function missingNotRequested(
  jobs: ReadonlyArray<{ runId: string }>,
  completed: ReadonlyMap<string, Record<string, unknown>>,
  retryMissing = false,
): number {
  return retryMissing ? 0 : jobs.filter((j) => completed.get(j.runId)?.status === 'missing').length;
}

/** Refuses final records that belong to no job of this design (a different study in the same --out). */
export function checkNoForeignRecords(
  responsesFile: string,
  completed: ReadonlyMap<string, unknown>,
  jobs: ReadonlyArray<{ runId: string }>,
  fix: string = NEW_OUT_DIR_FIX,
): void {
  const jobIds = new Set(jobs.map((j) => j.runId));
  const foreign = [...completed.keys()].filter((id) => !jobIds.has(id));
  if (foreign.length > 0) {
    throw new InputError(
      `${responsesFile}: ${foreign.length} final record(s) belong to no cell of this design (first: ${foreign[0]}); ${fix}`,
      { file: responsesFile, item: foreign[0] },
    );
  }
}

/** Refuses a design with no cell (nothing to do would otherwise write a run.json that poisons the next run). */
export class EmptyDesignError extends InputError {}

/** Refuses two jobs with one run ID (the cell would be billed twice and the directory become unusable). */
export function checkUniqueJobs(jobs: ReadonlyArray<{ runId: string; model: string }>, describe: (runId: string) => string = (id) => id): void {
  const seen = new Map<string, string>();
  for (const j of jobs) {
    const other = seen.get(j.runId);
    if (other !== undefined) {
      throw new InputError(
        `duplicate design cell ${describe(j.runId)}${other !== j.model ? ` (models ${other} and ${j.model} map to the same run ID)` : ' (an entry listed twice?)'}`,
        { item: j.runId },
      );
    }
    seen.set(j.runId, j.model);
  }
}

/**
 * Reads a thrown value as a transport failure. Anything that is not a ProviderError is `unknown` (not
 * retried). `deterministic` and `remedy` come from ProviderError.info when the provider sets them.
 */
export interface Failure {
  errorClass: ErrorClass;
  message: string;
  httpStatus?: number;
  retryAfterMs?: number;
  code?: string;
  requestId?: string;
  deterministic?: boolean;
  /** The server's `x-should-retry` header (wins over the class, both ways). */
  shouldRetry?: boolean;
  /** False when a timed-out request never started at the server (a stream with no message_start): not billed. */
  started?: boolean;
  /** A transport fault (reset, a body cut after its headers, DNS or connect failure): retried, counted apart. */
  transportFault?: boolean;
  remedy?: string;
}

export function classify(err: unknown): Failure {
  const e = err as { name?: string; errorClass?: string; info?: Record<string, unknown>; message?: string };
  if (e && e.name === 'ProviderError' && typeof e.errorClass === 'string') {
    const info = e.info ?? {};
    return {
      errorClass: e.errorClass as ErrorClass,
      message: String(e.message ?? ''),
      httpStatus: typeof info.httpStatus === 'number' ? info.httpStatus : undefined,
      retryAfterMs: typeof info.retryAfterMs === 'number' && info.retryAfterMs >= 0 ? info.retryAfterMs : undefined,
      code: typeof info.code === 'string' ? info.code : undefined,
      requestId: typeof info.requestId === 'string' ? info.requestId : undefined,
      ...(typeof info.deterministic === 'boolean' ? { deterministic: info.deterministic } : {}),
      ...(typeof info.shouldRetry === 'boolean' ? { shouldRetry: info.shouldRetry } : {}),
      ...(info.started === false ? { started: false } : {}),
      ...(e.errorClass === 'connection' ? { transportFault: true } : {}),
      ...(typeof info.remedy === 'string' && info.remedy !== '' ? { remedy: info.remedy } : {}),
    };
  }
  if (e && e.name === 'AbortError') return { errorClass: 'timeout', message: String(e.message ?? 'aborted') };
  return { errorClass: 'unknown', message: String((err as Error)?.message ?? err) };
}

/**
 * Checks a record against its schema before it is written (the writer side of the lib/records
 * contract). A failure is our bug, not the user's: the message names the record kind and the field.
 */
export function checkRecord(schema: ZodType, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`internal: ${what} does not match its schema at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
}

function fileLabel(file: string, paths: StorePaths): string {
  return file === paths.attempts ? 'attempts.jsonl' : file === paths.responses ? 'responses.jsonl' : file;
}

/** The fixed facts of one run, from its options: where it writes, its clocks, its retry policy and prices. */
interface RunSetup {
  paths: StorePaths;
  deterministic: boolean;
  redact: Redactor;
  stamp(): string | null;
  clockMs(): number;
  sleepFn(ms: number, signal: AbortSignal): Promise<void>;
  policy: RetryPolicy;
  costOf: CostOf;
}

function runSetup<M>(options: LifecycleOptions<M>): RunSetup {
  const deterministic = options.deterministic === true;
  const wallNow = options.now ?? (() => new Date());
  return {
    paths: storePaths(options.dir),
    deterministic,
    redact: options.redact ?? makeRedactor(),
    stamp: () => (deterministic ? null : wallNow().toISOString()),
    clockMs: options.clockMs ?? (() => performance.now()),
    sleepFn: options.sleep ?? abortableSleep,
    policy: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    costOf: options.costOf ?? ((model, usage, o) => estimateCost(options.prices, model, usage, o)),
  };
}

/** The run's files: the two logs, run.json and the events; run.json remembers whether it said `running`. */
class RunFiles<M> {
  attemptsLog: Appender | null = null;
  responsesLog: Appender | null = null;
  startedAt: string | null = null;
  runningWritten = false;

  constructor(
    private readonly options: LifecycleOptions<M>,
    private readonly setup: RunSetup,
  ) {}

  writeRun(status: RunStatus, extra: Record<string, unknown> = {}): void {
    const run = { ...this.options.runInfo, fingerprint: this.options.fingerprint, status, started_at: this.startedAt, ...extra };
    checkRecord(RunFileSchema, run, 'run.json');
    writeFileAtomic(this.setup.paths.run, `${this.setup.redact(JSON.stringify(run, null, 2))}\n`);
  }

  openAttempts(): Appender {
    this.attemptsLog = new Appender(this.setup.paths.attempts, this.setup.redact);
    return this.attemptsLog;
  }

  readonly event = async (name: string, detail: Record<string, unknown> = {}): Promise<void> => {
    const line = { type: 'event', event: name, at: this.setup.stamp(), ...detail };
    checkRecord(EventLineSchema, line, 'attempts.jsonl event');
    await this.attemptsLog!.append(line);
  };

  /** After a failure: run.json must not keep saying `running` (or an earlier status). */
  markFailed(err: unknown): void {
    if (!this.runningWritten) return;
    try {
      this.writeRun('failed', { finished_at: this.setup.stamp(), result: { reason: (err as Error)?.message ?? String(err) } });
    } catch {
      /* the disk that failed the run may fail this too; the error thrown by the run says what happened */
    }
  }

  async close(): Promise<void> {
    await this.attemptsLog?.close().catch(() => undefined);
    await this.responsesLog?.close().catch(() => undefined);
  }
}

/** Repairs torn tails before anything is read (attempts first: its repair is itself logged there). */
async function repairTornTails<M>(paths: StorePaths, transport: Transport<M>, event: RunFiles<M>['event']): Promise<NonNullable<EngineResult['tornRepairs']>> {
  const repairs: NonNullable<EngineResult['tornRepairs']> = [];
  const files: Array<[string, string]> = [
    [fileLabel(paths.attempts, paths), paths.attempts],
    [fileLabel(paths.responses, paths), paths.responses],
    ...(transport.extraFiles?.(paths) ?? []),
  ];
  for (const [label, file] of files) {
    const repair = repairTail(file, paths.torn);
    if (repair.kind === 'clean') continue;
    await event('torn_tail_repaired', { file: label, ...repair, tornFile: undefined });
    repairs.push({ file: label, ...repair });
  }
  return repairs;
}

/** What the run counts while the transport works: the stop, the tallies, the cost, the deterministic failures. */
class RunTally {
  stop: Stop | null = null;
  readonly stopController = new AbortController();
  readonly deterministicFailures = new Map<string, BreakerFailure & { model: string }>();
  readonly written: Record<string, number> = {};
  readonly finishedThisRun = new Set<string>();
  attemptCount = 0;
  simulatedAttempts = 0;
  transportFaults = 0;
  costUsd: number | null = 0;
  progress: ProgressSink = silentProgress;

  constructor(
    public done: number,
    private readonly pendingIds: ReadonlySet<string>,
  ) {}

  requestStop(s: Stop): void {
    if (this.stop) return;
    this.stop = s;
    this.stopController.abort();
  }

  /** Counts a final record once it is queued for writing (status tally, progress, resume map). */
  countFinal(completed: Map<string, Record<string, unknown>>, record: Record<string, unknown>): void {
    const runId = record.run_id as string;
    completed.delete(runId);
    completed.set(runId, record);
    const status = String(record.status);
    this.written[status] = (this.written[status] ?? 0) + 1;
    if (!this.finishedThisRun.has(runId) && this.pendingIds.has(runId)) this.done += 1;
    this.finishedThisRun.add(runId);
    this.deterministicFailures.delete(runId);
    this.progress.update({ done: this.done, costUsd: this.costUsd });
  }

  addCost(usd: number | null): void {
    this.costUsd = this.costUsd === null || usd === null ? null : roundUsd(this.costUsd + usd);
  }
}

/** What the transport is given: the run's facts and the callbacks that count and stop it. */
function runContext<M>(
  options: LifecycleOptions<M>,
  setup: RunSetup,
  files: RunFiles<M>,
  tally: RunTally,
  resume: { pending: ReadonlyArray<Job<M>>; completed: Map<string, Record<string, unknown>> },
): RunContext<M> {
  const { completed } = resume;
  const breaker = new CircuitBreaker(options.breakerThreshold);
  return {
    options,
    paths: setup.paths,
    deterministic: setup.deterministic,
    policy: setup.policy,
    jobsById: new Map(options.jobs.map((j) => [j.runId, j])),
    pending: resume.pending,
    completed,
    attemptsLog: files.attemptsLog!,
    get responsesLog() {
      return files.responsesLog!;
    },
    breaker,
    redact: setup.redact,
    stopSignal: tally.stopController.signal,
    get stopped() {
      return tally.stop;
    },
    requestStop: (s) => tally.requestStop(s),
    stamp: setup.stamp,
    event: files.event,
    sleep: (ms) => setup.sleepFn(ms, tally.stopController.signal),
    clockMs: setup.clockMs,
    requestFor: (job, runId = job.runId) => ({ ...job.request(), runId, maxOutputTokens: options.maxOutputTokens, timeoutMs: options.timeoutMs }),
    costOf: setup.costOf,
    finalFor: (job, request, outcome, extra = {}) => finalRecordFor(options, setup, completed, { job, request, outcome, extra }),
    checkAttempt: (line) => checkRecord(AttemptLineSchema, line, 'attempts.jsonl attempt'),
    countFinal: (record) => tally.countFinal(completed, record),
    countAttempts(n, simulated = false) {
      tally.attemptCount += n;
      if (simulated) tally.simulatedAttempts += n;
    },
    addCost: (usd) => tally.addCost(usd),
    async deterministicFailure(job, failure) {
      tally.deterministicFailures.set(job.runId, { ...failure, model: job.model });
      const trip = breaker.recordDeterministic(job.model, failure);
      if (trip) await files.event('circuit_open', { ...trip });
      return trip;
    },
    cellUnfinished(job, failure) {
      tally.deterministicFailures.set(job.runId, { ...failure, model: job.model });
    },
    countTransportFault() {
      tally.transportFaults += 1;
    },
  };
}

/** The final record as written: handler record, `extra`, settings, supersede mark, completion time (checked against its schema). */
function finalRecordFor<M>(
  options: LifecycleOptions<M>,
  setup: RunSetup,
  completed: ReadonlyMap<string, Record<string, unknown>>,
  cell: { job: Job<M>; request: CompletionRequest; outcome: CellOutcome; extra: Record<string, unknown> },
): Record<string, unknown> {
  const { job } = cell;
  const settings = options.settingsFor?.(job.model);
  const record = {
    ...options.handler.finalRecord(job, cell.request, cell.outcome),
    ...cell.extra,
    ...(settings !== undefined ? { settings } : {}),
    ...(completed.get(job.runId)?.status === 'missing' ? { supersedes_missing: true } : {}),
    completed_at: setup.stamp(),
  };
  if (options.handler.recordSchema) checkRecord(options.handler.recordSchema, record, 'final record');
  return record;
}

/** The facts the final status is read from. */
interface RunEnd {
  stop: Stop | null;
  trips: BreakerTrip[];
  deterministicFailures: ReadonlyMap<string, BreakerFailure & { model: string }>;
  written: Readonly<Record<string, number>>;
  /** Final records on disk now (one per cell). */
  records: ReadonlyArray<Record<string, unknown>>;
  total: number;
  /** Cells of the stopped models still without a record. */
  cellsOfTrippedModels: number;
}

type StatusVerdict = { status: EngineResult['status']; reason?: string; remedy?: string };

/**
 * The run's final status, by the rules of the module comment, first match wins: a requested stop; a
 * breaker that opened; a deterministic failure; every finished cell `missing`; cells still pending
 * (interrupted); every cell `missing` (failed); some `missing` (incomplete); else complete.
 */
export function finalStatus(end: RunEnd): StatusVerdict {
  const { stop, trips, deterministicFailures, written, records, total } = end;
  if (stop) return { status: stop.status, reason: stop.reason, remedy: stop.remedy };
  if (trips.length > 0) {
    const t = trips[0]!;
    const reason =
      `${t.model}: stopped after ${t.count} identical ${t.errorClass} failures (${t.message}); its ${end.cellsOfTrippedModels} remaining cell(s) keep no record` +
      (trips.length > 1 ? `; also stopped: ${trips.slice(1).map((x) => x.model).join(', ')}` : '');
    return { status: 'failed', reason, remedy: t.remedy };
  }
  if (deterministicFailures.size > 0) {
    const [first] = deterministicFailures.values();
    // A cell held because it never reached a server (decide.ts `never_connected`) was retried: say so.
    const after = first!.errorClass === 'connection' ? 'connection failures that never reached a server, retried until the retries ran out' : `a ${first!.errorClass} failure that retrying does not fix`;
    return {
      status: 'failed',
      reason: `${deterministicFailures.size} cell(s) ended without a record after ${after} (first: ${first!.model}: ${first!.message}); they are requested again on the next run`,
      remedy: first!.remedy ?? defaultRemedy(first!.model, first!),
    };
  }
  const finishedStatuses = Object.entries(written).filter(([, n]) => n > 0).map(([s]) => s);
  if (finishedStatuses.length > 0 && finishedStatuses.every((s) => s === 'missing')) {
    return {
      status: 'failed',
      reason: `every one of the ${written.missing} cells finished by this run is missing (no call succeeded)`,
      remedy: 'see attempts.jsonl for the errors; fix the cause, then re-run with --retry-missing',
    };
  }
  if (total - records.length > 0) return { status: 'interrupted' };
  // Every cell has a record, but some are `missing` (retries or the horizon ran out): not complete.
  const missing = records.filter((r) => r.status === 'missing').length;
  if (missing === 0) return { status: 'complete' };
  // A re-run that finds every cell missing (no call ever succeeded) writes nothing new; the
  // collection still has no answer at all, so it stays `failed`, not merely incomplete.
  if (missing === total) {
    return {
      status: 'failed',
      reason: `every one of the ${total} cells is missing (no call has succeeded yet)`,
      remedy: 'see attempts.jsonl for the errors; fix the cause, then re-run with --retry-missing',
    };
  }
  return {
    status: 'incomplete',
    reason: `${missing} of ${total} cell(s) are missing (no answer within the retry horizon)`,
    remedy: 're-run the same command with --retry-missing to request them again',
  };
}

/** Resume data: the final records on disk, the cells still to request, and the counts of run_start. */
function readResume<M>(options: LifecycleOptions<M>, paths: StorePaths) {
  const completed = readCompleted(paths.responses);
  checkNoForeignRecords(paths.responses, completed, options.jobs, options.otherDesignFix);
  const pending = pendingJobs(options.jobs, completed, options.retryMissing);
  const supersedeCount = pending.filter((j) => completed.has(j.runId)).length;
  const resumedMissing = missingNotRequested(options.jobs, completed, options.retryMissing);
  return { completed, pending, supersedeCount, total: options.jobs.length, resumed: options.jobs.length - pending.length, resumedMissing };
}

/** Runs one collection through `transport`; see the module comment for the lifecycle. */
export async function runLifecycle<M>(options: LifecycleOptions<M>, transport: Transport<M>): Promise<EngineResult> {
  const setup = runSetup(options);
  if (options.jobs.length === 0) throw new EmptyDesignError(`${options.dir}: the design has no cell (nothing would be collected); check the models, conditions, scenarios and domains`, { file: options.dir });
  checkUniqueJobs(options.jobs);
  const release = acquireLock(setup.paths.lock);
  const files = new RunFiles(options, setup);
  try {
    const previous = readRunJson(setup.paths.run);
    checkFingerprint(setup.paths.run, previous, options.fingerprint, options.otherDesignFix);
    files.openAttempts();
    const tornRepairs = await repairTornTails(setup.paths, transport, files.event);
    const resume = readResume(options, setup.paths);
    const tally = new RunTally(resume.resumed, new Set(resume.pending.map((j) => j.runId)));
    const ctx = runContext(options, setup, files, tally, resume);
    if (previous && previous.status === 'running') await files.event('previous_run_ended_without_status', { previous_started_at: previous.started_at ?? null });
    await transport.beforeStart?.(ctx);
    const base = { total: resume.total, resumed: resume.resumed, pending: resume.pending.length, ...(options.retryMissing ? { retry_missing: resume.supersedeCount } : {}) };
    await files.event('run_start', transport.startDetail ? transport.startDetail(base, ctx) : base);
    files.startedAt = setup.stamp();
    files.writeRun('running', { finished_at: null });
    files.runningWritten = true;
    files.responsesLog = new Appender(setup.paths.responses, setup.redact);
    tally.progress = options.progress ? options.progress(resume.total, resume.resumed) : silentProgress;
    tally.progress.update({ done: tally.done, costUsd: tally.costUsd });
    await runTransport(options, transport, ctx, tally);
    await files.attemptsLog!.drain();
    await files.responsesLog.drain();
    tally.progress.finish();
    const result = await summarize(options, transport, files, tally, ctx, resume);
    return tornRepairs.length > 0 ? { ...result, tornRepairs } : result;
  } catch (err) {
    files.markFailed(err);
    throw err;
  } finally {
    await files.close();
    release();
  }
}

/** The transport moves the cells; an interrupt (SIGINT) meanwhile is a stop `interrupted`. */
async function runTransport<M>(options: LifecycleOptions<M>, transport: Transport<M>, ctx: RunContext<M>, tally: RunTally): Promise<void> {
  const onInterrupt = () => tally.requestStop({ status: 'interrupted', reason: 'interrupted by signal' });
  if (options.interrupt?.aborted) onInterrupt();
  options.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  try {
    await transport.run(ctx);
  } finally {
    options.interrupt?.removeEventListener('abort', onInterrupt);
  }
}

/** The end of a run: its status, the run_end event, the derived files, run.json, and the result. */
async function summarize<M>(
  options: LifecycleOptions<M>,
  transport: Transport<M>,
  files: RunFiles<M>,
  tally: RunTally,
  ctx: RunContext<M>,
  resume: { total: number; resumed: number; resumedMissing: number; completed: ReadonlyMap<string, unknown> },
): Promise<EngineResult> {
  const { total, resumed, resumedMissing, completed } = resume;
  const { paths } = ctx;
  const records = [...readCompleted(paths.responses).values()];
  const stillPending = total - records.length;
  const trips = ctx.breaker.trips();
  const cellsOfTrippedModels = options.jobs.filter((j) => !completed.has(j.runId) && trips.some((x) => x.model === j.model)).length;
  const { status, reason, remedy } = finalStatus({ stop: tally.stop, trips, deterministicFailures: tally.deterministicFailures, written: tally.written, records, total, cellsOfTrippedModels });
  const { written, attemptCount: attempts, costUsd, transportFaults } = tally;
  const extra = transport.endDetail?.(ctx) ?? {};
  const why = { reason: reason ?? null, ...(remedy ? { remedy } : {}) };
  await ctx.event('run_end', { status, written, attempts, pending: stillPending, ...extra, ...why });
  options.finalize?.(records, paths);
  files.writeRun(status, {
    finished_at: ctx.stamp(),
    result: {
      total,
      resumed,
      written,
      pending: stillPending,
      attempts,
      cost_usd_this_run: costUsd,
      ...(transportFaults > 0 ? { transport_faults: transportFaults } : {}),
      ...extra,
      ...why,
      ...(trips.length > 0 ? { circuit_open: trips } : {}),
    },
  });
  return {
    status,
    total,
    resumed,
    resumedMissing,
    written,
    pending: stillPending,
    attempts,
    simulatedAttempts: tally.simulatedAttempts,
    costUsd,
    transportFaults,
    reason,
    ...(remedy ? { remedy } : {}),
    ...(trips.length > 0 ? { breakerTrips: trips } : {}),
    paths,
  };
}
