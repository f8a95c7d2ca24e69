import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { bootstrapMeanInterval, conditionContrast, signFlipTest } from '../../lib/stats';

test('combines bootstrap and sign-flip test with derived, reported seeds', () => {
  const gen = seedrandom.alea('contrast-data');
  const differences = Array.from({ length: 50 }, () => Math.round((gen() - 0.35) * 12) / 12);
  const c = conditionContrast(differences, { seed: 'P2-P1:exact', resamples: 2_000, flips: 20_000 });
  assert.equal(c.bootstrapSeed, 'P2-P1:exact:bootstrap');
  assert.equal(c.signFlipSeed, 'P2-P1:exact:signflip');
  const interval = bootstrapMeanInterval(differences, { seed: c.bootstrapSeed, resamples: 2_000 });
  const test_ = signFlipTest(differences, { seed: c.signFlipSeed, flips: 20_000 });
  assert.deepEqual(
    { estimate: c.estimate, low: c.low, high: c.high, p: c.p },
    { estimate: interval.estimate, low: interval.low, high: interval.high, p: test_.p },
  );
  assert.equal(c.n, 50);
  assert.equal(c.level, 0.95);
  assert.ok(c.low <= c.estimate && c.estimate <= c.high);
  assert.deepEqual(conditionContrast(differences, { seed: 'P2-P1:exact', resamples: 2_000, flips: 20_000 }), c);
});

test('a constant positive difference: degenerate interval, p = 1/(1 + flips)', () => {
  const c = conditionContrast(new Array(50).fill(0.02), { seed: 'const' });
  assert.equal(c.resamples, 10_000);
  assert.equal(c.flips, 100_000);
  // Every resample is 50 copies of 0.02, so the interval is one point. The estimate is the compensated
  // mean (exactly 0.02); the resampled means are summed left to right (the bootstrap's hot loop), which
  // lands a few ulps above it.
  assert.equal(c.estimate, 0.02);
  assert.equal(c.low, c.high);
  assert.ok(Math.abs(c.low - 0.02) < 1e-15);
  assert.equal(c.p, 1 / 100_001);
});
