import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateClaims } from '../../lib/claims/ledger';
import { CALIBRATED_NOTE, claimsNotes, claimsTable, coverageByBasis, coverageRow, differingTable } from '../../lib/claims/display';
import { claims, doc, replicates, values } from './claim-fixture';

test('claims tables number each distinct note once; coverage counts by status and by basis', () => {
  const rows = evaluateClaims(doc, claims, values, true, replicates);
  const table = claimsTable(rows);
  assert.deepEqual(table.map((r) => r.note), ['note 1', '', '', '', 'note 2']);
  assert.deepEqual(table.map((r) => r.basis), ['calibrated', 'calibrated', 'independent', 'by-construction', 'independent']);
  const notes = claimsNotes(rows);
  assert.match(notes, /^\*\*Claims in this cell: 5\*\* — 1 match, 2 within-simulation-spread, 1 outside-simulation-spread, 1 not rebuildable/);
  assert.match(notes, /`kst\.table3\.P0\.exact` \(outside-simulation-spread: paper 61\.3, computed 61\.00, simulation \[62\.00, 66\.00\]\)/);
  assert.match(notes, /\n2\. needs the bills$/);
  assert.deepEqual(coverageRow('000', rows), { paper: '000', claims: 5, rebuilt: 4, 'not rebuildable': 1, match: 1, close: 0, differs: 0, 'within-simulation-spread': 2, 'outside-simulation-spread': 1 });
  const byBasis = coverageByBasis('000', rows);
  assert.deepEqual(byBasis.map((r) => [r.basis, r.claims, r.match, r['within-simulation-spread'], r['outside-simulation-spread'], r['not rebuildable']]), [
    ['by-construction', 1, 1, 0, 0, 0],
    ['calibrated', 2, 0, 1, 1, 0],
    ['independent', 2, 0, 1, 0, 1],
  ]);
  const differing = differingTable(rows);
  assert.deepEqual(differing.map((r) => r.claim), ['kst.table3.P0.exact']);
  assert.match(differing[0]!.why, /Gap: the paper's 61\.3 lies 0\.70 below the 95 % simulation interval/);
  assert.match(CALIBRATED_NOTE, /calibrated .* not evidence/);
});
