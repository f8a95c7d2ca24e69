// Notebooks 00-05 on a fractions study of the test's own (own-study-helpers.ts), which replicates no
// paper and has no PSI part, in one reproduce run — one tslab session, one collection, one project
// copy and one report instead of one per notebook group (each reproduce process pays tslab's
// TypeScript program over the library's types, and the report of its --output-dir) — checked by one
// test per notebook group; notebook 10 on the same study and copy after it.
// 00: no audit of the paper, no claims ledger, no fit tables, its own inputs named; notebook 10 stops
// with one line saying that the study has no PSI part.
// 01-03: the study's own domain and states shown, no reproduction alarm in 02, no claims ledger.
// 04-05: no paper column, marker or claim, models named by their profiles, Figure 3 on the rule's cell
// and not empty. Both: every file and the report in --output-dir, rebuilt by `npm run report -- --from`.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { OWN_ANALYSIS } from './own-study-helpers';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertReportRebuilds, outputsText, runOn, runOnFractions, tablesOf } from './own-study-helpers';

let run: ReturnType<typeof runOnFractions>;
before(() => {
  run = runOnFractions(['00', '01', '02', '03', '04', '05']);
}, { timeout: 600_000 });

test('notebook 00 on a study of its own: no paper audit, ledger or fit, its inputs named; notebook 10 says there is no PSI part', { timeout: 600_000 }, () => {
  const { out, read } = run;
  const nb = outputsText(read('00-paper-audit.ipynb'));
  assert.match(nb, /No audit of the \[KST-2026\] paper's printed numbers: the study does not declare/);
  assert.match(nb, /No claims ledger: the study does not declare that it replicates \[KST-2026\]/);
  assert.match(nb, /No claims ledger: the study does not declare that it replicates \[PSI-2026\]/);
  assert.match(nb, /Inputs: KST responses [^ ]*collection\/extracted\.jsonl \(\d+ of \d+ simulated\); no PSI part in the study/);
  assert.doesNotMatch(nb, /INCONSISTENT|checks, \d+ consistent|differs/);
  assert.deepEqual(tablesOf(out, '00-'), [], 'no table of the paper (audit, coverage, fit, ledger) is written');
  const psi = runOn(run.study, ['10'], process.env, run.project);
  assert.notEqual(psi.result.status, 0, 'notebook 10 has nothing to score');
  // reproduce's first line names the notebook, the cell and the InputError (its traceback follows as a diagnostic).
  assert.match(psi.result.stderr.split('\n')[0]!, /^FAILED notebooks\/10-psi-scoring\.ipynb: cell \d+ \(id study\) failed: InputError: .*study\.json: the study has no PSI part \(manifest "psi": scenarios, taxonomy, models\), so notebook 10 has nothing to score/);
});

test('notebooks 01-03 on a study of its own: its domain and states, no false alarm, no paper, every file', () => {
  const { out, read } = run;
  assert.match(read('01-kst-foundations.ipynb'), /Fractions: 6 components/);
  assert.ok(existsSync(join(out, 'figures', '01-hasse-fractions.svg')) && existsSync(join(out, 'figures', '01-space-fractions.svg')));
  assert.doesNotMatch(read('data/processed/tables/01-table-1-domains.csv').split('\n')[0]!, /paper/);
  assert.match(read('02-collect.ipynb'), /state \{FR1,FR2\} = positions/);
  assert.doesNotMatch(read('02-collect.ipynb'), /DIFFERENT|did not reproduce/);
  assert.match(read('02-collect.ipynb'), /This study is not the shipped replication/);
  assert.doesNotMatch(read('data/processed/tables/03-validity.csv').split('\n')[0]!, /paper/);
  for (const f of ['01-kst-foundations.ipynb', '03-score.ipynb']) assert.match(read(f), /No claims ledger: the study does not declare/);
  // Notebook 03 analyses with the study's analysis settings, and `kstbench analyze` with the same ones agrees.
  const { seed, resamples, flips } = JSON.parse(read('data/processed/kst/analysis.json')).inference;
  assert.deepEqual({ seed, resamples, flips }, OWN_ANALYSIS);
  assert.match(read('03-score.ipynb'), /The notebook and the CLI wrote identical files/);
  assert.ok(existsSync(join(out, 'report', '02-collect.html')), 'report/02-collect.html');
});

test('notebooks 04-05 on a study of its own: no paper column, marker or claim; a Figure 3 with bars', () => {
  const { out, read } = run;
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
  assert.ok(existsSync(join(out, 'report', '05-table4-figures2-3.html')), 'report/05-table4-figures2-3.html');
});

test('the report of the own-study run is what `npm run report -- --from OUT` builds', () => {
  assertReportRebuilds(run.out, run.project, '02-collect.html');
});
