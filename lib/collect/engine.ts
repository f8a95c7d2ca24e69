import type { CompletionRequest, Provider } from '../provider/contract';
import { assumedOutputTokens, estimateTokens, roundUsd } from './prices';
import { AdaptiveLimiter, TokenBudget, type Clock } from './rate-limit';
import { decideAfterFailure, jitterDraw } from './retry';
import {
  classify,
  runLifecycle,
  type CellOutcome,
  type EngineResult,
  type Job,
  type LifecycleOptions,
  type RunContext,
  type Transport,
} from './lifecycle';

export {
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
} from './lifecycle';

/**
 * The live transport: a worker pool that sends each pending cell to its provider, one attempt at a
 * time, with retries (seeded backoff, retry-after as a floor, a retry horizon in minutes), adaptive
 * concurrency and an optional tokens-per-minute budget per model. Everything about the run itself
 * (store, lock, resume, fingerprint, run.json, stops, circuit breaker, summary) is the lifecycle's
 * (lifecycle.ts); this file only moves cells.
 *
 * Guarantees
 * - every attempt line is on disk before its cell's final record (a final record never exists
 *   without its attempt lines);
 * - invalid output is a result (the handler's business), never retried; transient failures are
 *   retried, and when retries or the horizon run out the final record is a `missing` one;
 * - deterministic failures (client_error, auth, provider-flagged) give no record: the cell stays
 *   pending and the breaker stops the model after a few identical ones;
 * - quota errors stop dispatch, let in-flight calls finish and end with status `quota_stopped`.
 *
 * Deterministic mode (all providers simulated): timestamps and latencies are written as null (a
 * logical clock: the record's position is its time), and records are committed in job order through a
 * reorder buffer, so an uninterrupted run gives byte-identical files whatever the concurrency.
 */

export interface EngineOptions<M> extends LifecycleOptions<M> {
  providerFor(model: string): Provider;
  concurrency: number;
  /** `--tpm`: tokens per minute per model, counting each call's prompt estimate + full output allowance. */
  tokensPerMinute?: number;
  /** Calm stretch after which a halved concurrency grows back by one (default 30 s). */
  calmMs?: number;
}

export function runCollection<M>(options: EngineOptions<M>): Promise<EngineResult> {
  return runLifecycle(options, liveTransport(options));
}

/** Tokens one call reserves against a per-minute budget: prompt (chars / 4) + the whole output allowance. */
export function reservedTokens(request: Pick<CompletionRequest, 'system' | 'user' | 'maxOutputTokens'>): number {
  return estimateTokens(request.system + request.user) + request.maxOutputTokens;
}

export function liveTransport<M>(options: EngineOptions<M>): Transport<M> {
  return {
    async run(ctx: RunContext<M>): Promise<void> {
      const { deterministic, policy, pending } = ctx;
      const concurrency = Math.max(1, options.concurrency);
      const clock: Clock = { now: () => ctx.clockMs(), sleep: (ms) => ctx.sleep(ms) };
      const limiters = new Map<string, AdaptiveLimiter>();
      const budgets = new Map<string, TokenBudget>();
      const limiterFor = (model: string) => {
        let l = limiters.get(model);
        if (!l) limiters.set(model, (l = new AdaptiveLimiter(concurrency, clock, options.calmMs)));
        return l;
      };
      const budgetFor = (model: string) => {
        let b = budgets.get(model);
        if (!b) budgets.set(model, (b = new TokenBudget(options.tokensPerMinute!, clock)));
        return b;
      };

      // Commit: immediately (real providers: a paid answer must reach disk at once) or in job order
      // through a reorder buffer (deterministic mode).
      const buffered = new Map<number, { attempts: unknown[]; final: Record<string, unknown> | null }>();
      let nextToCommit = 0;
      // Appends are queued synchronously (file order = call order) and resolve once on disk.
      const writeOut = (attempts: unknown[], final: Record<string, unknown> | null): Promise<unknown> => {
        const writes: Array<Promise<void>> = attempts.map((a) => ctx.attemptsLog.append(a));
        if (final) {
          writes.push(ctx.responsesLog.append(final));
          ctx.countFinal(final);
        }
        return Promise.all(writes);
      };
      const commit = (index: number, sink: unknown[], final: Record<string, unknown> | null): Promise<unknown> => {
        // Real providers: the sink holds the pending attempt-line writes; the final record follows once
        // they are on disk, so a final record never exists without its attempt lines.
        if (!deterministic) return Promise.all(sink as Array<Promise<void>>).then(() => writeOut([], final));
        buffered.set(index, { attempts: sink, final });
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
        ctx.checkAttempt(record);
        ctx.countAttempts(1);
        sink.push(deterministic ? record : ctx.attemptsLog.append(record));
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
            ctx.requestStop({ status: 'failed', reason: `cannot write the audit files: ${err.message}` });
          })
          .finally(() => pendingCommits.delete(tracked));
        pendingCommits.add(tracked);
      };

      const runJob = async (job: Job<M>, index: number): Promise<void> => {
        const sink: unknown[] = [];
        const request = ctx.requestFor(job);
        const provider = options.providerFor(job.model);
        const limiter = limiterFor(job.model);
        let cellCost: number | null = 0;
        let costNote: string | undefined;
        let waitedMs = 0;
        const addCellCost = (usd: number | null, note?: string) => {
          cellCost = cellCost === null || usd === null ? null : roundUsd(cellCost + usd);
          if (note) costNote = note;
          ctx.addCost(usd);
        };
        for (let attempt = 1; ; attempt++) {
          if (ctx.breaker.isOpen(job.model) || ctx.stopped) {
            track(commit(index, sink, null)); // the cell stays pending
            return;
          }
          if (options.tokensPerMinute !== undefined && !(await budgetFor(job.model).reserve(reservedTokens(request), ctx.stopSignal))) {
            track(commit(index, sink, null));
            return;
          }
          if (!(await limiter.acquire(ctx.stopSignal))) {
            track(commit(index, sink, null));
            return;
          }
          const startedAt = ctx.stamp();
          const t0 = ctx.clockMs();
          const base = { type: 'attempt', run_id: job.runId, model: job.model, attempt, started_at: startedAt };
          try {
            let result;
            try {
              result = await provider.complete(request);
            } finally {
              limiter.release();
            }
            const latency = deterministic ? null : Math.round(ctx.clockMs() - t0);
            ctx.breaker.recordSuccess(job.model);
            limiter.onSuccess();
            const cost = result.usage ? ctx.costOf(job.model, result.usage, {}) : { usd: null, note: 'provider reported no token usage' };
            addCellCost(cost.usd, cost.note);
            logAttempt(sink, {
              ...base,
              ended_at: ctx.stamp(),
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
            track(commit(index, sink, ctx.finalFor(job, request, outcome)));
            return;
          } catch (err) {
            const latency = deterministic ? null : Math.round(ctx.clockMs() - t0);
            const failure = classify(err);
            // A timed-out attempt may still be billed: estimate input from the prompt, output from the assumption.
            let billed: Record<string, unknown> | null = null;
            if (failure.errorClass === 'timeout') {
              const tokens = { inputTokens: estimateTokens(request.system + request.user), outputTokens: assumedOutputTokens(options.prices, job.model) };
              const cost = ctx.costOf(job.model, tokens, {});
              addCellCost(cost.usd, cost.note ?? 'includes an assumed charge for a timed-out attempt');
              billed = { usd: cost.usd, basis: 'assumed_timeout_charge', input_tokens: tokens.inputTokens, output_tokens: tokens.outputTokens };
            }
            if (failure.errorClass === 'rate_limit') limiter.onRateLimit();
            const decision = decideAfterFailure(failure, attempt, policy, jitterDraw(options.seed, job.runId, attempt), waitedMs);
            logAttempt(sink, {
              ...base,
              ended_at: ctx.stamp(),
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
              ...(failure.remedy ? { remedy: failure.remedy } : {}),
            });
            if (decision.action === 'quota_stop') {
              ctx.requestStop({ status: 'quota_stopped', reason: `${job.model}: ${decision.reason}` });
              track(commit(index, sink, null));
              return;
            }
            if (decision.action === 'deterministic') {
              await ctx.deterministicFailure(job, failure);
              track(commit(index, sink, null));
              return;
            }
            if (failure.errorClass === 'connection' && (await ctx.connectionFailure(job, failure))) {
              track(commit(index, sink, null)); // the server refuses every connection: the cell stays pending
              return;
            }
            if (decision.action === 'give_up' && failure.errorClass === 'connection' && !ctx.breaker.hasAnswered(job.model)) {
              // Never reached the server in this run: not a result of the cell, so no record (re-requested next run).
              ctx.cellUnfinished(job, failure);
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
              track(commit(index, sink, ctx.finalFor(job, request, outcome)));
              return;
            }
            waitedMs += decision.delayMs;
            await ctx.sleep(decision.delayMs);
            if (ctx.stopped) {
              track(commit(index, sink, null)); // stopped while waiting: the cell stays pending
              return;
            }
          }
        }
      };

      // The pool: `concurrency` workers take the next pending job until none is left or a stop is requested.
      let next = 0;
      const worker = async () => {
        while (!ctx.stopped && next < pending.length) {
          // Back-pressure: at most `concurrency` cells answered but not yet on disk, so a crash loses at
          // most 2 × concurrency paid calls (in flight + not yet written).
          while (pendingCommits.size >= concurrency) await Promise.race(pendingCommits);
          if (ctx.stopped || next >= pending.length) break;
          const index = next++;
          const job = pending[index]!;
          // A model whose breaker opened is not asked again (its slot in the reorder buffer is filled empty).
          if (ctx.breaker.isOpen(job.model)) track(commit(index, [], null));
          else await runJob(job, index);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      // Jobs never dispatched (stop) leave holes in the reorder buffer: flush what is there, in order.
      if (deterministic) {
        for (const index of [...buffered.keys()].sort((a, b) => a - b)) {
          const entry = buffered.get(index)!;
          buffered.delete(index);
          track(writeOut(entry.attempts, entry.final));
        }
      }
      while (pendingCommits.size > 0) await Promise.all([...pendingCommits]);
      if (writeError) throw writeError;
    },
  };
}
