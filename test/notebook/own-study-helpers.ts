// Shared by own-study-*.test.ts: the KST notebooks on a study that is not the shipped one: a 6-task fractions curriculum of the test's
// own, collected with two simulated respondents, run with `-p study DIR --output-dir OUT`. Nothing of the
// paper is shown, Figure 3 is not empty, notebook 02 raises no reproduction alarm, every file the notebooks
// wrote is in OUT, and the report built there is what `npm run report -- --from OUT` builds.
// The notebooks write into their project's figures/ and data/processed/ while they run (reproduce moves
// the files to OUT afterwards), so the run happens in a copy of the project: other tests reading the
// committed outputs at the same time see them as they are.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/cli';
import { RUN_TYPESCRIPT } from '../support/typescript';

export const node = (args: string[], cwd = process.cwd()) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 900_000 });

/** A copy of the built project (what the notebooks and reproduce read), sharing node_modules. */
export function projectCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'kstbench-own-study-project-'));
  for (const part of ['dist', 'notebooks', 'data', 'config', 'bin', 'package.json']) cpSync(part, join(copy, part), { recursive: true });
  symlinkSync(join(process.cwd(), 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

/** The fractions study's analysis settings: unlike the shipped study's, so a notebook that ignores them is caught (and cheaper to run). */
export const OWN_ANALYSIS = { seed: 'own-7', resamples: 200, flips: 300 } as const;

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
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'Fractions pilot', domains: ['domains'], models: ['simulated:sim-a', 'simulated:sim-c'], design: { seed: '7' }, analysis: OWN_ANALYSIS }));
  const c = node(['bin/kstbench.js', 'collect', '--domains', join(dir, 'domains'), '--models', 'simulated:sim-a,simulated:sim-c', '--out', join(dir, 'collection'), '--seed', '7']);
  assert.equal(c.status, 0, c.stderr);
  return dir;
}


/** What one reproduce run did: its exit code and streams (as run-jobs.ts reports them). */
export interface ReproduceResult {
  status: number;
  stdout: string;
  stderr: string;
}
/** A reproduce run on a study of the test's own: its result, its output folder and a reader of its files. */
export interface OwnStudyRun extends ReproduceResult {
  out: string;
  read: (name: string) => string;
}

/**
 * The job (for {@link runJobsIn}) of `npm run reproduce -- NOTEBOOK... -p study STUDY --output-dir OUT`
 * with a fresh OUT, and how to read its result.
 */
export function ownStudyJob(notebooks: string[], study: string): { job: { reproduce: string[] }; run: (result: unknown) => OwnStudyRun } {
  const out = mkdtempSync(join(tmpdir(), 'kstbench-own-study-out-'));
  return {
    job: { reproduce: [...notebooks, '-p', 'study', study, '--output-dir', out] },
    run: (result) => ({ ...(result as ReproduceResult), out, read: (name: string) => readFileSync(join(out, name.endsWith('.ipynb') ? join('notebooks', name) : name), 'utf8') }),
  };
}

/**
 * Runs the jobs of test/notebook/run-jobs.ts in `project`, one after another in one process (a
 * reproduce job is the built script's main(); all share one tslab converter, about 3 s of CPU saved
 * per run); their results, in order. An exit code of a run is returned, not checked.
 */
export function runJobsIn(project: string, jobs: object[]): unknown[] {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-own-study-jobs-'));
  writeFileSync(join(dir, 'jobs.json'), JSON.stringify(jobs));
  const r = spawnSync(process.execPath, [...RUN_TYPESCRIPT, join(ROOT, 'test', 'notebook', 'run-jobs.ts'), join(dir, 'jobs.json'), join(dir, 'results.json')], { cwd: project, encoding: 'utf8', timeout: 900_000 });
  assert.equal(r.status, 0, `run-jobs failed: ${r.stderr}`);
  return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as unknown[];
}

/** The report of the folder is what `npm run report -- --from` builds from it. */
export function assertReportRebuilds(out: string, project: string, page: string): void {
  assert.ok(existsSync(join(out, 'report', page)), `report/${page}`);
  const check = node(['dist/scripts/report.js', '--from', out, '--check'], project);
  assert.equal(check.status, 0, check.stderr);
}

/** The PSI part's course, another name than the shipped course's: the notebooks' prompts must show it. */
export const OWN_PSI_COURSE = { name: 'programming for data analysis', weeks: 15, tutor_for: 'a data-analysis programming course' };

/**
 * Gives a study of `fractionsStudy` a PSI part of its own: eight scenarios of the shipped course (not
 * S13, so notebook 10 takes the rule's other branch) with the shipped taxonomy, both rounds collected
 * by two simulated tutors with `kstbench psi collect`. The study still replicates no paper.
 */
export function addPsiPart(dir: string): void {
  const psiDir = join(dir, 'psi');
  mkdirSync(psiDir, { recursive: true });
  const course = JSON.parse(readFileSync('data/raw/psi/scenarios.json', 'utf8')) as { scenarios: Array<{ id: string }> };
  const kept = ['S01', 'S02', 'S05', 'S08', 'S11', 'S17', 'S22', 'S27'];
  writeFileSync(join(psiDir, 'scenarios.json'), JSON.stringify({ ...course, course: OWN_PSI_COURSE, scenarios: course.scenarios.filter((s) => kept.includes(s.id)) }));
  cpSync('data/raw/psi/taxonomy.json', join(psiDir, 'taxonomy.json'));
  const models = 'simulated:sim-tutor-a,simulated:sim-tutor-d';
  for (const round of ['1', '2']) {
    const c = node(['bin/kstbench.js', 'psi', 'collect', '--models', models, '--course', psiDir, '--out', psiDir, '--round', round, '--seed', '3']);
    assert.equal(c.status, 0, c.stderr);
  }
  const manifest = JSON.parse(readFileSync(join(dir, 'study.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ ...manifest, psi: { scenarios: 'psi/scenarios.json', taxonomy: 'psi/taxonomy.json', models: models.split(',') } }));
}

/** Every CSV table a run wrote below `out` whose name starts with `prefix`, with its lines. */
export function tablesOf(out: string, prefix: string): Array<{ name: string; lines: string[] }> {
  const dir = join(out, 'data', 'processed', 'tables');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.csv'))
    .map((name) => ({ name, lines: readFileSync(join(dir, name), 'utf8').split('\n').filter((l) => l !== '') }));
}

/** The text of every output of an executed notebook (streams, HTML, Markdown), without its sources. */
export function outputsText(notebookJson: string): string {
  const nb = JSON.parse(notebookJson) as { cells: Array<{ outputs?: Array<{ text?: string | string[]; data?: Record<string, string | string[]> }> }> };
  const join = (x: string | string[] | undefined) => (Array.isArray(x) ? x.join('') : x ?? '');
  return nb.cells.flatMap((c) => c.outputs ?? []).map((o) => join(o.text) + Object.entries(o.data ?? {}).filter(([k]) => k.startsWith('text/')).map(([, v]) => join(v)).join('\n')).join('\n');
}
