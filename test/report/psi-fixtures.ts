/**
 * What the PSI report tests share: the shipped published numbers, two simulated tutors standing for
 * ChatGPT and Gemini, a scored-record builder, and closeness checks for full-precision cells.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScoredRecord } from '../../lib/psi/aggregate';
import { parsePublishedPsi } from '../../lib/report/psi-tables';

export const PUBLISHED_FILE = join(__dirname, '..', '..', 'data', 'published', 'psi-2026.json');
export const published = parsePublishedPsi(readFileSync(PUBLISHED_FILE, 'utf8'), PUBLISHED_FILE);
export const A = 'simulated:sim-tutor-a';
export const B = 'simulated:sim-tutor-b';
export const mirrors = { [A]: 'ChatGPT', [B]: 'Gemini' };

export function rec(run_id: string, model: string, psiSubs: [number, number, number, number, number, number], extra: Partial<ScoredRecord> = {}): ScoredRecord {
  const [kd, tv, sd, ef, cl, ra] = psiSubs;
  return {
    run_id, round: 1, scenario: 'S01', variant: 'standard', model,
    psi: (kd + tv + sd + ef + cl + ra) / 6, subscores: { kd, tv, sd, ef, cl, ra }, scoreSource: 'rescored', ...extra,
  };
}

export const EPS = 1e-12;
export const near = (actual: unknown, expected: number, what = 'value') =>
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < EPS, `${what}: expected ${expected}, got ${String(actual)}`);
/** Same keys; numbers within EPS of the hand values, everything else equal. */
export function assertRowNear(actual: Record<string, unknown> | undefined, expected: Record<string, unknown>) {
  assert.ok(actual, 'row missing');
  assert.deepEqual(Object.keys(actual), Object.keys(expected));
  for (const [k, v] of Object.entries(expected)) {
    if (typeof v === 'number') near(actual[k], v, k);
    else assert.equal(actual[k], v, k);
  }
}
