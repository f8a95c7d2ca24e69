// Shared by own-study-*.test.ts: the KST notebooks on a study that is not the shipped one: a 6-task fractions curriculum of the test's
// own, collected with two simulated respondents, run with `-p study DIR --output-dir OUT`. Nothing of the
// paper is shown, Figure 3 is not empty, notebook 02 raises no reproduction alarm, every file the notebooks
// wrote is in OUT, and the report built there is what `npm run report -- --from OUT` builds.
// The notebooks write into their project's figures/ and data/processed/ while they run (reproduce moves
// the files to OUT afterwards), so the run happens in a copy of the project: other tests reading the
// committed outputs at the same time see them as they are.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const node = (args: string[], cwd = process.cwd()) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 900_000 });

/** A copy of the built project (what the notebooks and reproduce read), sharing node_modules. */
export function projectCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'kstbench-own-study-project-'));
  for (const part of ['dist', 'notebooks', 'data', 'config', 'bin', 'package.json']) cpSync(part, join(copy, part), { recursive: true });
  symlinkSync(join(process.cwd(), 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

export function fractionsStudy(): string {
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


/** Runs `notebooks` of the project copy on a fresh fractions study into a fresh output folder; the folder and a reader of its files. */
export function runOnFractions(notebooks: string[]): { out: string; project: string; read: (name: string) => string } {
  const study = fractionsStudy();
  const project = projectCopy();
  const out = mkdtempSync(join(tmpdir(), 'kstbench-own-study-out-'));
  const r = node(['dist/scripts/reproduce.js', ...notebooks, '-p', 'study', study, '--output-dir', out], project);
  assert.equal(r.status, 0, r.stderr);
  return { out, project, read: (name: string) => readFileSync(join(out, name), 'utf8') };
}

/** The report of the folder is what `npm run report -- --from` builds from it. */
export function assertReportRebuilds(out: string, project: string, page: string): void {
  assert.ok(existsSync(join(out, 'report', page)), `report/${page}`);
  const check = node(['dist/scripts/report.js', '--from', out, '--check'], project);
  assert.equal(check.status, 0, check.stderr);
}
