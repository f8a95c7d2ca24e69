/**
 * lib/claims/simulation-gaps.ts: reasons are per claim (exact ids, no prefixes), name a claim of the
 * ledger, describe a mechanism and state a gap. That each one is outside now, and that the stated gap
 * is the measured one, is checked against the shipped data in test/claims/ledger.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadPublishedKst } from '../../lib/records/published-kst';
import { loadPublishedPsi } from '../../lib/records/published-psi';
import { simulationGap, simulationGapIds, statedGap } from '../../lib/claims/simulation-gaps';

const root = join(__dirname, '..', '..');
const all = [...loadPublishedKst(join(root, 'data/published/kst-benchmark-2026.json')).claims, ...loadPublishedPsi(join(root, 'data/published/psi-2026.json')).claims];

test('every reason names one claim of the ledger that depends on responses, with a mechanism and a finite gap', () => {
  assert.ok(simulationGapIds().length > 0);
  for (const id of simulationGapIds()) {
    const c = all.find((x) => x.id === id);
    assert.ok(c, `reason ${id} names no claim`);
    assert.notEqual(c.basis, 'by-construction', `${id}: a by-construction claim must match, not be excused`);
    assert.ok(simulationGap(id)!.length > 60, `${id}: the mechanism is one short phrase`);
    assert.ok(Number.isFinite(statedGap(id)), `${id}: no gap stated`);
  }
});

test('no group-wide excuse: a prefix of a claim id has no reason, and neither has an unknown id', () => {
  assert.equal(simulationGap('kst.table3'), undefined);
  assert.equal(simulationGap('kst'), undefined);
  assert.equal(simulationGap('kst.table3.P0.exact.x'), undefined);
  assert.equal(simulationGap('constructor'), undefined, 'prototype keys are not reasons');
});
