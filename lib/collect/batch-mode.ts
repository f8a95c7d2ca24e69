import { existsSync } from 'node:fs';
import { readJsonl } from '../io';
import { AttemptsFileLineSchema } from '../records/attempt';
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
import { judgeBatchItem, type ItemEffect } from './batch-items';
import type { BatchStatus, BatchTransport } from './batch-transport';
import { defaultRemedy } from './circuit-breaker';
import { decide, decisionLabel, type Decision } from './decide';
import { NEW_OUT_DIR_FIX } from './fingerprint';
import {
  classify,
  pendingJobs,
  runLifecycle,
  type EngineResult,
  type Failure,
  type Job,
  type LifecycleOptions,
  type RunContext,
  type Transport,
} from './lifecycle';
import { parseModelSpec, type CompletionRequest, type CompletionResult, type Provider } from '../provider/contract';
import { liveTransport } from './engine';
import { preflightCells } from './preflight';
import { noUsageNote } from './prices';
import { jitterDraw, type ErrorClass } from './retry';

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
 *      (`maxRetries`), then get a `missing` record; a deterministic item failure (client_error, auth)
 *      gets no record (requested again next run; the circuit breaker stops the model after a few
 *      identical ones; the run ends `failed`); a quota item stops the run (`quota_stopped`);
 *   5. a batch that `failed` as a whole (e.g. OpenAI token_limit_exceeded) is split: its cells go
 *      into follow-up batches of half its size (a single-request batch that fails is a deterministic
 *      failure of that cell); a batch `cancelled` at the provider stays cancelled — its cells are not
 *      sent again until the command is re-run with `resubmitCancelled` (--resubmit-cancelled).
 *
 * Cost: reported usage × price × (1 − batch_discount) from the price table; failed items are not
 * billed by either provider (recorded as $0, basis `batch_item_not_billed`).
 * Management calls (upload, create, poll, fetch) are retried with the live backoff policy; when their
 * retries run out the run ends `failed` and is resumable.
 * The lifecycle (lock, resume, run.json, stops, breaker, summary) is lifecycle.ts; this file is only
 * the transport, calling providers through the BatchTransport interface (batch-transport.ts); what one
 * item of a finished batch means (its attempt line, and finish / retry / hold / stop) is the pure
 * `judgeBatchItem` of batch-items.ts, through decide.ts as in live mode.
 */

export interface BatchEngineOptions<M> extends LifecycleOptions<M> {
  batchClientFor(model: string): BatchTransport;
  /** Wait between polls of unfinished batches. */
  pollIntervalMs: number;
  /** Largest batch submitted at once (default 10,000 requests, well inside both providers' limits). */
  maxBatchRequests?: number;
  /** Send the cells of batches cancelled at the provider again (otherwise they stay held). */
  resubmitCancelled?: boolean;
  /**
   * The live provider of a model, for the pre-flight: each model's first cell is sent live before
   * any batch is submitted (preflight.ts), so a refused model, a cut-off answer or a quota stop costs
   * one request instead of a whole batch. Absent, or `preflight: false` (--no-preflight): none.
   */
  preflightProviderFor?(model: string): Provider;
  preflight?: boolean;
  /** The model's output cap, for the pre-flight's one retry of a cut-off answer (engine.ts). */
  outputCapFor?(model: string): number | null;
}

export interface BatchEngineResult extends EngineResult {
  /** Batches submitted by this run. */
  submitted: string[];
  /** Batches still uncollected at the end (polled again by the next run). */
  open: string[];
}

export const DEFAULT_MAX_BATCH_REQUESTS = 10_000;

/**
 * attempts.jsonl keys `<batch_id>|<run_id>` already logged (a collection interrupted half-way is redone
 * without duplicate lines). The file is read through lib/io's readJsonl against its schema, so a corrupt line is an
 * InputError naming file and line; by now the lifecycle has moved a torn tail aside.
 */
export function loggedBatchItems(file: string): Set<string> {
  const logged = new Set<string>();
  if (!existsSync(file)) return logged;
  for (const { value: a } of readJsonl(file, { schema: AttemptsFileLineSchema }).lines) {
    if (a.type === 'attempt' && a.batch_id !== undefined) logged.add(`${a.batch_id}|${a.run_id}`);
  }
  return logged;
}

export async function runBatchCollection<M>(options: BatchEngineOptions<M>): Promise<BatchEngineResult> {
  const transport = batchTransport(options);
  const result = await runLifecycle({ ...options, deterministic: false }, transport);
  return { ...result, submitted: transport.submittedNow, open: transport.stillOpen };
}

/**
 * Run IDs held back because their batch was cancelled at the provider: listed in a `collected` line's
 * `cancelled` and not submitted in any later batch.
 */
export function cancelledCells(ledger: Ledger): Set<string> {
  const held = new Set<string>();
  const seqOf = new Map(ledger.submitted.map((b) => [b.batch_id, b.seq]));
  for (const c of ledger.collected.values()) {
    const list = (c as { cancelled?: unknown }).cancelled;
    if (!Array.isArray(list)) continue;
    const seq = seqOf.get(c.batch_id) ?? 0;
    for (const runId of list) {
      const later = ledger.submitted.some((b) => b.seq > seq && b.items.some((it) => it.run_id === runId));
      if (!later) held.add(String(runId));
    }
  }
  return held;
}

function batchTransport<M>(options: BatchEngineOptions<M>): Transport<M> & { submittedNow: string[]; stillOpen: string[] } {
  const submittedNow: string[] = [];
  const stillOpen: string[] = [];
  let ledger: Ledger;
  return {
    submittedNow,
    stillOpen,
    extraFiles: (paths) => [['batches.jsonl', paths.batches]],
    async beforeStart(ctx) {
      ledger = readLedger(ctx.paths.batches);
      checkLedgerCells(ledger, ctx);
      for (const u of ledger.unconfirmed) {
        await ctx.event('batch_submission_unconfirmed', {
          seq: u.seq,
          model: u.model,
          requests: u.requests,
          note: 'an earlier process died while submitting this batch; the provider may have created it (then it is billed but never collected: check the provider console). Its cells are submitted again.',
        });
      }
    },
    startDetail: (base) => ({ mode: 'batch', ...base, open_batches: openBatches(ledger).map((b) => b.batch_id) }),
    endDetail: () => ({ batches_submitted: submittedNow, open_batches: stillOpen }),
    run: (ctx: RunContext<M>) => new BatchRun(options, ctx, ledger, submittedNow, stillOpen).run(),
  };
}

/** Refuses a ledger whose batches hold a run ID that is no cell of this design. */
function checkLedgerCells<M>(ledger: Ledger, ctx: RunContext<M>): void {
  for (const b of ledger.submitted) {
    const unknown = b.items.find((it) => !ctx.jobsById.has(it.run_id));
    if (unknown) {
      throw new InputError(`${ctx.paths.batches}: batch ${b.batch_id} holds run ${unknown.run_id}, which is no cell of this design; ${ctx.options.otherDesignFix ?? NEW_OUT_DIR_FIX}`, {
        file: ctx.paths.batches,
        item: unknown.run_id,
      });
    }
  }
}

/** What one collection of a batch gathered, written in this order: attempt lines, final records, the ledger's `collected` line. */
interface Collection {
  attemptLines: Array<Record<string, unknown>>;
  finals: Array<Record<string, unknown>>;
  retry: string[];
  ignored: string[];
  cancelled: string[];
}

/** One batch-mode run (the transport's `run`): pre-flight, then submit → poll → collect until nothing is left. */
class BatchRun<M> {
  private readonly maxBatch: number;
  /** Cells finished by this run (never submitted again in it). */
  private readonly finalizedNow = new Set<string>();
  /** Cells not to submit again in this run: deterministic failures, and cancelled batches' cells. */
  private readonly held: Set<string>;
  /** Per model, the batch size after a batch failed as a whole (split). */
  private readonly splitSize = new Map<string, number>();
  /** Models whose failed batch the provider asked to resubmit later (token_limit_exceeded): clock time to wait for. */
  private readonly notBefore = new Map<string, number>();
  /** attempts.jsonl keys already logged (a collection redone after a crash repeats no line). */
  private readonly logged: Set<string>;
  /** The class of the last management call that ran out of retries (null: it succeeded). */
  private lastManagementFailure: ErrorClass | null = null;

  constructor(
    private readonly options: BatchEngineOptions<M>,
    private readonly ctx: RunContext<M>,
    private ledger: Ledger,
    private readonly submittedNow: string[],
    private readonly stillOpen: string[],
  ) {
    this.maxBatch = Math.max(1, options.maxBatchRequests ?? DEFAULT_MAX_BATCH_REQUESTS);
    this.held = options.resubmitCancelled ? new Set<string>() : cancelledCells(ledger);
    this.logged = loggedBatchItems(ctx.paths.attempts);
  }

  async run(): Promise<void> {
    const { ctx } = this;
    if (this.held.size > 0) {
      await ctx.event('batch_cancelled_cells_held', {
        count: this.held.size,
        note: 'cells of batches cancelled at the provider are not sent again; re-run with --resubmit-cancelled to send them',
      });
    }
    await this.preflight();
    // The loop: submit what is not covered, poll the open batches, collect those that ended, sleep.
    while (!ctx.stopped) {
      const toSubmit = this.cellsToSubmit();
      if (toSubmit.length > 0) await this.submit(toSubmit);
      if (ctx.stopped) break;
      const open = openBatches(this.ledger);
      if (open.length === 0) {
        if (!(await this.waitForRetryLater())) break;
        continue;
      }
      const collectedAny = await this.pollAndCollect(open);
      if (!ctx.stopped && !collectedAny) await ctx.sleep(this.options.pollIntervalMs);
    }
    this.finish();
  }

  /** The pre-flight: each model's first cell to submit goes live, alone, before any batch. */
  private async preflight(): Promise<void> {
    const { options, ctx } = this;
    if (!options.preflightProviderFor || options.preflight === false) return;
    const cells = this.cellsToSubmit();
    const firsts = preflightCells(cells, () => true).map((i) => cells[i]!);
    if (firsts.length === 0) return;
    const live = liveTransport<M>({ ...options, providerFor: options.preflightProviderFor, concurrency: 1, preflight: true });
    await live.run(Object.create(ctx, { pending: { value: firsts } }) as RunContext<M>);
  }

  /** Nothing running: waits for a model asked to resubmit later; false when there is none (the run is done). */
  private async waitForRetryLater(): Promise<boolean> {
    const { ctx } = this;
    const waitUntil = Math.min(...[...this.notBefore.values()].filter((t) => t > ctx.clockMs()));
    if (!Number.isFinite(waitUntil)) return false;
    await ctx.event('batch_retry_later_wait', { wait_ms: Math.ceil(waitUntil - ctx.clockMs()) });
    await ctx.sleep(Math.ceil(waitUntil - ctx.clockMs()));
    return true;
  }

  /** Ends the run: batches still open are reported; cancelled cells still held make it `interrupted`. */
  private finish(): void {
    const { ctx } = this;
    this.stillOpen.push(...openBatches(readLedger(ctx.paths.batches)).map((b) => b.batch_id));
    const cancelledHeld = [...this.held].filter((id) => !ctx.completed.has(id) && cancelledCells(readLedger(ctx.paths.batches)).has(id));
    if (!ctx.stopped && cancelledHeld.length > 0) {
      ctx.requestStop({
        status: 'interrupted',
        reason: `${cancelledHeld.length} cell(s) of batches cancelled at the provider were not sent again`,
        remedy: 're-run with --resubmit-cancelled to send them',
      });
    }
  }

  /** One management call with the live retry policy (decide.ts); null when the run must stop (stop is set). */
  private async manage<T>(op: string, ref: Record<string, unknown>, fn: () => Promise<T>): Promise<T | null> {
    const { ctx, options } = this;
    this.lastManagementFailure = null;
    for (let attempt = 1; ; attempt++) {
      if (ctx.stopped) return null;
      try {
        return await fn();
      } catch (err) {
        if (err instanceof InputError) throw err;
        const failure = classify(err);
        this.lastManagementFailure = failure.errorClass;
        const item = { model: String(ref.model ?? ''), attempt, waitedMs: 0, maxOutputTokens: 0, enlarged: false, preflight: false };
        const jitter = jitterDraw(options.seed, `batch-${op}-${JSON.stringify(ref)}`, attempt);
        const decision = decide(item, { kind: 'failure', failure }, { policy: ctx.policy, jitter, outputCap: null, modelAnswered: true, enlargeCutOff: false });
        await ctx.event('batch_call_failed', {
          op,
          ...ref,
          attempt,
          error_class: failure.errorClass,
          http_status: failure.httpStatus ?? null,
          error_code: failure.code ?? null,
          request_id: failure.requestId ?? null,
          message: failure.message,
          decision: decisionLabel(decision),
          next_delay_ms: decision.action === 'retry' ? decision.delayMs : null,
        });
        if (decision.action === 'retry') {
          await ctx.sleep(decision.delayMs);
          continue;
        }
        this.stopAfterManagement(op, ref, failure, decision);
        return null;
      }
    }
  }

  private stopAfterManagement(op: string, ref: Record<string, unknown>, failure: Failure, decision: Decision): void {
    const what = `${String(ref.model ?? ref.batch_id ?? '')} batch ${op}`;
    const reason = 'reason' in decision ? decision.reason : '';
    if (decision.action === 'stop' && decision.status === 'quota_stopped') this.ctx.requestStop({ status: 'quota_stopped', reason: `${what}: ${reason}` });
    else {
      this.ctx.requestStop({
        status: 'failed',
        reason: `${what}: ${reason}: ${failure.message}`,
        remedy: failure.remedy ?? defaultRemedy(String(ref.model ?? ''), failure),
      });
    }
  }

  /** Cells to submit now: no final record (or a missing one under --retry-missing), not written by this run, not in an open batch, not held. */
  private cellsToSubmit(): Array<Job<M>> {
    const { ctx, options } = this;
    const inFlight = new Set(openBatches(this.ledger).flatMap((b) => b.items.map((it) => it.run_id)));
    const now = ctx.clockMs();
    return pendingJobs(options.jobs, ctx.completed, options.retryMissing).filter(
      (j) =>
        !this.finalizedNow.has(j.runId) &&
        !inFlight.has(j.runId) &&
        !this.held.has(j.runId) &&
        !ctx.breaker.isOpen(j.model) &&
        (this.notBefore.get(j.model) ?? -Infinity) <= now,
    );
  }

  /** Submits `jobs`, one batch per model (split at the batch size); stops at the first submission that fails. */
  private async submit(jobs: ReadonlyArray<Job<M>>): Promise<void> {
    const attemptOf = nextAttempts(this.ledger);
    for (const model of new Set(jobs.map((j) => j.model))) {
      const ofModel = jobs.filter((j) => j.model === model);
      const size = Math.min(this.maxBatch, this.splitSize.get(model) ?? this.maxBatch);
      for (let start = 0; start < ofModel.length; start += size) {
        if (this.ctx.stopped) return;
        if (!(await this.submitChunk(model, ofModel.slice(start, start + size), attemptOf))) return;
      }
    }
  }

  /** One batch: `submitting` in the ledger, the provider call, then `submitted` (or `submit_failed`); false when it failed. */
  private async submitChunk(model: string, chunk: ReadonlyArray<Job<M>>, attemptOf: (runId: string) => number): Promise<boolean> {
    const { ctx } = this;
    const paths = ctx.paths;
    const client = this.options.batchClientFor(model);
    const provider = parseModelSpec(model).provider as 'openai' | 'anthropic';
    const customIds = customIdsFor(provider, chunk.map((j) => j.runId));
    const items: BatchItem[] = chunk.map((j, i) => ({ run_id: j.runId, custom_id: customIds[i]!, attempt: attemptOf(j.runId) }));
    const requests = chunk.map((j, i) => ctx.requestFor(j, customIds[i]!));
    const seq = this.ledger.nextSeq;
    appendLedger(paths.batches, { type: 'submitting', seq, model, requests: chunk.length, at: ctx.stamp() }, ctx.redact);
    const batchId = await this.manage('submit', { model, seq }, () => client.submitBatch(requests));
    if (batchId === null) {
      const failed = this.lastManagementFailure;
      if (failed !== null) {
        // A timeout or dropped connection may hide a batch the provider did create.
        const created = failed === 'timeout' || failed === 'connection' ? 'unknown' : false;
        appendLedger(paths.batches, { type: 'submit_failed', seq, error_class: failed, created, at: ctx.stamp() }, ctx.redact);
      }
      return false;
    }
    appendLedger(paths.batches, { type: 'submitted', seq, batch_id: batchId, model, provider, submitted_at: ctx.stamp(), items }, ctx.redact);
    this.ledger = readLedger(paths.batches);
    this.submittedNow.push(batchId);
    await ctx.event('batch_submitted', { batch_id: batchId, model, seq, requests: chunk.length });
    return true;
  }

  /** Polls each open batch once and collects those that ended; true when one was collected. */
  private async pollAndCollect(open: readonly SubmittedBatch[]): Promise<boolean> {
    const { ctx } = this;
    let collectedAny = false;
    for (const batch of open) {
      if (ctx.stopped) break;
      const client = this.options.batchClientFor(batch.model);
      const ref = { batch_id: batch.batch_id, model: batch.model };
      const status = await this.manage('poll', ref, () => client.pollBatch(batch.batch_id));
      if (status === null) break;
      await ctx.event('batch_poll', { batch_id: batch.batch_id, state: status.state, provider_status: status.providerStatus, counts: status.counts });
      if (!status.done) continue;
      const results = await this.manage('fetch', ref, () => client.fetchBatchResults(batch.batch_id));
      if (results === null) break;
      await this.collect(batch, status, results);
      collectedAny = true;
    }
    return collectedAny;
  }

  /** Matches a finished batch's results to its cells (batch-items.ts) and writes attempt lines, final records and the `collected` line. */
  private async collect(batch: SubmittedBatch, status: BatchStatus, results: Map<string, CompletionResult | Error>): Promise<void> {
    const { ctx } = this;
    const known = new Set(batch.items.map((it) => it.custom_id));
    const strangers = [...results.keys()].filter((id) => !known.has(id));
    if (strangers.length > 0) await ctx.event('batch_unknown_custom_ids', { batch_id: batch.batch_id, count: strangers.length, first: strangers[0] });
    const got: Collection = { attemptLines: [], finals: [], retry: [], ignored: [], cancelled: [] };
    const priced = (model: string) => (result: CompletionResult) =>
      result.usage ? ctx.costOf(model, result.usage, { batch: true }) : { usd: null, note: noUsageNote(result) };
    for (const item of batch.items) {
      const job = ctx.jobsById.get(item.run_id)!;
      const current = ctx.completed.get(item.run_id);
      // Already recorded from this batch (an interrupted collection being redone): nothing to do.
      if (current && current.batch_id === batch.batch_id) continue;
      // Complete by other means (cannot happen through kstbench: a live run refuses a directory with
      // open batches): the result is logged as ignored, never a second final record.
      if (current && current.status !== 'missing') {
        got.ignored.push(item.run_id);
        continue;
      }
      const request = ctx.requestFor(job, item.run_id);
      const facts = { batch, item, model: job.model, status, outcome: results.get(item.custom_id), endedAt: ctx.stamp() };
      const verdict = judgeBatchItem(facts, ctx.policy, priced(job.model));
      got.attemptLines.push(verdict.line);
      await this.carryOut(verdict.effect, { job, request, batch, item }, got);
    }
    await this.writeCollection(batch, status, results, got);
  }

  /** Does what an item's verdict says: its final record, a retry, a hold, or a stop. */
  private async carryOut(effect: ItemEffect, cell: { job: Job<M>; request: CompletionRequest; batch: SubmittedBatch; item: BatchItem }, got: Collection): Promise<void> {
    const { ctx } = this;
    const { job, item, batch } = cell;
    switch (effect.kind) {
      case 'final':
        if (effect.cell.kind === 'response') ctx.addCost(effect.cell.costUsd);
        got.finals.push(ctx.finalFor(job, cell.request, effect.cell, { batch_id: batch.batch_id, custom_id: item.custom_id }));
        return;
      case 'retry':
        got.retry.push(item.run_id);
        return;
      case 'split':
        this.splitSize.set(job.model, effect.splitSize);
        if (effect.retryAfterMs !== null) this.notBefore.set(job.model, ctx.clockMs() + effect.retryAfterMs);
        got.retry.push(item.run_id);
        return;
      case 'held_cancelled':
        got.cancelled.push(item.run_id);
        this.held.add(item.run_id);
        return;
      case 'refused':
        this.held.add(item.run_id);
        ctx.cellUnfinished(job, { errorClass: 'client_error', code: effect.code, message: effect.message, remedy: effect.remedy });
        ctx.requestStop({ status: 'failed', reason: `${job.model}: batch ${batch.batch_id} was refused: ${effect.code}: ${effect.message}`, remedy: effect.remedy });
        return;
      case 'quota_stop':
        ctx.requestStop({ status: 'quota_stopped', reason: `${job.model}: ${effect.reason}` });
        return;
      case 'deterministic':
        // No record (the cell is requested again on the next run), counted by the breaker.
        this.held.add(item.run_id);
        await ctx.deterministicFailure(job, effect.failure);
        return;
      case 'unfinished':
        this.held.add(item.run_id);
        ctx.cellUnfinished(job, effect.failure);
        return;
    }
  }

  /**
   * Attempt lines first, then the final records, then the ledger line: a crash in between only means
   * this batch is collected again (lines already logged are not repeated).
   */
  private async writeCollection(batch: SubmittedBatch, status: BatchStatus, results: Map<string, unknown>, got: Collection): Promise<void> {
    const { ctx } = this;
    for (const line of got.attemptLines) ctx.checkAttempt(line);
    ctx.countAttempts(got.attemptLines.length);
    await Promise.all(got.attemptLines.filter((a) => !this.logged.has(`${batch.batch_id}|${a.run_id}`)).map((a) => ctx.attemptsLog.append(a)));
    await Promise.all(got.finals.map((f) => ctx.responsesLog.append(f)));
    for (const f of got.finals) {
      ctx.countFinal(f);
      this.finalizedNow.add(f.run_id as string);
    }
    if (got.ignored.length > 0) await ctx.event('batch_results_ignored', { batch_id: batch.batch_id, reason: 'cell already complete', count: got.ignored.length, first: got.ignored[0] });
    const { retry, cancelled } = got;
    appendLedger(
      ctx.paths.batches,
      {
        type: 'collected',
        batch_id: batch.batch_id,
        state: status.state,
        provider_status: status.providerStatus,
        counts: status.counts,
        results: results.size,
        final_records: got.finals.length,
        retry,
        ...(cancelled.length > 0 ? { cancelled } : {}),
        collected_at: ctx.stamp(),
      },
      ctx.redact,
    );
    this.ledger = readLedger(ctx.paths.batches);
    await ctx.event('batch_collected', { batch_id: batch.batch_id, state: status.state, final_records: got.finals.length, retry: retry.length });
  }
}
