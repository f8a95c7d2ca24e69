// The KST notebooks on a study that is not the shipped one: a 6-task fractions curriculum of the test's
// own, collected with two simulated respondents, run with `-p study DIR --output-dir OUT`. Nothing of the
// paper is shown, Figure 3 is not empty, notebook 02 raises no reproduction alarm, every file the notebooks
// wrote is in OUT, and the report built there is what `npm run report -- --from OUT` builds.
// The notebooks write into their project's figures/ and data/processed/ while they run (reproduce moves
// the files to OUT afterwards), so the run happens in a copy of the project: other tests reading the
// committed outputs at the same time see them as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const node = (args: string[], cwd = process.cwd()) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 900_000 });

/** A copy of the built project (what the notebooks and reproduce read), sharing node_modules. */
function projectCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'kstbench-own-study-project-'));
  for (const part of ['dist', 'notebooks', 'data', 'config', 'bin', 'package.json']) cpSync(part, join(copy, part), { recursive: true });
  symlinkSync(join(process.cwd(), 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

function fractionsStudy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-own-study-'));
  mkdirSync(join(dir, 'domains'));
  const tasks = ['Name the shaded fraction of a shape.', 'Place a unit fraction on a number line.', 'Find an equivalent fraction.', 'Compare fractions with one denominator.', 'Add fractions with one denominator.', 'Add fractions with different denominators.'];
  writeFileSync(
    join(dir, 'domains', 'fractions.json'),
    JSON.stringify({
      id: 'fractions',
      title: 'Fractions',
      source: 'written for this test',
      components: tasks.map((description, i) => ({ id: `FR${i + 1}`, description })),
      prerequisites: [['FR1', 'FR2'], ['FR1', 'FR4'], ['FR2', 'FR3'], ['FR4', 'FR5'], ['FR3', 'FR6'], ['FR5', 'FR6']],
    }),
  );
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'Fractions pilot', domains: ['domains'], models: ['simulated:sim-a', 'simulated:sim-c'], design: { seed: '7' } }));
  const c = node(['bin/kstbench.js', 'collect', '--domains', join(dir, 'domains'), '--models', 'simulated:sim-a,simulated:sim-c', '--out', join(dir, 'collection'), '--seed', '7']);
  assert.equal(c.status, 0, c.stderr);
  return dir;
}

test('notebooks 01-05 on a study of its own: no paper column, no empty figure, no false alarm, every file and the report in --output-dir', { timeout: 900_000 }, () => {
  const study = fractionsStudy();
  const project = projectCopy();
  const out = mkdtempSync(join(tmpdir(), 'kstbench-own-study-out-'));
  const r = node(['dist/scripts/reproduce.js', '01', '02', '03', '04', '05', '-p', 'study', study, '--output-dir', out], project);
  assert.equal(r.status, 0, r.stderr);
  const nb = (name: string) => readFileSync(join(out, name), 'utf8');
  // No paper: no paper column in any table the notebooks wrote, no claims ledger, no paper-model stand-in.
  const tables = join(out, 'data', 'processed', 'tables');
  const csvs = readdirSync(tables).filter((f) => f.endsWith('.csv'));
  assert.ok(csvs.includes('04-table-3-conditions.csv') && csvs.includes('05-table-4-models.csv'));
  for (const f of csvs) assert.doesNotMatch(readFileSync(join(tables, f), 'utf8').split('\n')[0]!, /paper/, `${f} has a paper column`);
  assert.ok(!csvs.some((f) => f.includes('claims')), 'no claims table');
  for (const f of ['03-score.ipynb', '04-table3-figure1.ipynb', '05-table4-figures2-3.ipynb']) assert.match(nb(f), /No claims ledger: the study does not declare/);
  assert.doesNotMatch(nb('05-table4-figures2-3.ipynb').replace(/"cell_type": "markdown"[\s\S]*?"source": \[[\s\S]*?\]/g, ''), /sim-a ≈/);
  // Figure 1 without paper markers (two bar traces); Figure 3 on the rule's cell, with bars.
  assert.equal(JSON.parse(nb('figures/04-figure-1-exact-f1.json')).traces, 2);
  assert.match(nb('05-table4-figures2-3.ipynb'), /Figure 3: fractions × P\d \(the widest spread between models/);
  assert.ok(JSON.parse(nb('figures/05-figure-3-model-comparison.json')).traces >= 1);
  assert.match(nb('data/processed/tables/05-figure-3-counts.csv'), /simulated:sim-a,\d+,22,/);
  // Notebook 02: its own domain and state previewed, and no comparison with the shipped corpus.
  assert.match(nb('02-collect.ipynb'), /state \{FR1,FR2\} = positions/);
  assert.doesNotMatch(nb('02-collect.ipynb'), /DIFFERENT|did not reproduce/);
  assert.match(nb('02-collect.ipynb'), /This study is not the shipped replication/);
  assert.match(nb('01-kst-foundations.ipynb'), /Fractions: 6 components/);
  // Every file, and the report of the folder, rebuilt the same by npm run report -- --from.
  assert.ok(existsSync(join(out, 'figures', '01-hasse-fractions.svg')) && existsSync(join(out, 'data', 'processed', 'kst', 'analysis.json')));
  assert.ok(existsSync(join(out, 'report', '05-table4-figures2-3.html')));
  const check = node(['dist/scripts/report.js', '--from', out, '--check'], project);
  assert.equal(check.status, 0, check.stderr);
});
