import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateClaims } from '../../lib/claims/ledger';
import { claimsTable } from '../../lib/claims/display';
import { showClaims } from '../../lib/claims/show';
import { toCsv, toTable } from '../../lib/figures/table';
import { claims, doc, replicates, values } from './claim-fixture';

test('showClaims saves the section\'s claims table (CSV, HTML, sidecar) as saveTable would, caption marked when simulated', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-claims-'));
  const rows = evaluateClaims(doc, claims, values, true, replicates);
  assert.equal(showClaims(rows, '04-claims-x', { title: 'Claims of Table X', simulated: true, dir }), undefined, 'no value for the cell to print');
  assert.equal(readFileSync(join(dir, '04-claims-x.csv'), 'utf8'), toCsv(toTable(claimsTable(rows))));
  assert.equal(JSON.parse(readFileSync(join(dir, '04-claims-x.csv.meta.json'), 'utf8')).simulated, true);
  assert.match(readFileSync(join(dir, '04-claims-x.html'), 'utf8'), /<caption>Claims of Table X — SIMULATED/);
});
