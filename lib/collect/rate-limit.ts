/**
 * Client-side rate control, per model, for the live transport:
 * - `AdaptiveLimiter`: how many calls of a model may be in flight. Halved on every 429 (never below 1),
 *   grown back by one after each calm stretch (`calmMs` without a 429), up to the configured
 *   concurrency — additive increase, multiplicative decrease, as TCP does for the same reason: the
 *   server's capacity is unknown and changes.
 * - `TokenBudget`: a tokens-per-minute budget (`--tpm`). Each call reserves its prompt estimate plus
 *   the full output allowance, because OpenAI counts `max_tokens` against the per-minute limit when
 *   the request arrives, not the tokens the answer used.
 * Both take an injectable clock and sleep, so tests run without real waiting.
 */

export interface Clock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** Calm stretch after which the in-flight limit grows back by one. */
export const DEFAULT_CALM_MS = 30_000;

export class AdaptiveLimiter {
  private inFlight = 0;
  private current: number;
  private calmSince: number;
  private readonly waiters: Array<() => void> = [];

  constructor(
    readonly max: number,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly calmMs = DEFAULT_CALM_MS,
  ) {
    this.current = Math.max(1, max);
    this.calmSince = clock.now();
  }

  /** The in-flight limit now. */
  get limit(): number {
    return this.current;
  }

  /** Waits for a free slot; resolves false when `signal` aborted first (no slot taken). */
  async acquire(signal: AbortSignal): Promise<boolean> {
    while (this.inFlight >= this.current) {
      if (signal.aborted) return false;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.push(done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
    if (signal.aborted) return false;
    this.inFlight += 1;
    return true;
  }

  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.wake();
  }

  /** A 429: halve the limit and restart the calm stretch. */
  onRateLimit(): void {
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.calmSince = this.clock.now();
  }

  /** An answer: after a calm stretch the limit grows by one (and the stretch restarts). */
  onSuccess(): void {
    const t = this.clock.now();
    if (this.current < this.max && t - this.calmSince >= this.calmMs) {
      this.current += 1;
      this.calmSince = t;
      this.wake();
    }
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

/** Length of the token budget's sliding window. */
export const TOKEN_WINDOW_MS = 60_000;

export class TokenBudget {
  private readonly spent: Array<{ at: number; tokens: number }> = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly tokensPerMinute: number,
    private readonly clock: Clock,
  ) {}

  /** Tokens reserved in the last minute. */
  used(): number {
    this.expire();
    return this.spent.reduce((s, e) => s + e.tokens, 0);
  }

  /**
   * Reserves `tokens` once they fit in the last minute's budget (FIFO, so a large call is not starved).
   * Resolves false when `signal` aborted while waiting. A reservation above the whole budget is the
   * caller's bug (collect refuses such a --tpm up front).
   */
  reserve(tokens: number, signal: AbortSignal): Promise<boolean> {
    const turn = this.queue.then(async () => {
      for (;;) {
        if (signal.aborted) return false;
        this.expire();
        const used = this.spent.reduce((s, e) => s + e.tokens, 0);
        if (used + tokens <= this.tokensPerMinute || this.spent.length === 0) {
          this.spent.push({ at: this.clock.now(), tokens });
          return true;
        }
        // Wait until enough of the oldest reservations leave the window.
        let freed = used;
        let until = this.spent[0]!.at + TOKEN_WINDOW_MS;
        for (const e of this.spent) {
          freed -= e.tokens;
          until = e.at + TOKEN_WINDOW_MS;
          if (freed + tokens <= this.tokensPerMinute) break;
        }
        await this.clock.sleep(Math.max(1, until - this.clock.now()), signal);
      }
    });
    this.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  private expire(): void {
    const cutoff = this.clock.now() - TOKEN_WINDOW_MS;
    while (this.spent.length > 0 && this.spent[0]!.at <= cutoff) this.spent.shift();
  }
}
