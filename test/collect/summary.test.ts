import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attemptsWording, outcomeLine, resumedWording } from '../../lib/collect/summary';
import type { CollectOutcome } from '../../lib/collect/runner';

test('resumed cells: done and missing apart, and no missing part when none is missing', () => {
  assert.equal(resumedWording({ resumed: 16, resumedMissing: 6 }), '10 already complete, 6 missing from an earlier run (--retry-missing requests them)');
  assert.equal(resumedWording({ resumed: 4, resumedMissing: 0 }), '4 already complete');
});

test('attempts: API calls and simulated answers apart', () => {
  assert.equal(attemptsWording({ attempts: 32, simulatedAttempts: 16 }), '16 API attempts, 16 simulated (no API)');
  assert.equal(attemptsWording({ attempts: 2400, simulatedAttempts: 2400 }), '0 API attempts, 2400 simulated (no API)');
  assert.equal(attemptsWording({ attempts: 5, simulatedAttempts: 0 }), '5 API attempts');
});

test("a notebook's outcome line: status, cells, written counts, attempts, cost and the simulated label", () => {
  const outcome = { status: 'complete', total: 12, resumed: 3, resumedMissing: 1, written: { valid: 8, invalid: 1 }, attempts: 9, simulatedAttempts: 9, costUsd: 0, deterministic: true } as unknown as CollectOutcome;
  assert.equal(
    outcomeLine(outcome),
    'complete: 12 cells, 2 already complete, 1 missing from an earlier run (--retry-missing requests them), written {"valid":8,"invalid":1}, 0 API attempts, 9 simulated (no API), estimated cost $0.00 (SIMULATED: deterministic)',
  );
  assert.match(outcomeLine({ ...outcome, costUsd: null, deterministic: false, simulatedAttempts: 0 }), /, 9 API attempts, estimated cost unknown$/);
});
