import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdaptiveLimiter, DEFAULT_CALM_MS, TOKEN_WINDOW_MS, TokenBudget } from '../../lib/collect/rate-limit';

test('rate limits: retry-after honoured, concurrency halves on 429 and grows back after a calm stretch', async () => {
  let t = 0;
  const limiter = new AdaptiveLimiter(8, { now: () => t }, 30_000);
  limiter.onRateLimit();
  assert.equal(limiter.limit, 4);
  limiter.onRateLimit();
  limiter.onRateLimit();
  limiter.onRateLimit();
  assert.equal(limiter.limit, 1, 'never below 1');
  t = 29_999;
  limiter.onSuccess();
  assert.equal(limiter.limit, 1, 'not calm long enough');
  t = 30_000;
  limiter.onSuccess();
  assert.equal(limiter.limit, 2);
  t = 45_000;
  limiter.onSuccess();
  assert.equal(limiter.limit, 2, 'one step per calm stretch');
  // in-flight calls are held to the limit
  const ac = new AbortController();
  assert.equal(await limiter.acquire(ac.signal), true);
  assert.equal(await limiter.acquire(ac.signal), true);
  let third = false;
  const p = limiter.acquire(ac.signal).then((ok) => (third = ok));
  await new Promise((r) => setImmediate(r));
  assert.equal(third, false, 'a third call waits');
  limiter.release();
  await p;
  assert.equal(third, true);
});

test('token budget: each call reserves prompt + output allowance; calls wait for the minute window', async () => {
  let t = 0;
  const waits: number[] = [];
  const clock = { now: () => t, sleep: async (ms: number) => { waits.push(ms); t += ms; } };
  const budget = new TokenBudget(10_000, clock);
  const ac = new AbortController();
  assert.equal(await budget.reserve(4000, ac.signal), true);
  t = 10_000;
  assert.equal(await budget.reserve(4000, ac.signal), true);
  assert.equal(budget.used(), 8000);
  // 8000 + 4000 > 10000: waits until the first reservation (t=0) leaves the window at t=60000
  assert.equal(await budget.reserve(4000, ac.signal), true);
  assert.deepEqual(waits, [50_000]);
  assert.equal(t, 60_000);
  assert.equal(budget.used(), 8000);
});
test('AIMD worked by hand: 10 → 5 → 2 on two 429s, then +1 per 30 s calm stretch up to the maximum, never above', () => {
  let t = 1_000;
  const limiter = new AdaptiveLimiter(10, { now: () => t });
  assert.equal(DEFAULT_CALM_MS, 30_000);
  limiter.onRateLimit(); // floor(10 / 2) = 5, calm stretch restarts at t = 1000
  limiter.onRateLimit(); // floor(5 / 2) = 2
  assert.equal(limiter.limit, 2);
  const grownAt: number[] = [];
  for (t = 1_000; t <= 1_000 + 12 * 30_000; t += 10_000) {
    const before = limiter.limit;
    limiter.onSuccess();
    if (limiter.limit > before) grownAt.push(t);
  }
  // 2 → 10 takes eight steps, one at each 30 s boundary after the last 429: t = 31 000, 61 000, … 241 000
  assert.deepEqual(grownAt, [31_000, 61_000, 91_000, 121_000, 151_000, 181_000, 211_000, 241_000]);
  assert.equal(limiter.limit, 10);
  assert.equal(new AdaptiveLimiter(0, { now: () => 0 }).limit, 1, 'a limit of 0 is taken as 1');
});

test('an aborted acquire takes no slot', async () => {
  const limiter = new AdaptiveLimiter(1, { now: () => 0 });
  const ac = new AbortController();
  assert.equal(await limiter.acquire(ac.signal), true);
  const waiting = limiter.acquire(ac.signal);
  ac.abort();
  assert.equal(await waiting, false);
  limiter.release();
  assert.equal(await limiter.acquire(new AbortController().signal), true, 'the one slot is free again');
});

test('token budget worked by hand: 6000 tokens per minute, calls of 2500 at t = 0, 1 s, 2 s', async () => {
  let t = 0;
  const waits: number[] = [];
  const budget = new TokenBudget(6_000, { now: () => t, sleep: async (ms) => { waits.push(ms); t += ms; } });
  const signal = new AbortController().signal;
  assert.equal(await budget.reserve(2_500, signal), true); // t = 0: 2500
  t = 1_000;
  assert.equal(await budget.reserve(2_500, signal), true); // t = 1 s: 5000 ≤ 6000
  t = 2_000;
  // 5000 + 2500 = 7500 > 6000: freeing the t = 0 call leaves 2500 + 2500 = 5000 ≤ 6000, so it waits
  // until that call leaves the window at 0 + 60 000 ms, i.e. 58 000 ms from t = 2000.
  assert.equal(await budget.reserve(2_500, signal), true);
  assert.deepEqual(waits, [58_000]);
  assert.equal(t, TOKEN_WINDOW_MS);
  assert.equal(budget.used(), 5_000, 'the t = 1 s and t = 60 s reservations');
  t = 61_000; // the t = 1 s reservation leaves the window (at ≤ now − 60 000)
  assert.equal(budget.used(), 2_500);
});

test('token budget: a reservation larger than the budget still runs alone (FIFO), an abort while waiting resolves false', async () => {
  const ac = new AbortController();
  const slept: number[] = [];
  // The clock stands still; the caller gives up during the first wait.
  const budget = new TokenBudget(1_000, { now: () => 0, sleep: async (ms) => { slept.push(ms); ac.abort(); } });
  assert.equal(await budget.reserve(5_000, ac.signal), true, 'nothing reserved yet: it goes through');
  assert.equal(await budget.reserve(10, ac.signal), false, 'aborted during the wait');
  assert.deepEqual(slept, [60_000], 'it waited for the first reservation to leave the window');
  assert.equal(budget.used(), 5_000, 'the aborted call reserved nothing');
});
