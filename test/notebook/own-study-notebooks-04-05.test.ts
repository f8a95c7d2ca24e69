// Notebooks 04-05 on a fractions study of the test's own (own-study-helpers.ts): no paper column, marker or
// claim, models named by their profiles, Figure 3 on the rule's cell and not empty, the report in --output-dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertReportRebuilds, runOnFractions } from './own-study-helpers';

test('notebooks 04-05 on a study of its own: no paper column, marker or claim; a Figure 3 with bars; the report', { timeout: 600_000 }, () => {
  const { out, project, read } = runOnFractions(['04', '05']);
  const tables = join(out, 'data', 'processed', 'tables');
  const csvs = readdirSync(tables).filter((f) => f.endsWith('.csv'));
  assert.ok(csvs.includes('04-table-3-conditions.csv') && csvs.includes('05-table-4-models.csv') && csvs.includes('05-model-averages.csv'));
  for (const f of csvs) assert.doesNotMatch(readFileSync(join(tables, f), 'utf8').split('\n')[0]!, /paper/, `${f} has a paper column`);
  assert.ok(!csvs.some((f) => f.includes('claims')), 'no claims table');
  for (const f of ['04-table3-figure1.ipynb', '05-table4-figures2-3.ipynb']) assert.match(read(f), /No claims ledger: the study does not declare/);
  // Figure 1 without the paper's markers (its two bar traces only); Figure 3 on the rule's cell, with bars named by profile.
  assert.equal(JSON.parse(read('figures/04-figure-1-exact-f1.json')).traces, 2);
  assert.match(read('05-table4-figures2-3.ipynb'), /Figure 3: fractions × P\d \(the widest spread between models/);
  assert.match(read('data/processed/tables/05-figure-3-counts.csv'), /^simulated:sim-a,\d+,22,/m);
  assert.match(read('data/processed/tables/05-model-domain-condition.csv'), /^fractions,sim-a,/m, 'sim-a, not "sim-a ≈ Claude Fable 5"');
  assertReportRebuilds(out, project, '05-table4-figures2-3.html');
});
