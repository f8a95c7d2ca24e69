import type { ErrorClass } from './retry';

/**
 * The circuit breaker of one run: stops a model's queue once its failures show that every further
 * request would fail the same way (a retired model, an output cap above the model's limit, an
 * unsupported parameter, a rejected key, a server that refuses every connection). Without it such a
 * run turned every cell into a `missing` record and reported `complete`.
 *
 * Rules (per model):
 * - deterministic failures (client_error, auth, or flagged `deterministic` by the provider) with the
 *   same signature (class, HTTP status, error code) `threshold` times in a row (no success between)
 *   open the breaker; an auth failure opens it at once (the key is the same for every cell);
 * - connection failures open it when the model has not answered once in this run and `threshold`
 *   different cells have failed to connect (one flaky connection among answers is retried normally).
 * An open breaker is final for the run: the model's remaining cells are not requested and keep no
 * record, so the next run requests them again once the cause is fixed.
 */

export interface BreakerFailure {
  errorClass: ErrorClass;
  message: string;
  httpStatus?: number;
  code?: string;
  /** One-line fix from the provider (ProviderError.info.remedy), when it knows one. */
  remedy?: string;
}

export interface BreakerTrip {
  model: string;
  errorClass: ErrorClass;
  httpStatus: number | null;
  code: string | null;
  /** Identical failures counted when it opened. */
  count: number;
  message: string;
  remedy: string;
}

/** Identical failures that open the breaker. */
export const DEFAULT_BREAKER_THRESHOLD = 3;

/** The fix to print when the provider gave none. */
export function defaultRemedy(model: string, failure: Pick<BreakerFailure, 'errorClass' | 'httpStatus'>): string {
  switch (failure.errorClass) {
    case 'auth':
      return `check the API key variable for ${model} (and that the key may use this model)`;
    case 'connection':
      return `check that the server for ${model} is running and reachable (--base-url)`;
    default:
      return failure.httpStatus === 404
        ? `check the model name ${model} (it may be retired or unknown to this endpoint)`
        : `check the model name, --max-output-tokens and the parameters sent to ${model}`;
  }
}

export class CircuitBreaker {
  private readonly opened = new Map<string, BreakerTrip>();
  private readonly streak = new Map<string, { signature: string; count: number }>();
  private readonly answered = new Set<string>();
  private readonly unreachable = new Map<string, Set<string>>();

  constructor(readonly threshold = DEFAULT_BREAKER_THRESHOLD) {}

  isOpen(model: string): boolean {
    return this.opened.has(model);
  }

  /** True once the model has answered in this run. */
  hasAnswered(model: string): boolean {
    return this.answered.has(model);
  }

  trips(): BreakerTrip[] {
    return [...this.opened.values()];
  }

  /** A successful answer: resets the model's streak and marks it reachable. */
  recordSuccess(model: string): void {
    this.answered.add(model);
    this.streak.delete(model);
    this.unreachable.delete(model);
  }

  /** A deterministic failure of one cell; returns the trip when this failure opened the breaker. */
  recordDeterministic(model: string, failure: BreakerFailure): BreakerTrip | null {
    if (this.opened.has(model)) return null;
    const signature = `${failure.errorClass}|${failure.httpStatus ?? ''}|${failure.code ?? ''}`;
    const last = this.streak.get(model);
    const count = last && last.signature === signature ? last.count + 1 : 1;
    this.streak.set(model, { signature, count });
    return failure.errorClass === 'auth' || count >= this.threshold ? this.open(model, failure, count) : null;
  }

  /** A connection failure of cell `runId`; opens the breaker when the model never answered and enough cells failed. */
  recordConnection(model: string, runId: string, failure: BreakerFailure): BreakerTrip | null {
    if (this.opened.has(model) || this.answered.has(model)) return null;
    const cells = this.unreachable.get(model) ?? new Set<string>();
    cells.add(runId);
    this.unreachable.set(model, cells);
    return cells.size >= this.threshold ? this.open(model, failure, cells.size) : null;
  }

  private open(model: string, failure: BreakerFailure, count: number): BreakerTrip {
    const trip: BreakerTrip = {
      model,
      errorClass: failure.errorClass,
      httpStatus: failure.httpStatus ?? null,
      code: failure.code ?? null,
      count,
      message: failure.message,
      remedy: failure.remedy ?? defaultRemedy(model, failure),
    };
    this.opened.set(model, trip);
    return trip;
  }
}
