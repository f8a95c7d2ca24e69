import type { CompletionRequest, Provider } from '../provider/contract';
import type { Failure } from './lifecycle';
import { assumedOutputTokens, estimateTokens, noUsageNote, roundUsd } from './prices';
import { AdaptiveLimiter, TokenBudget, type Clock } from './rate-limit';
import { jitterDraw } from './retry';
import { decide, decisionLabel, type AttemptOutcome, type Decision, type DecideItem } from './decide';
import { errorAttemptLine, responseAttemptLine, type AttemptBase } from './attempt-line';
import { defaultRemedy } from './circuit-breaker';
import { CUT_OFF_FIX, preflightCells } from './preflight';
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

export { checkFingerprint } from './fingerprint';
export {
  abortableSleep,
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
  /** `--no-preflight` gives false: no model's first cell is sent alone first (preflight.ts). */
  preflight?: boolean;
  /** The model's output cap: a cut-off answer is retried once with up to twice the allowance, within it. */
  outputCapFor?(model: string): number | null;
}

export function runCollection<M>(options: EngineOptions<M>): Promise<EngineResult> {
  return runLifecycle(options, liveTransport(options));
}

/** Tokens one call reserves against a per-minute budget: prompt (chars / 4) + the whole output allowance. */
export function reservedTokens(request: Pick<CompletionRequest, 'system' | 'user' | 'maxOutputTokens'>): number {
  return estimateTokens(request.system + request.user) + request.maxOutputTokens;
}

export function liveTransport<M>(options: EngineOptions<M>): Transport<M> {
  return { run: (ctx: RunContext<M>) => new LivePool(options, ctx).run() };
}

/**
 * Where the cells' records go. Commit: immediately (real providers: a paid answer must reach disk at
 * once) or in job order through a reorder buffer (deterministic mode). A worker hands its cell's
 * records over and takes the next job at once; the run waits for every write before it ends (killed
 * in between, a cell not yet on disk is simply requested again on resume). A failed write stops the run.
 */
class CommitQueue<M> {
  private readonly buffered = new Map<number, { attempts: unknown[]; final: Record<string, unknown> | null }>();
  private nextToCommit = 0;
  /** Cells answered whose records are not on disk yet (the back-pressure counts them). */
  readonly inFlight = new Set<Promise<unknown>>();
  writeError: Error | null = null;

  constructor(private readonly ctx: RunContext<M>) {}

  /** Appends are queued synchronously (file order = call order) and resolve once on disk. */
  private writeOut(attempts: unknown[], final: Record<string, unknown> | null): Promise<unknown> {
    const writes: Array<Promise<void>> = attempts.map((a) => this.ctx.attemptsLog.append(a));
    if (final) {
      writes.push(this.ctx.responsesLog.append(final));
      this.ctx.countFinal(final);
    }
    return Promise.all(writes);
  }

  /** A cell's records (its attempt lines or their pending writes in `sink`, and its final record or null), tracked until on disk. */
  commit(index: number, sink: unknown[], final: Record<string, unknown> | null): void {
    // Real providers: the sink holds the pending attempt-line writes; the final record follows once
    // they are on disk, so a final record never exists without its attempt lines.
    if (!this.ctx.deterministic) return this.track(Promise.all(sink as Array<Promise<void>>).then(() => this.writeOut([], final)));
    this.buffered.set(index, { attempts: sink, final });
    const flushed: Array<Promise<unknown>> = [];
    while (this.buffered.has(this.nextToCommit)) {
      const entry = this.buffered.get(this.nextToCommit)!;
      this.buffered.delete(this.nextToCommit);
      flushed.push(this.writeOut(entry.attempts, entry.final));
      this.nextToCommit += 1;
    }
    this.track(Promise.all(flushed));
  }

  /** In deterministic mode an attempt line is buffered with its job; otherwise queued at once. `simulated`: no API was called. */
  logAttempt(sink: unknown[], record: Record<string, unknown>, simulated: boolean): void {
    this.ctx.checkAttempt(record);
    this.ctx.countAttempts(1, simulated);
    sink.push(this.ctx.deterministic ? record : this.ctx.attemptsLog.append(record));
  }

  private track(p: Promise<unknown>): void {
    const tracked: Promise<unknown> = p
      .catch((err: Error) => {
        this.writeError ??= err;
        this.ctx.requestStop({ status: 'failed', reason: `cannot write the audit files: ${err.message}` });
      })
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /** Jobs never dispatched (stop) leave holes in the reorder buffer: flush what is there, in order. */
  flushHoles(): void {
    for (const index of [...this.buffered.keys()].sort((a, b) => a - b)) {
      const entry = this.buffered.get(index)!;
      this.buffered.delete(index);
      this.track(this.writeOut(entry.attempts, entry.final));
    }
  }

  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }
}

/** The live transport's run: the pre-flight cells one by one, then `concurrency` workers. */
class LivePool<M> {
  private readonly concurrency: number;
  private readonly clock: Clock;
  private readonly limiters = new Map<string, AdaptiveLimiter>();
  private readonly budgets = new Map<string, TokenBudget>();
  private readonly commits: CommitQueue<M>;

  constructor(
    private readonly options: EngineOptions<M>,
    private readonly ctx: RunContext<M>,
  ) {
    this.concurrency = Math.max(1, options.concurrency);
    this.clock = { now: () => ctx.clockMs(), sleep: (ms) => ctx.sleep(ms) };
    this.commits = new CommitQueue(ctx);
  }

  private limiterFor(model: string): AdaptiveLimiter {
    let l = this.limiters.get(model);
    if (!l) this.limiters.set(model, (l = new AdaptiveLimiter(this.concurrency, this.clock, this.options.calmMs)));
    return l;
  }

  private budgetFor(model: string): TokenBudget {
    let b = this.budgets.get(model);
    if (!b) this.budgets.set(model, (b = new TokenBudget(this.options.tokensPerMinute!, this.clock)));
    return b;
  }

  async run(): Promise<void> {
    const { ctx, options, commits } = this;
    const { pending } = ctx;
    // The pre-flight: each real model's first pending cell goes alone, before the pool (preflight.ts).
    const preflightIndexes = options.preflight === false ? [] : preflightCells(pending, (m) => !options.providerFor(m).simulated);
    for (const index of preflightIndexes) {
      if (ctx.stopped) break;
      await this.runJob(pending[index]!, index, true);
      await commits.drain();
    }
    const skip = new Set(preflightIndexes);
    // The pool: `concurrency` workers take the next pending job until none is left or a stop is requested.
    let next = 0;
    const worker = async () => {
      while (!ctx.stopped && next < pending.length) {
        // Back-pressure: at most `concurrency` cells answered but not yet on disk, so a crash loses at
        // most 2 × concurrency paid calls (in flight + not yet written).
        while (commits.inFlight.size >= this.concurrency) await Promise.race(commits.inFlight);
        if (ctx.stopped || next >= pending.length) break;
        const index = next++;
        if (skip.has(index)) continue;
        const job = pending[index]!;
        // A model whose breaker opened is not asked again (its slot in the reorder buffer is filled empty).
        if (ctx.breaker.isOpen(job.model)) commits.commit(index, [], null);
        else await this.runJob(job, index);
      }
    };
    await Promise.all(Array.from({ length: this.concurrency }, worker));
    if (ctx.deterministic) commits.flushHoles();
    await commits.drain();
    if (commits.writeError) throw commits.writeError;
  }

  /** One cell: attempts until decide() finishes, holds or stops it; its records go to the commit queue. */
  private async runJob(job: Job<M>, index: number, preflight = false): Promise<void> {
    const { ctx, options, commits } = this;
    const cell = new CellAttempts(ctx, options, job, preflight);
    const limiter = this.limiterFor(job.model);
    const provider = options.providerFor(job.model);
    for (let attempt = 1; ; attempt++) {
      const request = cell.request();
      if (!(await this.admitted(job.model, request, limiter))) return commits.commit(index, cell.sink, null); // the cell stays pending
      const t0 = ctx.clockMs();
      const startedAt = ctx.stamp();
      let outcome: AttemptOutcome;
      try {
        outcome = { kind: 'response', result: await provider.complete(request) };
      } catch (err) {
        outcome = { kind: 'failure', failure: classify(err) };
      } finally {
        limiter.release();
      }
      const latency = ctx.deterministic ? null : Math.round(ctx.clockMs() - t0);
      if (outcome.kind === 'response') {
        ctx.breaker.recordSuccess(job.model);
        limiter.onSuccess();
      } else if (outcome.failure.errorClass === 'rate_limit') limiter.onRateLimit();
      const decision = decide(cell.item(attempt, request), outcome, {
        policy: ctx.policy,
        jitter: jitterDraw(options.seed, job.runId, attempt),
        outputCap: options.outputCapFor?.(job.model) ?? null,
        modelAnswered: ctx.breaker.hasAnswered(job.model),
        enlargeCutOff: !provider.simulated,
      });
      commits.logAttempt(cell.sink, cell.line({ run_id: job.runId, model: job.model, attempt, started_at: startedAt, ended_at: ctx.stamp(), latency_ms: latency }, request, outcome, decision), provider.simulated);
      const final = await cell.act(decision, outcome, attempt);
      if (final === 'again') {
        if (ctx.stopped) return commits.commit(index, cell.sink, null); // stopped while waiting: the cell stays pending
        continue;
      }
      return commits.commit(index, cell.sink, final);
    }
  }

  /** Waits for the model's breaker, the run's stop, the --tpm budget and a concurrency slot; false = do not send. */
  private async admitted(model: string, request: CompletionRequest, limiter: AdaptiveLimiter): Promise<boolean> {
    const { ctx, options } = this;
    if (ctx.breaker.isOpen(model) || ctx.stopped) return false;
    if (options.tokensPerMinute !== undefined && !(await this.budgetFor(model).reserve(reservedTokens(request), ctx.stopSignal))) return false;
    return limiter.acquire(ctx.stopSignal);
  }
}

/** One cell's attempts in the live transport: its request allowance, cost, waits and records. */
class CellAttempts<M> {
  /** Attempt lines (deterministic mode) or their pending writes. */
  readonly sink: unknown[] = [];
  private costUsd: number | null = 0;
  private costNote: string | undefined;
  private waitedMs = 0;
  private allowance: number | null = null;

  constructor(
    private readonly ctx: RunContext<M>,
    private readonly options: EngineOptions<M>,
    private readonly job: Job<M>,
    private readonly preflight: boolean,
  ) {}

  request(): CompletionRequest {
    const r = this.ctx.requestFor(this.job);
    return this.allowance === null ? r : { ...r, maxOutputTokens: this.allowance };
  }

  item(attempt: number, request: CompletionRequest): DecideItem {
    return { model: this.job.model, attempt, waitedMs: this.waitedMs, maxOutputTokens: request.maxOutputTokens, enlarged: this.allowance !== null, preflight: this.preflight };
  }

  private addCost(usd: number | null, note?: string): void {
    this.costUsd = this.costUsd === null || usd === null ? null : roundUsd(this.costUsd + usd);
    if (note) this.costNote = note;
    this.ctx.addCost(usd);
  }

  /** The attempt line (and its cost) for one attempt. */
  line(base: AttemptBase, request: CompletionRequest, outcome: AttemptOutcome, decision: Decision): Record<string, unknown> {
    const extra: Record<string, unknown> = {
      ...(this.allowance !== null ? { max_output_tokens: this.allowance } : {}),
      ...(this.preflight ? { preflight: true } : {}),
    };
    const responseExtra = {
      ...extra,
      ...(decision.action !== 'finish' ? { decision: decisionLabel(decision) } : {}),
      ...(decision.action === 'retry' && decision.maxOutputTokens !== undefined ? { next_max_output_tokens: decision.maxOutputTokens } : {}),
    };
    if (outcome.kind === 'response') {
      const { result } = outcome;
      const cost = result.usage ? this.ctx.costOf(this.job.model, result.usage, {}) : { usd: null, note: noUsageNote(result) };
      this.addCost(cost.usd, cost.note);
      return responseAttemptLine(base, result, { usd: cost.usd, basis: result.usage ? 'reported_usage' : 'unknown', note: cost.note }, responseExtra);
    }
    const failure = outcome.failure as Failure;
    if (failure.transportFault) this.ctx.countTransportFault();
    return errorAttemptLine(base, failure, this.timeoutCharge(request, failure), decisionLabel(decision), decision.action === 'retry' ? decision.delayMs : null, extra);
  }

  /**
   * An attempt that failed may still be billed: input from the prompt, output from the catalogue's
   * assumption. A timeout, unless the server never said it started (a stream that sent no
   * message_start); and a connection cut after a 2xx's headers (a non-streamed answer is sent once
   * generated, so it was billed though its body never arrived; a stream cut after message_start was
   * generating), unless, again, a stream sent no event before the cut.
   */
  private timeoutCharge(request: CompletionRequest, failure: Failure): Record<string, unknown> | null {
    const timedOut = failure.errorClass === 'timeout' && failure.started !== false;
    const cutAfterOk = failure.errorClass === 'connection' && failure.started !== false && failure.httpStatus !== undefined && failure.httpStatus >= 200 && failure.httpStatus < 300;
    if (!timedOut && !cutAfterOk) return null;
    const what = timedOut ? 'a timed-out attempt' : 'an answer whose body was cut off';
    const tokens = { inputTokens: estimateTokens(request.system + request.user), outputTokens: assumedOutputTokens(this.options.prices, this.job.model) };
    const cost = this.ctx.costOf(this.job.model, tokens, {});
    this.addCost(cost.usd, cost.note ?? `includes an assumed charge for ${what}`);
    return { usd: cost.usd, basis: timedOut ? 'assumed_timeout_charge' : 'assumed_cut_off_charge', input_tokens: tokens.inputTokens, output_tokens: tokens.outputTokens };
  }

  /** Carries out a decision: the final record to write, null (no record), or 'again' (retry now). */
  async act(decision: Decision, outcome: AttemptOutcome, attempts: number): Promise<Record<string, unknown> | null | 'again'> {
    const { ctx, job } = this;
    const request = this.request();
    const allowanceNote = this.allowance !== null ? { max_output_tokens_used: this.allowance } : {};
    switch (decision.action) {
      case 'finish':
        if (outcome.kind === 'response') {
          return ctx.finalFor(job, request, { kind: 'response', result: outcome.result, attempts, costUsd: this.costUsd, costNote: this.costNote }, allowanceNote);
        }
        if (decision.outcome !== 'missing') throw new Error('internal: a failed attempt cannot finish as a response');
        return ctx.finalFor(job, request, {
          kind: 'missing',
          errorClass: (outcome as { failure: Failure }).failure.errorClass,
          reason: `${decision.reason}: ${(outcome as { failure: Failure }).failure.message}`,
          attempts,
          costUsd: this.costUsd,
          costNote: this.costNote,
        });
      case 'retry':
        if (decision.maxOutputTokens !== undefined) this.allowance = decision.maxOutputTokens;
        this.waitedMs += decision.delayMs;
        if (decision.delayMs > 0) await ctx.sleep(decision.delayMs);
        return 'again';
      case 'hold': {
        const failure = (outcome as { failure: Failure }).failure;
        if (decision.why === 'deterministic') await ctx.deterministicFailure(job, failure);
        else ctx.cellUnfinished(job, failure);
        return null;
      }
      case 'stop': {
        const failure = outcome.kind === 'failure' ? (outcome.failure as Failure) : null;
        const remedy =
          decision.status === 'quota_stopped'
            ? undefined
            : failure
              ? (failure.remedy ?? defaultRemedy(job.model, failure))
              : (this.options.cutOffFix ?? CUT_OFF_FIX);
        ctx.requestStop({ status: decision.status, reason: `${job.model}: ${decision.reason}`, ...(remedy ? { remedy } : {}) });
        return null;
      }
    }
  }
}
