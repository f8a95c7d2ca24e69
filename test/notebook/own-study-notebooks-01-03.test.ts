// Notebooks 01-03 on a fractions study of the test's own (own-study-helpers.ts): the study's own domain and
// states shown, no reproduction alarm in 02, no claims ledger, every file and the report in --output-dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { assertReportRebuilds, runOnFractions } from './own-study-helpers';

test('notebooks 01-03 on a study of its own: its domain and states, no false alarm, no paper, every file and the report', { timeout: 600_000 }, () => {
  const { out, project, read } = runOnFractions(['01', '02', '03']);
  assert.match(read('01-kst-foundations.ipynb'), /Fractions: 6 components/);
  assert.ok(existsSync(join(out, 'figures', '01-hasse-fractions.svg')) && existsSync(join(out, 'figures', '01-space-fractions.svg')));
  assert.doesNotMatch(read('data/processed/tables/01-table-1-domains.csv').split('\n')[0]!, /paper/);
  assert.match(read('02-collect.ipynb'), /state \{FR1,FR2\} = positions/);
  assert.doesNotMatch(read('02-collect.ipynb'), /DIFFERENT|did not reproduce/);
  assert.match(read('02-collect.ipynb'), /This study is not the shipped replication/);
  assert.doesNotMatch(read('data/processed/tables/03-validity.csv').split('\n')[0]!, /paper/);
  for (const f of ['01-kst-foundations.ipynb', '03-score.ipynb']) assert.match(read(f), /No claims ledger: the study does not declare/);
  assert.ok(existsSync(join(out, 'data', 'processed', 'kst', 'analysis.json')), 'notebook 03\'s analysis files');
  assertReportRebuilds(out, project, '02-collect.html');
});
