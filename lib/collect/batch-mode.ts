import { existsSync, readFileSync } from 'node:fs';
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
import type { BatchStatus, BatchTransport } from './batch-transport';
import { defaultRemedy } from './circuit-breaker';
import {
  classify,
  pendingJobs,
  runLifecycle,
  type CellOutcome,
  type EngineResult,
  type Failure,
  type Job,
  type LifecycleOptions,
  type RunContext,
  type Transport,
} from './lifecycle';
import { parseModelSpec, type CompletionResult, type Provider } from '../provider/contract';
import { liveTransport } from './engine';
import { preflightCells } from './preflight';
import { decideAfterFailure, jitterDraw } from './retry';

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
 * the transport, calling providers through the BatchTransport interface (batch-transport.ts).
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
  const maxBatch = Math.max(1, options.maxBatchRequests ?? DEFAULT_MAX_BATCH_REQUESTS);
  const submittedNow: string[] = [];
  const stillOpen: string[] = [];
  let ledger: Ledger;
  return {
    submittedNow,
    stillOpen,
    extraFiles: (paths) => [['batches.jsonl', paths.batches]],
    async beforeStart(ctx) {
      ledger = readLedger(ctx.paths.batches);
      for (const b of ledger.submitted) {
        const unknown = b.items.find((it) => !ctx.jobsById.has(it.run_id));
        if (unknown) {
          throw new InputError(`${ctx.paths.batches}: batch ${b.batch_id} holds run ${unknown.run_id}, which is no cell of this design; use a new --out directory`, {
            file: ctx.paths.batches,
            item: unknown.run_id,
          });
        }
      }
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
    async run(ctx: RunContext<M>): Promise<void> {
      const paths = ctx.paths;
      const finalizedNow = new Set<string>();
      // Cells not to submit again in this run: deterministic failures, and cancelled batches' cells.
      const held = options.resubmitCancelled ? new Set<string>() : cancelledCells(ledger);
      const heldAtStart = held.size;
      const splitSize = new Map<string, number>();
      // Models whose failed batch the provider asked to resubmit later (token_limit_exceeded): clock time to wait for.
      const notBefore = new Map<string, number>();
      const logged = loggedBatchItems(paths.attempts);
      if (heldAtStart > 0) {
        await ctx.event('batch_cancelled_cells_held', {
          count: heldAtStart,
          note: 'cells of batches cancelled at the provider are not sent again; re-run with --resubmit-cancelled to send them',
        });
      }

      /** One management call with the live retry policy; null when the run must stop (stop is set). */
      let lastManagementFailure: string | null = null;
      const manage = async <T>(op: string, ref: Record<string, unknown>, fn: () => Promise<T>): Promise<T | null> => {
        lastManagementFailure = null;
        for (let attempt = 1; ; attempt++) {
          if (ctx.stopped) return null;
          try {
            return await fn();
          } catch (err) {
            if (err instanceof InputError) throw err;
            const failure = classify(err);
            lastManagementFailure = failure.errorClass;
            const decision = decideAfterFailure(failure, attempt, ctx.policy, jitterDraw(options.seed, `batch-${op}-${JSON.stringify(ref)}`, attempt));
            await ctx.event('batch_call_failed', {
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
              await ctx.sleep(decision.delayMs);
              continue;
            }
            const what = `${String(ref.model ?? ref.batch_id ?? '')} batch ${op}`;
            if (decision.action === 'quota_stop') ctx.requestStop({ status: 'quota_stopped', reason: `${what}: ${decision.reason}` });
            else {
              ctx.requestStop({
                status: 'failed',
                reason: `${what}: ${decision.reason}: ${failure.message}`,
                remedy: failure.remedy ?? defaultRemedy(String(ref.model ?? ''), failure),
              });
            }
            return null;
          }
        }
      };

      /** Cells to submit now: no final record (or a missing one under --retry-missing), not written by this run, not in an open batch. */
      const cellsToSubmit = (): Array<Job<M>> => {
        const inFlight = new Set(openBatches(ledger).flatMap((b) => b.items.map((it) => it.run_id)));
        const now = ctx.clockMs();
        return pendingJobs(options.jobs, ctx.completed, options.retryMissing).filter(
          (j) =>
            !finalizedNow.has(j.runId) &&
            !inFlight.has(j.runId) &&
            !held.has(j.runId) &&
            !ctx.breaker.isOpen(j.model) &&
            (notBefore.get(j.model) ?? -Infinity) <= now,
        );
      };

      const submit = async (jobs: ReadonlyArray<Job<M>>): Promise<void> => {
        const attemptOf = nextAttempts(ledger);
        const models = [...new Set(jobs.map((j) => j.model))];
        for (const model of models) {
          const client = options.batchClientFor(model);
          const provider = parseModelSpec(model).provider as 'openai' | 'anthropic';
          const ofModel = jobs.filter((j) => j.model === model);
          const size = Math.min(maxBatch, splitSize.get(model) ?? maxBatch);
          for (let start = 0; start < ofModel.length; start += size) {
            if (ctx.stopped) return;
            const chunk = ofModel.slice(start, start + size);
            const customIds = customIdsFor(provider, chunk.map((j) => j.runId));
            const items: BatchItem[] = chunk.map((j, i) => ({ run_id: j.runId, custom_id: customIds[i]!, attempt: attemptOf(j.runId) }));
            const requests = chunk.map((j, i) => ctx.requestFor(j, customIds[i]!));
            const seq = ledger.nextSeq;
            appendLedger(paths.batches, { type: 'submitting', seq, model, requests: chunk.length, at: ctx.stamp() }, ctx.redact);
            const batchId = await manage('submit', { model, seq }, () => client.submitBatch(requests));
            if (batchId === null) {
              if (lastManagementFailure !== null) {
                // A timeout or dropped connection may hide a batch the provider did create.
                const created = lastManagementFailure === 'timeout' || lastManagementFailure === 'connection' ? 'unknown' : false;
                appendLedger(paths.batches, { type: 'submit_failed', seq, error_class: lastManagementFailure, created, at: ctx.stamp() }, ctx.redact);
              }
              return;
            }
            const submittedAt = ctx.stamp();
            appendLedger(paths.batches, { type: 'submitted', seq, batch_id: batchId, model, provider, submitted_at: submittedAt, items }, ctx.redact);
            ledger = readLedger(paths.batches);
            submittedNow.push(batchId);
            await ctx.event('batch_submitted', { batch_id: batchId, model, seq, requests: chunk.length });
          }
        }
      };

      const itemCost = (model: string, result: CompletionResult) =>
        result.usage ? ctx.costOf(model, result.usage, { batch: true }) : { usd: null, note: 'provider reported no token usage' };

      /** Matches a finished batch's results to its cells and writes attempt lines, final records and the `collected` line. */
      const collect = async (batch: SubmittedBatch, status: BatchStatus, results: Map<string, CompletionResult | Error>): Promise<void> => {
        const known = new Set(batch.items.map((it) => it.custom_id));
        const strangers = [...results.keys()].filter((id) => !known.has(id));
        if (strangers.length > 0) await ctx.event('batch_unknown_custom_ids', { batch_id: batch.batch_id, count: strangers.length, first: strangers[0] });
        const attemptLines: Array<Record<string, unknown>> = [];
        const finals: Array<Record<string, unknown>> = [];
        const retry: string[] = [];
        const ignored: string[] = [];
        const cancelled: string[] = [];
        for (const item of batch.items) {
          const job = ctx.jobsById.get(item.run_id)!;
          const current = ctx.completed.get(item.run_id);
          // Already recorded from this batch (an interrupted collection being redone): nothing to do.
          if (current && current.batch_id === batch.batch_id) continue;
          // Complete by other means (cannot happen through kstbench: a live run refuses a directory with
          // open batches): the result is logged as ignored, never a second final record.
          if (current && current.status !== 'missing') {
            ignored.push(item.run_id);
            continue;
          }
          const request = ctx.requestFor(job, item.run_id);
          const outcome = results.get(item.custom_id);
          const base = {
            type: 'attempt',
            run_id: item.run_id,
            model: job.model,
            attempt: item.attempt,
            batch_id: batch.batch_id,
            custom_id: item.custom_id,
            started_at: batch.submitted_at,
            ended_at: ctx.stamp(),
            latency_ms: null,
          };
          const extra = {
            batch_id: batch.batch_id,
            custom_id: item.custom_id,
          };
          if (outcome !== undefined && !(outcome instanceof Error)) {
            const cost = itemCost(job.model, outcome);
            ctx.addCost(cost.usd);
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
            finals.push(ctx.finalFor(job, request, cell, extra));
            continue;
          }
          const wasCancelled = status.state === 'cancelled' || status.cancelledByUser === true;
          if (wasCancelled && (outcome === undefined || classify(outcome).code === 'batch_cancelled')) {
            // Cancelled at the provider (by the user): not sent again until asked (--resubmit-cancelled).
            cancelled.push(item.run_id);
            held.add(item.run_id);
            attemptLines.push({
              ...base,
              outcome: 'error',
              http_status: null,
              error_class: null,
              error_code: 'batch_cancelled',
              retry_after_ms: null,
              request_id: null,
              message: `batch ${batch.batch_id} was cancelled (${status.providerStatus}) before this request ran`,
              usage: null,
              billed_estimate: { usd: 0, basis: 'batch_item_not_billed' },
              decision: 'held_cancelled',
              next_delay_ms: null,
            });
            continue;
          }
          const batchErrors = (status.errors ?? []).map((e) => `${e.code ? `${e.code}: ` : ''}${e.message}`).join('; ');
          const failure: Failure =
            outcome === undefined
              ? status.state === 'failed'
                ? {
                    // The batch as a whole was refused (e.g. token_limit_exceeded): split it, never a missing record.
                    errorClass: batch.items.length > 1 ? 'server_error' : 'client_error',
                    code: 'batch_failed',
                    message: `batch ${batch.batch_id} failed (provider status ${status.providerStatus}${batchErrors ? `: ${batchErrors}` : ''}) without a result for this request`,
                  }
                : {
                    errorClass: status.state === 'expired' ? 'timeout' : 'server_error',
                    code: status.state === 'expired' ? 'batch_expired' : undefined,
                    message: `batch ${batch.batch_id} ended (${status.providerStatus}) without a result for this request`,
                  }
              : classify(outcome);
          // The provider's plan for a batch that failed as a whole (providers/batch.ts planFailedBatch);
          // without one, a failed batch of several requests is halved.
          const plan = outcome === undefined && status.state === 'failed' ? (status.failure ?? (batch.items.length > 1 ? { action: 'split' as const, parts: 2, code: 'batch_failed', message: failure.message } : null)) : null;
          if (plan && plan.action === 'stop') {
            // The batch input itself was refused: resubmitting cannot help; no record, the run fails with the fix.
            held.add(item.run_id);
            ctx.cellUnfinished(job, { errorClass: 'client_error', code: plan.code, message: plan.message, remedy: plan.remedy });
            ctx.requestStop({ status: 'failed', reason: `${job.model}: batch ${batch.batch_id} was refused: ${plan.code}: ${plan.message}`, remedy: plan.remedy });
            attemptLines.push({
              ...base,
              outcome: 'error',
              http_status: null,
              error_class: 'client_error',
              error_code: plan.code,
              retry_after_ms: null,
              request_id: null,
              message: failure.message,
              usage: null,
              billed_estimate: { usd: 0, basis: 'batch_item_not_billed' },
              decision: 'deterministic',
              next_delay_ms: null,
            });
            continue;
          }
          if (plan) {
            const parts = Math.max(1, plan.parts);
            splitSize.set(job.model, Math.max(1, Math.ceil(batch.items.length / parts)));
            if (plan.action === 'retry_later') notBefore.set(job.model, ctx.clockMs() + plan.retryAfterMs);
            retry.push(item.run_id);
            attemptLines.push({
              ...base,
              outcome: 'error',
              http_status: null,
              error_class: failure.errorClass,
              error_code: 'batch_failed',
              retry_after_ms: null,
              request_id: null,
              message: failure.message,
              usage: null,
              billed_estimate: { usd: 0, basis: 'batch_item_not_billed' },
              decision: plan.action === 'retry_later' ? 'retry_later_in_smaller_batches' : 'split_into_smaller_batches',
              next_delay_ms: plan.action === 'retry_later' ? plan.retryAfterMs : null,
            });
            continue;
          }
          const decision = decideAfterFailure(failure, item.attempt, ctx.policy, 0);
          attemptLines.push({
            ...base,
            outcome: 'error',
            http_status: failure.httpStatus ?? null,
            error_class: failure.errorClass,
            error_code: failure.code ?? null,
            retry_after_ms: null,
            request_id: failure.requestId ?? null,
            message: failure.message,
            usage: null,
            billed_estimate: { usd: 0, basis: 'batch_item_not_billed' },
            decision: decision.action === 'retry' ? 'retry_in_next_batch' : decision.action,
            next_delay_ms: null,
          });
          if (decision.action === 'retry') retry.push(item.run_id);
          else if (decision.action === 'give_up') {
            const cell: CellOutcome = { kind: 'missing', errorClass: failure.errorClass, reason: `${decision.reason}: ${failure.message}`, attempts: item.attempt, costUsd: 0 };
            finals.push(ctx.finalFor(job, request, cell, extra));
          } else if (decision.action === 'quota_stop') ctx.requestStop({ status: 'quota_stopped', reason: `${job.model}: ${decision.reason}` });
          else {
            // Deterministic: no record (the cell is requested again on the next run), counted by the breaker.
            held.add(item.run_id);
            await ctx.deterministicFailure(job, failure);
          }
        }
        // Attempt lines first, then the final records, then the ledger line: a crash in between only
        // means this batch is collected again (lines already logged are not repeated).
        for (const line of attemptLines) ctx.checkAttempt(line);
        ctx.countAttempts(attemptLines.length);
        await Promise.all(attemptLines.filter((a) => !logged.has(`${batch.batch_id}|${a.run_id}`)).map((a) => ctx.attemptsLog.append(a)));
        await Promise.all(finals.map((f) => ctx.responsesLog.append(f)));
        for (const f of finals) {
          const runId = f.run_id as string;
          ctx.countFinal(f);
          finalizedNow.add(runId);
        }
        if (ignored.length > 0) await ctx.event('batch_results_ignored', { batch_id: batch.batch_id, reason: 'cell already complete', count: ignored.length, first: ignored[0] });
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
            ...(cancelled.length > 0 ? { cancelled } : {}),
            collected_at: ctx.stamp(),
          },
          ctx.redact,
        );
        ledger = readLedger(paths.batches);
        await ctx.event('batch_collected', { batch_id: batch.batch_id, state: status.state, final_records: finals.length, retry: retry.length });
      };

      // The pre-flight: each model's first cell to submit goes live, alone, before any batch.
      if (options.preflightProviderFor && options.preflight !== false) {
        const cells = cellsToSubmit();
        const firsts = preflightCells(cells, () => true).map((i) => cells[i]!);
        if (firsts.length > 0) {
          const live = liveTransport<M>({ ...options, providerFor: options.preflightProviderFor, concurrency: 1, preflight: true });
          await live.run(Object.create(ctx, { pending: { value: firsts } }) as RunContext<M>);
        }
      }

      // The loop: submit what is not covered, poll the open batches, collect those that ended, sleep.
      while (!ctx.stopped) {
        const toSubmit = cellsToSubmit();
        if (toSubmit.length > 0) await submit(toSubmit);
        if (ctx.stopped) break;
        const open = openBatches(ledger);
        if (open.length === 0) {
          // Nothing running: wait for a model asked to resubmit later, or finish.
          const waitUntil = Math.min(...[...notBefore.values()].filter((t) => t > ctx.clockMs()));
          if (!Number.isFinite(waitUntil)) break;
          await ctx.event('batch_retry_later_wait', { wait_ms: Math.ceil(waitUntil - ctx.clockMs()) });
          await ctx.sleep(Math.ceil(waitUntil - ctx.clockMs()));
          continue;
        }
        let collectedAny = false;
        for (const batch of open) {
          if (ctx.stopped) break;
          const client = options.batchClientFor(batch.model);
          const status = await manage('poll', { batch_id: batch.batch_id, model: batch.model }, () => client.pollBatch(batch.batch_id));
          if (status === null) break;
          await ctx.event('batch_poll', { batch_id: batch.batch_id, state: status.state, provider_status: status.providerStatus, counts: status.counts });
          if (!status.done) continue;
          const results = await manage('fetch', { batch_id: batch.batch_id, model: batch.model }, () => client.fetchBatchResults(batch.batch_id));
          if (results === null) break;
          await collect(batch, status, results);
          collectedAny = true;
        }
        if (!ctx.stopped && !collectedAny) await ctx.sleep(options.pollIntervalMs);
      }
      stillOpen.push(...openBatches(readLedger(paths.batches)).map((b) => b.batch_id));
      const cancelledHeld = [...held].filter((id) => !ctx.completed.has(id) && cancelledCells(readLedger(paths.batches)).has(id));
      if (!ctx.stopped && cancelledHeld.length > 0) {
        ctx.requestStop({
          status: 'interrupted',
          reason: `${cancelledHeld.length} cell(s) of batches cancelled at the provider were not sent again`,
          remedy: 're-run with --resubmit-cancelled to send them',
        });
      }
    },
  };
}
