import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgress, formatDuration, progressLine, silentProgress } from '../../lib/collect/progress';

test('formatDuration: seconds, minutes with padded seconds, hours with padded minutes; ? for NaN or negative', () => {
  assert.equal(formatDuration(0), '0s');
  assert.equal(formatDuration(59_400), '59s');
  assert.equal(formatDuration(59_600), '1m00s', 'rounded to the second first');
  assert.equal(formatDuration(133_000), '2m13s');
  assert.equal(formatDuration(3_600_000 + 5 * 60_000 + 59_000), '1h05m');
  assert.equal(formatDuration(Number.NaN), '?');
  assert.equal(formatDuration(-1), '?');
});

test('progressLine worked by hand: 120/400 with 20 resumed, after 50 s', () => {
  // fraction 0.3 → 6 of 20 bar cells; rate (120 − 20) / 50 s = 2.0/s; ETA 280 / 2 = 140 s = 2m20s
  assert.equal(progressLine(120, 400, 20, 50_000, 0.421), '[######--------------] 120/400 30.0% 2.0/s ETA 2m20s $0.4210');
  assert.equal(progressLine(0, 10, 0, 0, null), '[--------------------] 0/10 0.0% 0.0/s ETA ? $?');
  assert.equal(progressLine(0, 0, 0, 1000, 0), '[####################] 0/0 100.0% 0.0/s ETA ? $0.0000', 'an empty design is done');
});

test('non-TTY: a line per 10 % step or per interval, and a final line', () => {
  let t = 0;
  const out: string[] = [];
  const sink = createProgress({ total: 100, initialDone: 0, stream: { write: (s: string) => out.push(s) }, now: () => t, intervalMs: 60_000, stepPercent: 10 });
  t = 1_000;
  sink.update({ done: 5, costUsd: 0 }); // first update: printed (−∞ → 5 %)
  t = 2_000;
  sink.update({ done: 9, costUsd: 0 }); // 4 % since the last line, 1 s: not printed
  t = 3_000;
  sink.update({ done: 15, costUsd: 0 }); // 10 % since 5 %: printed
  t = 70_000;
  sink.update({ done: 16, costUsd: 0 }); // 67 s since the last line ≥ 60 s: printed
  sink.finish();
  assert.equal(out.length, 4);
  assert.ok(out.every((l) => l.endsWith('\n') && !l.includes('\r')));
  assert.match(out[0]!, / 5\/100 5\.0% /);
  assert.match(out[1]!, / 15\/100 15\.0% 5\.0\/s /, '15 cells in 3 s');
  assert.match(out[2]!, / 16\/100 /);
  assert.match(out[3]!, / 16\/100 /);
});

test('TTY: the line is redrawn in place at most every 100 ms, and always at the end', () => {
  let t = 0;
  const out: string[] = [];
  const sink = createProgress({ total: 3, initialDone: 0, stream: { write: (s: string) => out.push(s), isTTY: true }, now: () => t });
  t = 50;
  sink.update({ done: 1, costUsd: 0.5 }); // 50 ms since start: not drawn
  t = 150;
  sink.update({ done: 2, costUsd: 0.5 }); // drawn
  t = 160;
  sink.update({ done: 3, costUsd: 1 }); // the last cell: drawn although only 10 ms passed
  sink.finish();
  assert.equal(out.length, 3);
  assert.ok(out.slice(0, 2).every((l) => l.startsWith('\r') && l.endsWith('\x1b[K')));
  assert.match(out[1]!, / 3\/3 100\.0% .* \$1\.0000\x1b\[K$/);
  assert.ok(out[2]!.endsWith('\x1b[K\n'));
  silentProgress.update({ done: 1, costUsd: null });
  silentProgress.finish();
});
