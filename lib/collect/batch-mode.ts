import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../io/atomic';
import { InputError } from '../errors';
import {
  appendLedger,
  customIdsFor,
  nextAttempts,
  openBatches,
  readLedger,
  type BatchItem,
  type Ledger,
  type SubmittedBatch,
} from './batch-ledger';
import {
  abortableSleep,
  checkFingerprint,
  checkNoForeignRecords,
  classify,
  pendingJobs,
  readRunJson,
  type CellOutcome,
  type EngineResult,
  type Job,
  type ResultHandler,
  type RunStatus,
} from './engine';
import { estimateCost, roundUsd, type PriceTable } from './prices';
import { silentProgress, type ProgressSink } from './progress';
import type { BatchClient, BatchStatus } from './providers/batch';
import { parseModelSpec, type CompletionRequest, type CompletionResult } from './providers/types';
import { makeRedactor, type Redactor } from './redact';
import { DEFAULT_RETRY_POLICY, decideAfterFailure, jitterDraw, type RetryPolicy } from './retry';
import { Appender, acquireLock, readCompleted, repairTail, storePaths, type StorePaths } from './store';

/**
 * Batch mode (`kstbench collect --batch`): the same design, files and guarantees as the live engine,
 * but the requests go to the providers' batch APIs (OpenAI Batch API, Anthropic Message Batches) at
 * their batch discount. One run:
 *
 *   1. polls every batch in the ledger (batches.jsonl) that was submitted but not collected (a crash,
 *      SIGINT or quota stop after submission is resumed here: the stored batch id is polled, its cells
 *      are never submitted again);
 *   2. submits every cell without a final record and not in an open batch, one batch per model
 *      (split at `maxBatchRequests`), writing the custom_id map to the ledger first;
 *   3. polls every `pollIntervalMs` until the batches end, then fetches the results (unordered) and
 *      matches them back through the ledger's custom_id → run ID map, in submission order: an attempt
 *      line per item in attempts.jsonl, then the final records in responses.jsonl (same record as live
 *      mode, plus `batch_id` and `custom_id`), then a `collected` ledger line;
 *   4. items that failed with a transient class (server_error, rate_limit, timeout = expired,
 *      connection) or got no result at all are sent again in a follow-up batch while attempts remain
 *      (`maxRetries`), then get a `missing` record; client_error → missing at once; a quota item stops
 *      the run (`quota_stopped`, no record for that cell); an auth failure fails it.
 *
 * Cost: reported usage × price × (1 − batch_discount) from the price table; failed items are not
 * billed by either provider (recorded as $0, basis `batch_item_not_billed`).
 * Management calls (upload, create, poll, fetch) are retried with the live backoff policy; when their
 * retries run out the run ends `failed` and is resumable.
 */

export interface BatchEngineOptions<M> {
  dir: string;
  jobs: ReadonlyArray<Job<M>>;
  batchClientFor(model: string): BatchClient;
  handler: ResultHandler<M>;
  maxOutputTokens: number;
  timeoutMs: number;
  seed: string;
  prices: PriceTable;
  retry?: Partial<RetryPolicy>;
  /** Wait between polls of unfinished batches. */
  pollIntervalMs: number;
  /** Largest batch submitted at once (default 10,000 requests, well inside both providers' limits). */
  maxBatchRequests?: number;
  retryMissing?: boolean;
  runInfo: Record<string, unknown>;
  fingerprint: Record<string, unknown>;
  finalize?(records: ReadonlyArray<Record<string, unknown>>, paths: StorePaths): void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => Date;
  redact?: Redactor;
  progress?: (total: number, initialDone: number) => ProgressSink;
  interrupt?: AbortSignal;
}

export interface BatchEngineResult extends EngineResult {
  /** Batches submitted by this run. */
  submitted: string[];
  /** Batches still uncollected at the end (polled again by the next run). */
  open: string[];
}

export const DEFAULT_MAX_BATCH_REQUESTS = 10_000;

type Stop = { status: 'quota_stopped' | 'failed' | 'interrupted'; reason: string };

/** attempts.jsonl keys `<batch_id>|<run_id>` already logged (a collection interrupted half-way is redone without duplicate lines). */
function loggedBatchItems(file: string): Set<string> {
  const logged = new Set<string>();
  if (!existsSync(file)) return logged;
  for (const row of readFileSync(file, 'utf8').split('\n')) {
    if (!row.includes('"batch_id"')) continue;
    const a = JSON.parse(row) as { type?: string; batch_id?: unknown; run_id?: unknown };
    if (a.type === 'attempt' && typeof a.batch_id === 'string' && typeof a.run_id === 'string') logged.add(`${a.batch_id}|${a.run_id}`);
  }
  return logged;
}

export async function runBatchCollection<M>(options: BatchEngineOptions<M>): Promise<BatchEngineResult> {
  const paths = storePaths(options.dir);
  const redact = options.redact ?? makeRedactor();
  const wallNow = options.now ?? (() => new Date());
  const stamp = (): string => wallNow().toISOString();
  const sleep = options.sleep ?? abortableSleep;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const maxBatch = Math.max(1, options.maxBatchRequests ?? DEFAULT_MAX_BATCH_REQUESTS);

  const release = acquireLock(paths.lock);
  const attemptsLog = new Appender(paths.attempts, redact);
  let responsesLog: Appender | null = null;
  try {
    const previous = readRunJson(paths.run);
    checkFingerprint(paths.run, previous, options.fingerprint);
    const event = (name: string, detail: Record<string, unknown> = {}) => attemptsLog.append({ type: 'event', event: name, at: stamp(), ...detail });
    for (const [file, label] of [
      [paths.attempts, 'attempts.jsonl'],
      [paths.responses, 'responses.jsonl'],
      [paths.batches, 'batches.jsonl'],
    ] as const) {
      const repair = repairTail(file, paths.torn);
      if (repair.kind !== 'clean') await event('torn_tail_repaired', { file: label, ...repair, tornFile: undefined });
    }
    const completed = readCompleted(paths.responses);
    checkNoForeignRecords(paths.responses, completed, options.jobs);
    let ledger: Ledger = readLedger(paths.batches);
    const jobsById = new Map(options.jobs.map((j) => [j.runId, j]));
    for (const b of ledger.submitted) {
      const unknown = b.items.find((it) => !jobsById.has(it.run_id));
      if (unknown) {
        throw new InputError(`${paths.batches}: batch ${b.batch_id} holds run ${unknown.run_id}, which is no cell of this design; use a new --out directory`, {
          file: paths.batches,
          item: unknown.run_id,
        });
      }
    }
    const total = options.jobs.length;
    const initiallyPending = pendingJobs(options.jobs, completed, options.retryMissing);
    const resumed = total - initiallyPending.length;
    const initiallyPendingIds = new Set(initiallyPending.map((j) => j.runId));
    // Cells asked for again under --retry-missing; their new record carries supersedes_missing.
    const supersedes = new Set(initiallyPending.filter((j) => completed.has(j.runId)).map((j) => j.runId));
    if (previous && previous.status === 'running') await event('previous_run_ended_without_status', { previous_started_at: previous.started_at ?? null });
    for (const u of ledger.unconfirmed) {
      await event('batch_submission_unconfirmed', {
        seq: u.seq,
        model: u.model,
        requests: u.requests,
        note: 'an earlier process died while submitting this batch; the provider may have created it (then it is billed but never collected: check the provider console). Its cells are submitted again.',
      });
    }
    await event('run_start', {
      mode: 'batch',
      total,
      resumed,
      pending: initiallyPending.length,
      open_batches: openBatches(ledger).map((b) => b.batch_id),
      ...(options.retryMissing ? { retry_missing: supersedes.size } : {}),
    });

    const startedAt = stamp();
    const writeRun = (status: RunStatus, extra: Record<string, unknown> = {}) =>
      writeFileAtomic(
        paths.run,
        `${redact(JSON.stringify({ ...options.runInfo, fingerprint: options.fingerprint, status, started_at: startedAt, ...extra }, null, 2))}\n`,
      );
    writeRun('running', { finished_at: null });
    responsesLog = new Appender(paths.responses, redact);

    const progress = options.progress?.(total, resumed) ?? silentProgress;
    const written: Record<string, number> = {};
    let done = resumed;
    let attemptCount = 0;
    let costUsd: number | null = 0;
    const submittedNow: string[] = [];
    const finalizedNow = new Set<string>();
    const logged = loggedBatchItems(paths.attempts);

    const stopController = new AbortController();
    let stop: Stop | null = null;
    const requestStop = (s: Stop) => {
      if (!stop) {
        stop = s;
        stopController.abort();
      }
    };
    const onInterrupt = () => requestStop({ status: 'interrupted', reason: 'interrupted by signal' });
    if (options.interrupt?.aborted) onInterrupt();
    options.interrupt?.addEventListener('abort', onInterrupt, { once: true });

    const requestFor = (job: Job<M>, runId: string): CompletionRequest => ({
      ...job.request(),
      runId,
      maxOutputTokens: options.maxOutputTokens,
      timeoutMs: options.timeoutMs,
    });

    /** One management call with the live retry policy; null when the run must stop (stop is set). */
    let lastManagementFailure: string | null = null;
    const manage = async <T>(op: string, ref: Record<string, unknown>, fn: () => Promise<T>): Promise<T | null> => {
      lastManagementFailure = null;
      for (let attempt = 1; ; attempt++) {
        if (stop) return null;
        try {
          return await fn();
        } catch (err) {
          if (err instanceof InputError) throw err;
          const failure = classify(err);
          lastManagementFailure = failure.errorClass;
          const decision = decideAfterFailure(failure, attempt, policy, jitterDraw(options.seed, `batch-${op}-${JSON.stringify(ref)}`, attempt));
          await event('batch_call_failed', {
            op,
            ...ref,
            attempt,
            error_class: failure.errorClass,
            http_status: failure.httpStatus ?? null,
            error_code: failure.code ?? null,
            request_id: failure.requestId ?? null,
            message: failure.message,
            decision: decision.action,
            next_delay_ms: decision.action === 'retry' ? decision.delayMs : null,
          });
          if (decision.action === 'retry') {
            await sleep(decision.delayMs, stopController.signal);
            continue;
          }
          const what = `${String(ref.model ?? ref.batch_id ?? '')} batch ${op}`;
          if (decision.action === 'quota_stop') requestStop({ status: 'quota_stopped', reason: `${what}: ${decision.reason}` });
          else requestStop({ status: 'failed', reason: `${what}: ${decision.reason}: ${failure.message}` });
          return null;
        }
      }
    };

    /** Cells to submit now: no final record (or a missing one under --retry-missing), not written by this run, not in an open batch. */
    const cellsToSubmit = (): Array<Job<M>> => {
      const inFlight = new Set(openBatches(ledger).flatMap((b) => b.items.map((it) => it.run_id)));
      return pendingJobs(options.jobs, completed, options.retryMissing).filter((j) => !finalizedNow.has(j.runId) && !inFlight.has(j.runId));
    };

    const submit = async (jobs: ReadonlyArray<Job<M>>): Promise<void> => {
      const attemptOf = nextAttempts(ledger);
      const models = [...new Set(jobs.map((j) => j.model))];
      for (const model of models) {
        const client = options.batchClientFor(model);
        const provider = parseModelSpec(model).provider as 'openai' | 'anthropic';
        const ofModel = jobs.filter((j) => j.model === model);
        for (let start = 0; start < ofModel.length; start += maxBatch) {
          if (stop) return;
          const chunk = ofModel.slice(start, start + maxBatch);
          const customIds = customIdsFor(provider, chunk.map((j) => j.runId));
          const items: BatchItem[] = chunk.map((j, i) => ({ run_id: j.runId, custom_id: customIds[i]!, attempt: attemptOf(j.runId) }));
          const requests = chunk.map((j, i) => requestFor(j, customIds[i]!));
          const seq = ledger.nextSeq;
          appendLedger(paths.batches, { type: 'submitting', seq, model, requests: chunk.length, at: stamp() }, redact);
          const batchId = await manage('submit', { model, seq }, () => client.submitBatch(requests));
          if (batchId === null) {
            if (lastManagementFailure !== null) {
              // A timeout or dropped connection may hide a batch the provider did create.
              const created = lastManagementFailure === 'timeout' || lastManagementFailure === 'connection' ? 'unknown' : false;
              appendLedger(paths.batches, { type: 'submit_failed', seq, error_class: lastManagementFailure, created, at: stamp() }, redact);
            }
            return;
          }
          const submittedAt = stamp();
          appendLedger(paths.batches, { type: 'submitted', seq, batch_id: batchId, model, provider, submitted_at: submittedAt, items }, redact);
          ledger = readLedger(paths.batches);
          submittedNow.push(batchId);
          await event('batch_submitted', { batch_id: batchId, model, seq, requests: chunk.length });
        }
      }
    };

    const itemCost = (model: string, result: CompletionResult) =>
      result.usage ? estimateCost(options.prices, model, result.usage, { batch: true }) : { usd: null, note: 'provider reported no token usage' };

    /** Matches a finished batch's results to its cells and writes attempt lines, final records and the `collected` line. */
    const collect = async (batch: SubmittedBatch, status: BatchStatus, results: Map<string, CompletionResult | Error>): Promise<void> => {
      const known = new Set(batch.items.map((it) => it.custom_id));
      const strangers = [...results.keys()].filter((id) => !known.has(id));
      if (strangers.length > 0) await event('batch_unknown_custom_ids', { batch_id: batch.batch_id, count: strangers.length, first: strangers[0] });
      const attemptLines: Array<Record<string, unknown>> = [];
      const finals: Array<Record<string, unknown>> = [];
      const retry: string[] = [];
      const ignored: string[] = [];
      for (const item of batch.items) {
        const job = jobsById.get(item.run_id)!;
        const current = completed.get(item.run_id);
        // Already recorded from this batch (an interrupted collection being redone): nothing to do.
        if (current && current.batch_id === batch.batch_id) continue;
        // Complete by other means (cannot happen through kstbench: a live run refuses a directory with
        // open batches): the result is logged as ignored, never a second final record.
        if (current && current.status !== 'missing') {
          ignored.push(item.run_id);
          continue;
        }
        const request = requestFor(job, item.run_id);
        const outcome = results.get(item.custom_id);
        const base = {
          type: 'attempt',
          run_id: item.run_id,
          model: job.model,
          attempt: item.attempt,
          batch_id: batch.batch_id,
          custom_id: item.custom_id,
          started_at: batch.submitted_at,
          ended_at: stamp(),
          latency_ms: null,
        };
        const extra = {
          batch_id: batch.batch_id,
          custom_id: item.custom_id,
          ...(current ? { supersedes_missing: true } : {}),
        };
        if (outcome !== undefined && !(outcome instanceof Error)) {
          const cost = itemCost(job.model, outcome);
          costUsd = costUsd === null || cost.usd === null ? null : roundUsd(costUsd + cost.usd);
          attemptLines.push({
            ...base,
            outcome: 'response',
            http_status: outcome.httpStatus,
            error_class: null,
            retry_after_ms: null,
            request_id: outcome.requestId,
            usage: outcome.usage,
            finish_reason: outcome.finishReason,
            billed_estimate: { usd: cost.usd, basis: outcome.usage ? 'reported_usage_batch_price' : 'unknown', note: cost.note },
          });
          const cell: CellOutcome = { kind: 'response', result: outcome, attempts: item.attempt, costUsd: cost.usd, costNote: cost.note };
          finals.push({ ...options.handler.finalRecord(job, request, cell), ...extra, completed_at: stamp() });
          continue;
        }
        const failure =
          outcome === undefined
            ? status.state === 'failed'
              ? { errorClass: 'client_error' as const, message: `batch ${batch.batch_id} failed (provider status ${status.providerStatus}) without a result for this request` }
              : {
                  errorClass: status.state === 'expired' ? ('timeout' as const) : ('server_error' as const),
                  message: `batch ${batch.batch_id} ended (${status.providerStatus}) without a result for this request`,
                }
            : classify(outcome);
        const decision = decideAfterFailure(failure, item.attempt, policy, 0);
        attemptLines.push({
          ...base,
          outcome: 'error',
          http_status: ('httpStatus' in failure ? failure.httpStatus : undefined) ?? null,
          error_class: failure.errorClass,
          error_code: ('code' in failure ? failure.code : undefined) ?? null,
          retry_after_ms: null,
          request_id: ('requestId' in failure ? failure.requestId : undefined) ?? null,
          message: failure.message,
          usage: null,
          billed_estimate: { usd: 0, basis: 'batch_item_not_billed' },
          decision: decision.action === 'retry' ? 'retry_in_next_batch' : decision.action,
          next_delay_ms: null,
        });
        if (decision.action === 'retry') retry.push(item.run_id);
        else if (decision.action === 'give_up') {
          const cell: CellOutcome = { kind: 'missing', errorClass: failure.errorClass, reason: `${decision.reason}: ${failure.message}`, attempts: item.attempt, costUsd: 0 };
          finals.push({ ...options.handler.finalRecord(job, request, cell), ...extra, completed_at: stamp() });
        } else if (decision.action === 'quota_stop') requestStop({ status: 'quota_stopped', reason: `${job.model}: ${decision.reason}` });
        else requestStop({ status: 'failed', reason: `${job.model}: ${decision.reason}: ${failure.message}` });
      }
      // Attempt lines first, then the final records, then the ledger line: a crash in between only
      // means this batch is collected again (lines already logged are not repeated).
      attemptCount += attemptLines.length;
      await Promise.all(attemptLines.filter((a) => !logged.has(`${batch.batch_id}|${a.run_id}`)).map((a) => attemptsLog.append(a)));
      await Promise.all(finals.map((f) => responsesLog!.append(f)));
      for (const f of finals) {
        const runId = f.run_id as string;
        completed.delete(runId);
        completed.set(runId, f);
        if (!finalizedNow.has(runId) && initiallyPendingIds.has(runId)) done += 1;
        finalizedNow.add(runId);
        const s = String(f.status);
        written[s] = (written[s] ?? 0) + 1;
      }
      if (ignored.length > 0) await event('batch_results_ignored', { batch_id: batch.batch_id, reason: 'cell already complete', count: ignored.length, first: ignored[0] });
      progress.update({ done, costUsd });
      appendLedger(
        paths.batches,
        {
          type: 'collected',
          batch_id: batch.batch_id,
          state: status.state,
          provider_status: status.providerStatus,
          counts: status.counts,
          results: results.size,
          final_records: finals.length,
          retry,
          collected_at: stamp(),
        },
        redact,
      );
      ledger = readLedger(paths.batches);
      await event('batch_collected', { batch_id: batch.batch_id, state: status.state, final_records: finals.length, retry: retry.length });
    };

    // The loop: submit what is not covered, poll the open batches, collect those that ended, sleep.
    while (!stop) {
      const toSubmit = cellsToSubmit();
      if (toSubmit.length > 0) await submit(toSubmit);
      if (stop) break;
      const open = openBatches(ledger);
      if (open.length === 0) break;
      let collectedAny = false;
      for (const batch of open) {
        if (stop) break;
        const client = options.batchClientFor(batch.model);
        const status = await manage('poll', { batch_id: batch.batch_id, model: batch.model }, () => client.pollBatch(batch.batch_id));
        if (status === null) break;
        await event('batch_poll', { batch_id: batch.batch_id, state: status.state, provider_status: status.providerStatus, counts: status.counts });
        if (!status.done) continue;
        const results = await manage('fetch', { batch_id: batch.batch_id, model: batch.model }, () => client.fetchBatchResults(batch.batch_id));
        if (results === null) break;
        await collect(batch, status, results);
        collectedAny = true;
      }
      if (!stop && !collectedAny) await sleep(options.pollIntervalMs, stopController.signal);
    }
    options.interrupt?.removeEventListener('abort', onInterrupt);
    await attemptsLog.drain();
    await responsesLog.drain();
    progress.finish();

    const records = [...readCompleted(paths.responses).values()];
    const stillPending = total - records.length;
    const stillOpen = openBatches(readLedger(paths.batches)).map((b) => b.batch_id);
    const finalStop = stop as Stop | null;
    const status: EngineResult['status'] = finalStop ? finalStop.status : stillPending === 0 ? 'complete' : 'interrupted';
    await event('run_end', { status, written, attempts: attemptCount, pending: stillPending, open_batches: stillOpen, reason: finalStop?.reason ?? null });
    options.finalize?.(records, paths);
    writeRun(status, {
      finished_at: stamp(),
      result: {
        total,
        resumed,
        written,
        pending: stillPending,
        attempts: attemptCount,
        cost_usd_this_run: costUsd,
        batches_submitted: submittedNow,
        open_batches: stillOpen,
        reason: finalStop?.reason ?? null,
      },
    });
    return {
      status,
      total,
      resumed,
      written,
      pending: stillPending,
      attempts: attemptCount,
      costUsd,
      reason: finalStop?.reason,
      paths,
      submitted: submittedNow,
      open: stillOpen,
    };
  } finally {
    await attemptsLog.close();
    await responsesLog?.close();
    release();
  }
}
