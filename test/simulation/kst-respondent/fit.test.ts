/**
 * lib/simulation/kst-respondent/fit.ts: the objective over all 33 targets, and the fit's gain: the
 * shipped (version 2) parameters have a lower J than the version-1 parameters they replaced, on seed
 * streams the search never used (~r101 …).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadDomainDir } from '../../../lib/kst';
import { DOMAIN_DIFFICULTY, SIMULATED_PROFILES, type SimulatedProfile } from '../../../lib/simulation/kst-respondent/profiles';
import { designCells, KstFit, SD_FLOOR } from '../../../lib/simulation/kst-respondent/fit';

const cells = designCells(loadDomainDir(join(__dirname, '..', '..', '..', 'data/raw/domains')));

/** The version-1 parameters (before the fit), as they were shipped. */
const V1: Record<string, Pick<SimulatedProfile, 'belief' | 'slip'>> = {
  'sim-a': { belief: { P0: { miss: 0.07, spurious: 0.042 }, P1: { miss: 0.1, spurious: 0.06 } }, slip: { P0: 0.03, P1: 0.03, P2: 0.02, P3: 0 } },
  'sim-b': { belief: { P0: { miss: 0.205, spurious: 0.123 }, P1: { miss: 0.205, spurious: 0.123 } }, slip: { P0: 0.04, P1: 0.04, P2: 0.16, P3: 0.03 } },
  'sim-c': { belief: { P0: { miss: 0.145, spurious: 0.087 }, P1: { miss: 0.16, spurious: 0.096 } }, slip: { P0: 0.03, P1: 0.03, P2: 0, P3: 0 } },
  'sim-d': { belief: { P0: { miss: 0.205, spurious: 0.123 }, P1: { miss: 0.175, spurious: 0.105 } }, slip: { P0: 0.04, P1: 0.04, P2: 0.05, P3: 0.07 } },
  'sim-e': { belief: { P0: { miss: 0.22, spurious: 0.132 }, P1: { miss: 0.13, spurious: 0.078 } }, slip: { P0: 0.04, P1: 0.03, P2: 0, P3: 0 } },
  'sim-f': { belief: { P0: { miss: 0.175, spurious: 0.105 }, P1: { miss: 0.22, spurious: 0.132 } }, slip: { P0: 0.03, P1: 0.04, P2: 0, P3: 0 } },
};
const V1_DIFFICULTY = { 'linear-modelling': { P0: 1.25, P1: 1.25 }, slope: { P0: 4, P1: 5 }, 'graph-to-equation': { P0: 0.9, P1: 0.6 }, 'equation-to-graph': { P0: 0.05, P1: 0.05 } };
const v1 = SIMULATED_PROFILES.map((p) => ({ ...p, ...V1[p.name]!, domainDifficulty: V1_DIFFICULTY }));
const v2 = SIMULATED_PROFILES.map((p) => ({ ...p, domainDifficulty: DOMAIN_DIFFICULTY }));

test('the objective sums z² over the 33 targets, each z with the sd floored', () => {
  const fit = new KstFit(v2, cells, 3, 101);
  const rows = fit.table();
  assert.equal(rows.length, 33);
  assert.equal(rows.filter((r) => r.target.startsWith('Table 4')).length, 24);
  for (const r of rows) assert.ok(Math.abs(r.z - (r.expected - r.published) / Math.max(r.sd, SD_FLOOR)) < 1e-12);
  assert.ok(Math.abs(fit.objective() - rows.reduce((s, r) => s + r.z ** 2, 0)) < 1e-9);
});

test('the fit lowers the objective against the version-1 parameters, on seeds the search did not use', () => {
  const before = new KstFit(v1, cells, 6, 101).objective();
  const after = new KstFit(v2, cells, 6, 101).objective();
  assert.ok(after < before, `J after ${after.toFixed(2)} is not below J before ${before.toFixed(2)}`);
});
