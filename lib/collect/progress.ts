/**
 * Progress on stderr. On a TTY: one line redrawn in place with a bar, done/total, rate, ETA and running
 * cost. Otherwise (logs, CI): a plain line whenever `intervalMs` has passed or another `stepPercent` of
 * the cells is done, so log files stay readable.
 */
export interface ProgressSink {
  update(state: { done: number; costUsd: number | null }): void;
  finish(): void;
}

export interface ProgressOptions {
  total: number;
  /** Cells already complete before this run (resumed); excluded from the rate. */
  initialDone: number;
  stream: { write(text: string): unknown; isTTY?: boolean };
  now?: () => number;
  intervalMs?: number;
  stepPercent?: number;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : m > 0 ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

/** One progress line, e.g. `[#####-----] 120/400 30.0% 2.1/s ETA 2m13s $0.4210`. */
export function progressLine(
  done: number,
  total: number,
  initialDone: number,
  elapsedMs: number,
  costUsd: number | null,
  barWidth = 20,
): string {
  const fraction = total === 0 ? 1 : done / total;
  const filled = Math.round(fraction * barWidth);
  const rate = elapsedMs > 0 ? ((done - initialDone) * 1000) / elapsedMs : 0;
  const eta = rate > 0 ? ((total - done) / rate) * 1000 : Number.NaN;
  const cost = costUsd === null ? '$?' : `$${costUsd.toFixed(4)}`;
  return `[${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${done}/${total} ${(fraction * 100).toFixed(1)}% ${rate.toFixed(1)}/s ETA ${formatDuration(eta)} ${cost}`;
}

export function createProgress(options: ProgressOptions): ProgressSink {
  const now = options.now ?? (() => Date.now());
  const start = now();
  const interval = options.intervalMs ?? 10_000;
  const step = options.stepPercent ?? 10;
  const tty = options.stream.isTTY === true;
  let lastPrint = start;
  let lastPercent = -Infinity;
  let last = { done: options.initialDone, costUsd: null as number | null };
  const line = () => progressLine(last.done, options.total, options.initialDone, now() - start, last.costUsd);
  return {
    update(state) {
      last = state;
      const t = now();
      if (tty) {
        if (t - lastPrint >= 100 || state.done === options.total) {
          options.stream.write(`\r${line()}\x1b[K`);
          lastPrint = t;
        }
        return;
      }
      const percent = options.total === 0 ? 100 : (state.done / options.total) * 100;
      if (t - lastPrint >= interval || percent - lastPercent >= step) {
        options.stream.write(`${line()}\n`);
        lastPrint = t;
        lastPercent = percent;
      }
    },
    finish() {
      options.stream.write(tty ? `\r${line()}\x1b[K\n` : `${line()}\n`);
    },
  };
}

/** A sink that prints nothing (tests, --quiet). */
export const silentProgress: ProgressSink = { update() {}, finish() {} };
