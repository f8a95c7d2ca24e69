import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateClaims } from '../../lib/claims/ledger';
import { claimsNotes, claimsTable, coverageRow, differingTable } from '../../lib/claims/display';
import { claims, doc, values } from './claim-fixture';

test('claims tables number each distinct note once; coverage counts by status', () => {
  const rows = evaluateClaims(doc, claims, values, true);
  const table = claimsTable(rows);
  assert.deepEqual(table.map((r) => r.note), ['note 1', '', '', 'note 2']);
  const notes = claimsNotes(rows);
  assert.match(notes, /^\*\*Claims in this cell: 4\*\* — 2 match, 0 close, 1 differs-simulated, 0 differs, 1 not rebuildable/);
  assert.match(notes, /`kst\.table3\.P0\.exact` \(differs-simulated: paper 61\.3, computed 61\.00\)/);
  assert.match(notes, /\n2\. needs the bills$/);
  assert.deepEqual(coverageRow('000', rows), { paper: '000', claims: 4, rebuilt: 3, 'not rebuildable': 1, match: 2, close: 0, 'differs-simulated': 1, differs: 0 });
  assert.deepEqual(differingTable(rows).map((r) => r.claim), ['kst.table3.P0.exact']);
});
