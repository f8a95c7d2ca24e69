import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../io/atomic';
import { InputError } from '../errors';
import type { CompletionRequest, CompletionResult, Provider } from './providers/types';
import { ASSUMED_OUTPUT_TOKENS, estimateCost, estimateTokens, roundUsd, type PriceTable } from './prices';
import { silentProgress, type ProgressSink } from './progress';
import { makeRedactor, type Redactor } from './redact';
import {
  DEFAULT_RETRY_POLICY,
  decideAfterFailure,
  jitterDraw,
  type ErrorClass,
  type RetryPolicy,
} from './retry';
import { Appender, acquireLock, readCompleted, repairTail, storePaths, type StorePaths } from './store';

/**
 * The generic, resumable collection engine. It knows nothing about KST: a study supplies jobs (a run
 * ID, a model spec and a request builder) and a result handler that turns the provider's answer into
 * the final record. The engine owns transport: concurrency, retries with seeded backoff, quota stops,
 * the audit log, resume and cost.
 *
 * Guarantees
 * - every job ends with at most one final record in responses.jsonl, and a job with a final record is
 *   never requested again (resume reads responses.jsonl first) — except that `retryMissing` asks for
 *   `missing` ones again, whose new record then supersedes the old (last record per run_id wins);
 * - every API attempt and transport event is appended to attempts.jsonl before the next step;
 * - invalid output is a result (the handler's business), never retried; transport failures are retried,
 *   and when retries are exhausted the final record is a `missing` one (technical missingness);
 * - quota errors stop dispatch, let in-flight calls finish and end with status `quota_stopped`; the
 *   affected cells have no final record, so re-running the same command resumes them.
 *
 * Deterministic mode (all providers simulated): timestamps and latencies are written as null (a
 * logical clock: the record's position is its time), and records are committed in job order through a
 * reorder buffer, so an uninterrupted run gives byte-identical files whatever the concurrency.
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
}

export type RunStatus = 'running' | 'complete' | 'quota_stopped' | 'interrupted' | 'failed';

export interface EngineOptions<M> {
  dir: string;
  /** All jobs of the design, in dispatch order. Completed ones are skipped. */
  jobs: ReadonlyArray<Job<M>>;
  providerFor(model: string): Provider;
  handler: ResultHandler<M>;
  concurrency: number;
  maxOutputTokens: number;
  timeoutMs: number;
  /** Seed for backoff jitter (recorded in run.json by the caller's `runInfo`). */
  seed: string;
  prices: PriceTable;
  retry?: Partial<RetryPolicy>;
  deterministic?: boolean;
  /** Parameters and design facts for run.json. */
  runInfo: Record<string, unknown>;
  /**
   * Fields that must equal those in an existing run.json for a resume to be allowed (e.g. models,
   * conditions, seed): a changed design must not be mixed into old files.
   */
  fingerprint: Record<string, unknown>;
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
}

export interface EngineResult {
  status: Exclude<RunStatus, 'running'>;
  total: number;
  /** Cells that already had a final record when the run started. */
  resumed: number;
  /** Final records written by this run, by status. */
  written: Record<string, number>;
  /** Cells still without a final record. */
  pending: number;
  /** API attempts made by this run. */
  attempts: number;
  /** Estimated cost of this run's attempts (null if some model has no price). */
  costUsd: number | null;
  reason?: string;
  paths: StorePaths;
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

/** Reads an earlier run.json (null when absent); InputError naming the file when it is not JSON. */
export function readRunJson(file: string): Record<string, unknown> | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new InputError(`${file}: not valid JSON (${(err as Error).message})`, { file });
  }
}

/** Compares the design-defining parameters with those of an earlier run in the same directory. */
export function checkFingerprint(file: string, previous: Record<string, unknown> | null, now: Record<string, unknown>): void {
  const before = previous?.fingerprint as Record<string, unknown> | undefined;
  if (!before) return;
  for (const key of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const a = JSON.stringify(before[key]);
    const b = JSON.stringify(now[key]);
    if (a !== b) {
      throw new InputError(
        `${file}: this directory holds a run with ${key}=${a}, but this command has ${key}=${b}; ` +
          'resume with the same parameters or use a new --out directory',
        { file, item: key },
      );
    }
  }
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

/** Refuses final records that belong to no job of this design (a different study in the same --out). */
export function checkNoForeignRecords(
  responsesFile: string,
  completed: ReadonlyMap<string, unknown>,
  jobs: ReadonlyArray<{ runId: string }>,
): void {
  const jobIds = new Set(jobs.map((j) => j.runId));
  const foreign = [...completed.keys()].filter((id) => !jobIds.has(id));
  if (foreign.length > 0) {
    throw new InputError(
      `${responsesFile}: ${foreign.length} final record(s) belong to no cell of this design (first: ${foreign[0]}); use a new --out directory`,
      { file: responsesFile, item: foreign[0] },
    );
  }
}

type Stop = { status: 'quota_stopped' | 'failed' | 'interrupted'; reason: string };

export async function runCollection<M>(options: EngineOptions<M>): Promise<EngineResult> {
  const paths = storePaths(options.dir);
  const deterministic = options.deterministic === true;
  const redact = options.redact ?? makeRedactor();
  const wallNow = options.now ?? (() => new Date());
  const stamp = (): string | null => (deterministic ? null : wallNow().toISOString());
  const clockMs = options.clockMs ?? (() => performance.now());
  const sleep = options.sleep ?? abortableSleep;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };

  const release = acquireLock(paths.lock);
  const attemptsLog = new Appender(paths.attempts, redact);
  let responsesLog: Appender | null = null;
  try {
    const previous = readRunJson(paths.run);
    checkFingerprint(paths.run, previous, options.fingerprint);
    const event = (name: string, detail: Record<string, unknown> = {}) =>
      attemptsLog.append({ type: 'event', event: name, at: stamp(), ...detail });

    // Repair torn tails before reading anything (attempts first: its repair is itself logged there).
    for (const file of [paths.attempts, paths.responses]) {
      const repair = repairTail(file, paths.torn);
      if (repair.kind !== 'clean') await event('torn_tail_repaired', { file: fileLabel(file, paths), ...repair, tornFile: undefined });
    }
    const completed = readCompleted(paths.responses);
    checkNoForeignRecords(paths.responses, completed, options.jobs);
    const pending = pendingJobs(options.jobs, completed, options.retryMissing);
    const supersedes = new Set(pending.filter((j) => completed.has(j.runId)).map((j) => j.runId));
    const total = options.jobs.length;
    const resumed = total - pending.length;
    /** The final record as written: the handler's record, the completion time, and the supersede mark. */
    const finalFor = (job: Job<M>, request: CompletionRequest, outcome: CellOutcome): Record<string, unknown> => ({
      ...options.handler.finalRecord(job, request, outcome),
      ...(supersedes.has(job.runId) ? { supersedes_missing: true } : {}),
      completed_at: stamp(),
    });
    if (previous && previous.status === 'running') await event('previous_run_ended_without_status', { previous_started_at: previous.started_at ?? null });
    await event('run_start', { total, resumed, pending: pending.length, ...(options.retryMissing ? { retry_missing: supersedes.size } : {}) });

    const startedAt = stamp();
    const writeRun = (status: RunStatus, extra: Record<string, unknown> = {}) =>
      writeFileAtomic(
        paths.run,
        `${redact(
          JSON.stringify(
            { ...options.runInfo, fingerprint: options.fingerprint, status, started_at: startedAt, ...extra },
            null,
            2,
          ),
        )}\n`,
      );
    writeRun('running', { finished_at: null });

    responsesLog = new Appender(paths.responses, redact);
    const written: Record<string, number> = {};
    let attemptCount = 0;
    let costUsd: number | null = 0;
    let done = resumed;
    const addCost = (usd: number | null) => {
      costUsd = costUsd === null || usd === null ? null : roundUsd(costUsd + usd);
    };
    const progress = options.progress ? options.progress(total, resumed) : silentProgress;
    progress.update({ done, costUsd });

    // Commit: immediately (real providers: a paid answer must reach disk at once) or in job order
    // through a reorder buffer (deterministic mode).
    const buffered = new Map<number, { attempts: unknown[]; final: Record<string, unknown> | null }>();
    let nextToCommit = 0;
    // Appends are queued synchronously (file order = call order) and resolve once on disk.
    const writeOut = (attempts: unknown[], final: Record<string, unknown> | null): Promise<unknown> => {
      const written_: Array<Promise<void>> = attempts.map((a) => attemptsLog.append(a));
      if (final) {
        written_.push(responsesLog!.append(final));
        const status = String(final.status);
        written[status] = (written[status] ?? 0) + 1;
        done += 1;
        progress.update({ done, costUsd });
      }
      return Promise.all(written_);
    };
    const commit = (index: number, sink: unknown[], final: Record<string, unknown> | null): Promise<unknown> => {
      // Real providers: the sink holds the pending attempt-line writes; the final record follows once
      // they are on disk, so a final record never exists without its attempt lines.
      if (!deterministic) return Promise.all(sink as Array<Promise<void>>).then(() => writeOut([], final));
      const attempts = sink;
      buffered.set(index, { attempts, final });
      const flushed: Array<Promise<unknown>> = [];
      while (buffered.has(nextToCommit)) {
        const entry = buffered.get(nextToCommit)!;
        buffered.delete(nextToCommit);
        flushed.push(writeOut(entry.attempts, entry.final));
        nextToCommit += 1;
      }
      return Promise.all(flushed);
    };
    // In deterministic mode an attempt line is buffered with its job; otherwise queued at once.
    const logAttempt = (sink: unknown[], record: Record<string, unknown>): void => {
      attemptCount += 1;
      sink.push(deterministic ? record : attemptsLog.append(record));
    };

    const stopController = new AbortController();
    let stop: Stop | null = null;
    const requestStop = (s: Stop) => {
      if (!stop) {
        stop = s;
        stopController.abort();
      }
    };
    // A worker hands its cell's records to the writer and takes the next job at once; the run waits
    // for every write before it ends. (Killed in between, a cell not yet on disk is simply requested
    // again on resume.) A failed write stops the run.
    const pendingCommits = new Set<Promise<unknown>>();
    let writeError: Error | null = null;
    const track = (p: Promise<unknown>): void => {
      const tracked: Promise<unknown> = p
        .catch((err: Error) => {
          writeError ??= err;
          requestStop({ status: 'failed', reason: `cannot write the audit files: ${err.message}` });
        })
        .finally(() => pendingCommits.delete(tracked));
      pendingCommits.add(tracked);
    };
    const onInterrupt = () => requestStop({ status: 'interrupted', reason: 'interrupted by signal' });
    if (options.interrupt?.aborted) onInterrupt();
    options.interrupt?.addEventListener('abort', onInterrupt, { once: true });

    const runJob = async (job: Job<M>, index: number): Promise<void> => {
      const sink: unknown[] = [];
      const request: CompletionRequest = {
        ...job.request(),
        runId: job.runId,
        maxOutputTokens: options.maxOutputTokens,
        timeoutMs: options.timeoutMs,
      };
      const provider = options.providerFor(job.model);
      let cellCost: number | null = 0;
      let costNote: string | undefined;
      const addCellCost = (usd: number | null, note?: string) => {
        cellCost = cellCost === null || usd === null ? null : roundUsd(cellCost + usd);
        if (note) costNote = note;
        addCost(usd);
      };
      for (let attempt = 1; ; attempt++) {
        const startedAt = stamp();
        const t0 = clockMs();
        const base = { type: 'attempt', run_id: job.runId, model: job.model, attempt, started_at: startedAt };
        try {
          const result = await provider.complete(request);
          const latency = deterministic ? null : Math.round(clockMs() - t0);
          const cost = result.usage
            ? estimateCost(options.prices, job.model, result.usage)
            : { usd: null, note: 'provider reported no token usage' };
          addCellCost(cost.usd, cost.note);
          logAttempt(sink, {
            ...base,
            ended_at: stamp(),
            latency_ms: latency,
            outcome: 'response',
            http_status: result.httpStatus,
            error_class: null,
            retry_after_ms: null,
            request_id: result.requestId,
            usage: result.usage,
            finish_reason: result.finishReason,
            billed_estimate: { usd: cost.usd, basis: result.usage ? 'reported_usage' : 'unknown', note: cost.note },
          });
          const outcome: CellOutcome = { kind: 'response', result, attempts: attempt, costUsd: cellCost, costNote };
          track(commit(index, sink, finalFor(job, request, outcome)));
          return;
        } catch (err) {
          const latency = deterministic ? null : Math.round(clockMs() - t0);
          const failure = classify(err);
          // A timed-out attempt may still be billed: estimate input from the prompt, output from the assumption.
          let billed: Record<string, unknown> | null = null;
          if (failure.errorClass === 'timeout') {
            const tokens = { inputTokens: estimateTokens(request.system + request.user), outputTokens: ASSUMED_OUTPUT_TOKENS };
            const cost = estimateCost(options.prices, job.model, tokens);
            addCellCost(cost.usd, cost.note ?? 'includes an assumed charge for a timed-out attempt');
            billed = { usd: cost.usd, basis: 'assumed_timeout_charge', input_tokens: tokens.inputTokens, output_tokens: tokens.outputTokens };
          }
          const decision = decideAfterFailure(failure, attempt, policy, jitterDraw(options.seed, job.runId, attempt));
          logAttempt(sink, {
            ...base,
            ended_at: stamp(),
            latency_ms: latency,
            outcome: 'error',
            http_status: failure.httpStatus ?? null,
            error_class: failure.errorClass,
            error_code: failure.code ?? null,
            retry_after_ms: failure.retryAfterMs ?? null,
            request_id: failure.requestId ?? null,
            message: failure.message,
            usage: null,
            billed_estimate: billed,
            decision: decision.action,
            next_delay_ms: decision.action === 'retry' ? decision.delayMs : null,
          });
          if (decision.action === 'quota_stop') {
            requestStop({ status: 'quota_stopped', reason: `${job.model}: ${decision.reason}` });
            track(commit(index, sink, null));
            return;
          }
          if (decision.action === 'fatal') {
            requestStop({ status: 'failed', reason: `${job.model}: ${decision.reason}: ${failure.message}` });
            track(commit(index, sink, null));
            return;
          }
          if (decision.action === 'give_up') {
            const outcome: CellOutcome = {
              kind: 'missing',
              errorClass: failure.errorClass,
              reason: `${decision.reason}: ${failure.message}`,
              attempts: attempt,
              costUsd: cellCost,
              costNote,
            };
            track(commit(index, sink, finalFor(job, request, outcome)));
            return;
          }
          await sleep(decision.delayMs, stopController.signal);
          if (stop) {
            track(commit(index, sink, null)); // stopped while waiting: the cell stays pending
            return;
          }
        }
      }
    };

    // The pool: `concurrency` workers take the next pending job until none is left or a stop is requested.
    let next = 0;
    const worker = async () => {
      while (!stop && next < pending.length) {
        // Back-pressure: at most `concurrency` cells answered but not yet on disk, so a crash loses at
        // most 2 × concurrency paid calls (in flight + not yet written).
        while (pendingCommits.size >= Math.max(1, options.concurrency)) await Promise.race(pendingCommits);
        if (stop || next >= pending.length) break;
        const index = next++;
        await runJob(pending[index]!, index);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    // Jobs never dispatched (stop) leave holes in the reorder buffer: flush what is there, in order.
    if (deterministic) {
      for (const index of [...buffered.keys()].sort((a, b) => a - b)) {
        const entry = buffered.get(index)!;
        await writeOut(entry.attempts, entry.final);
      }
    }
    while (pendingCommits.size > 0) await Promise.all([...pendingCommits]);
    await attemptsLog.drain();
    await responsesLog.drain();
    if (writeError) throw writeError;
    options.interrupt?.removeEventListener('abort', onInterrupt);
    progress.finish();

    const records = [...readCompleted(paths.responses).values()];
    const stillPending = total - records.length;
    const finalStop = stop as Stop | null;
    const status: EngineResult['status'] = finalStop ? finalStop.status : stillPending === 0 ? 'complete' : 'interrupted';
    await event('run_end', { status, written, attempts: attemptCount, pending: stillPending, reason: finalStop?.reason ?? null });
    options.finalize?.(records, paths);
    const result: EngineResult = {
      status,
      total,
      resumed,
      written,
      pending: stillPending,
      attempts: attemptCount,
      costUsd,
      reason: finalStop?.reason,
      paths,
    };
    writeRun(status, {
      finished_at: stamp(),
      result: { total, resumed, written, pending: stillPending, attempts: attemptCount, cost_usd_this_run: costUsd, reason: finalStop?.reason ?? null },
    });
    return result;
  } finally {
    await attemptsLog.close();
    await responsesLog?.close();
    release();
  }
}

function fileLabel(file: string, paths: StorePaths): string {
  return file === paths.attempts ? 'attempts.jsonl' : file === paths.responses ? 'responses.jsonl' : file;
}

interface Failure {
  errorClass: ErrorClass;
  message: string;
  httpStatus?: number;
  retryAfterMs?: number;
  code?: string;
  requestId?: string;
}

/** Reads a thrown value as a transport failure. Anything that is not a ProviderError is `unknown` (not retried). */
export function classify(err: unknown): Failure {
  const e = err as { name?: string; errorClass?: string; info?: Record<string, unknown>; message?: string };
  if (e && e.name === 'ProviderError' && typeof e.errorClass === 'string') {
    const info = e.info ?? {};
    return {
      errorClass: e.errorClass as ErrorClass,
      message: String(e.message ?? ''),
      httpStatus: typeof info.httpStatus === 'number' ? info.httpStatus : undefined,
      retryAfterMs: typeof info.retryAfterMs === 'number' ? info.retryAfterMs : undefined,
      code: typeof info.code === 'string' ? info.code : undefined,
      requestId: typeof info.requestId === 'string' ? info.requestId : undefined,
    };
  }
  if (e && e.name === 'AbortError') return { errorClass: 'timeout', message: String(e.message ?? 'aborted') };
  return { errorClass: 'unknown', message: String((err as Error)?.message ?? err) };
}
