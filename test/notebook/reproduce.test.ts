import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseNotebook } from '../../lib/notebook/ipynb';
import type { NotebookSession } from '../../lib/notebook/execute';
import { main } from '../../scripts/reproduce';
import { RUN_TYPESCRIPT } from '../support/typescript';

// Runs the built script as `npm run reproduce` does (npm test builds dist/ first).
const SCRIPT = 'dist/scripts/reproduce.js';
type Run = { status: number | null; stdout: string; stderr: string };
function run(args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

// The two runs that execute notebooks go through the built script's main() in one process
// (test/notebook/run-jobs.ts), one after the other, so tslab's converter (about 3 s of CPU over the
// library's types) is paid once; the refused runs, which execute nothing, start the script itself (its
// exit codes and messages as a user sees them). The three tests of the run kept apart with --output-dir
// share it: `-p outDir` in the project (the notebook writes there, reproduce moves it to DIR) and
// `-p 01-fixture:repeats 4`. The failing run, which also writes into the project's data/processed/,
// comes after it, never at the same time (the run's OutputSnapshot would see, copy and undo what
// another run wrote there); the refused runs, which write nothing, run meanwhile.
const keptApart = {
  out: mkdtempSync(join(tmpdir(), 'kstbench-repro-')),
  inProject: `data/processed/test-reproduce-out-${process.pid}`,
};
const failing = {
  out: mkdtempSync(join(tmpdir(), 'kstbench-repro-')),
  inProject: `data/processed/test-reproduce-${process.pid}`,
  notebookBefore: readFileSync('test/fixtures/notebooks/02-fails.ipynb', 'utf8'), // read before any run starts
};
let notebookRuns: Promise<Run[]> | undefined;
/** The run kept apart and the failing run (started by whichever of their tests comes first). */
function runNotebooks(): Promise<Run[]> {
  notebookRuns ??= new Promise((done, fail) => {
    assert.ok(existsSync(SCRIPT), 'dist/ is missing: run `npm run build` (npm test does it)');
    const jobs = [
      { reproduce: ['--notebooks-dir', 'test/fixtures/notebooks', '--output-dir', keptApart.out, '-p', 'outDir', keptApart.inProject, '-p', '01-fixture:repeats', '4', '01'] },
      // Notebook 01 writes into the project's data/processed/ before 02 fails: that must be undone.
      { reproduce: ['--notebooks-dir', 'test/fixtures/notebooks', '--environment', join(failing.out, 'environment.md'), '-p', '01-fixture:outDir', failing.inProject] },
    ];
    writeFileSync(join(failing.out, 'jobs.json'), JSON.stringify(jobs));
    const child = spawn(process.execPath, [...RUN_TYPESCRIPT, 'test/notebook/run-jobs.ts', join(failing.out, 'jobs.json'), join(failing.out, 'results.json')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', fail);
    child.on('close', (status) => (status === 0 ? done(JSON.parse(readFileSync(join(failing.out, 'results.json'), 'utf8')) as Run[]) : fail(new Error(`run-jobs failed (${status}): ${stderr}`))));
  });
  return notebookRuns;
}
const runKeptApart = async () => (await runNotebooks())[0]!;

describe('reproduce runs that leave the project alone', { concurrency: true }, () => {
  test('reproduce runs the named notebook with -p overrides and writes the executed copy', async () => {
    assert.ok(existsSync(SCRIPT), 'dist/ is missing: run `npm run build` (npm test does it)');
    const { out, inProject } = keptApart;
    const r = await runKeptApart();
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ok test\/fixtures\/notebooks\/01-fixture\.ipynb {2}\d+\.\d s$/m);
    assert.doesNotMatch(r.stdout, /not refreshed/, 'a run kept apart records its own environment and report, even for one notebook');
    assert.ok(existsSync(join(out, 'environment.md')) && existsSync(join(out, 'report', '01-fixture.html')));
    const nb = parseNotebook(readFileSync(join(out, 'notebooks', '01-fixture.ipynb'), 'utf8'), 'out');
    const streams = nb.cells.find((c) => c.id === 'streams')!.outputs!;
    assert.deepEqual(streams[0]!.text, ['hello x4\n']);
    assert.ok(existsSync(join(out, inProject, 'tables', 'fixture-table.csv')));
  });

  test('a run kept apart gets its report in DIR/report, and npm run report -- --from DIR rebuilds it byte for byte', async () => {
    const { out } = keptApart;
    const r = await runKeptApart();
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /wrote .*report\/ \(\d+ files\): open .*index\.html/);
    const page = readFileSync(join(out, 'report', '01-fixture.html'), 'utf8');
    assert.match(page, /hello x4/, 'the page shows the executed outputs');
    assert.match(page, /<td>repeats<\/td><td><code>4<\/code><\/td>/, 'and the parameters this run had');
    assert.match(readFileSync(join(out, 'report', 'index.html'), 'utf8'), /01-fixture\.html/);
    const report = (args: string[]) => spawnSync(process.execPath, ['dist/scripts/report.js', ...args], { encoding: 'utf8', timeout: 120_000 });
    const check = report(['--from', out, '--check']);
    assert.equal(check.status, 0, check.stderr);
    rmSync(join(out, 'report'), { recursive: true });
    const rebuilt = report(['--from', out]);
    assert.equal(rebuilt.status, 0, rebuilt.stderr);
    assert.equal(readFileSync(join(out, 'report', '01-fixture.html'), 'utf8'), page);
    // A run kept apart by an earlier version has its notebooks flat in DIR: still read.
    const flat = mkdtempSync(join(tmpdir(), 'kstbench-repro-'));
    copyFileSync(join(out, 'environment.md'), join(flat, 'environment.md'));
    copyFileSync(join(out, 'notebooks', '01-fixture.ipynb'), join(flat, '01-fixture.ipynb'));
    const fromFlat = report(['--from', flat]);
    assert.equal(fromFlat.status, 0, fromFlat.stderr);
    assert.equal(readFileSync(join(flat, 'report', '01-fixture.html'), 'utf8'), page);
    const empty = mkdtempSync(join(tmpdir(), 'kstbench-repro-'));
    const bad = report(['--from', empty]);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /^report: --from .*: no environment\.md in it \(npm run reproduce -- --output-dir .* writes one\)\n/);
    assert.equal(existsSync(join(empty, 'report')), false, 'nothing written');
  });

  test('reproduce --output-dir puts what the notebooks wrote there, and leaves the project as it was', async () => {
    const { out, inProject } = keptApart;
    const r = await runKeptApart();
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!existsSync(inProject), 'nothing left in the project');
    assert.ok(existsSync(join(out, inProject, 'tables', 'fixture-table.csv')), 'the table went to the output folder');
    assert.ok(existsSync(join(out, inProject, 'tables', 'fixture-table.csv.meta.json')), 'so did its sidecar (the CSV, the HTML and the sidecar are the 3 files)');
    assert.ok(existsSync(join(out, 'notebooks', '01-fixture.ipynb')), 'the notebook went to DIR/notebooks/, beside DIR/figures/ and DIR/report/ as in the project');
    assert.equal(existsSync(join(out, '01-fixture.ipynb')), false);
    assert.match(r.stdout, /wrote 1 notebook\(s\) to .*\/notebooks\/ and 3 output file\(s\) to .*; the project's own files are unchanged/);
    // A file written again with the bytes the project already had is copied too: test/notebook/snapshot.test.ts.
  });

  test('reproduce checks every value against its declared type before running anything', async () => {
    const r = await run(['--notebooks-dir', 'test/fixtures/notebooks', '-p', 'repeats', 'many']);
    assert.equal(r.status, 1);
    assert.equal(
      r.stderr,
      'reproduce: test/fixtures/notebooks/01-fixture.ipynb: parameter repeats is a number (default 2); cannot read "many" as one. Example: -p repeats 2\n',
    );
    assert.equal(r.stdout, '', 'no notebook ran');
  });

  test('reproduce --output-dir under a file is refused before any notebook runs: one line, nothing made', async () => {
    const file = join(failing.out, 'a-file');
    writeFileSync(file, 'not a folder');
    const r = await run(['--notebooks-dir', 'test/fixtures/notebooks', '--output-dir', join(file, 'x'), '01']);
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `reproduce: --output-dir ${join(file, 'x')}: cannot make it: ${file}: ENOTDIR (a path component is a file, not a directory); nothing was run\n`);
    assert.equal(r.stdout, '', 'no notebook ran');
    assert.equal(readFileSync(file, 'utf8'), 'not a folder');
  });

  test('reproduce refuses unknown options and unknown notebooks', async () => {
    const bad = await run(['--frobnicate']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /Unknown option '--frobnicate'/);
    const none = await run(['--notebooks-dir', 'test/fixtures/notebooks', '99-nothing']);
    assert.equal(none.status, 1);
    assert.match(none.stderr, /no notebook in .* matches "99-nothing"/);
  });
});

test('reproduce stops at a failing notebook with its cell and error, exit 1, and changes nothing', async () => {
  const { out, inProject, notebookBefore } = failing;
  const r = (await runNotebooks())[1]!;
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^FAILED test\/fixtures\/notebooks\/02-fails\.ipynb: cell 2 \(id fails\) failed: RangeError: deliberate failure at 42$/m);
  assert.match(r.stderr, /tmp\/failed-notebooks\/02-fails\.ipynb/);
  assert.match(r.stderr, /Nothing was changed: no notebook was written, 3 output file\(s\) the run had written were put back as they were\./);
  assert.equal(readFileSync('test/fixtures/notebooks/02-fails.ipynb', 'utf8'), notebookBefore);
  assert.ok(!existsSync(inProject), `${inProject} (written by the notebook that succeeded) was removed again`);
  assert.ok(!existsSync(join(out, 'environment.md')), 'no environment.md after a failed run');
});

test('main() runs the notebooks in the session it is given and leaves it open, for the next run of the process', async () => {
  const out = mkdtempSync(join(tmpdir(), 'kstbench-repro-'));
  const executed: string[] = [];
  let closed = false;
  // A stand-in session: each notebook comes back as it went in (no tslab), so only the wiring is tested.
  const session = {
    execute: async (notebook: unknown, options: { file: string }) => {
      executed.push(options.file);
      return { notebook, seconds: 0 };
    },
    close: () => {
      closed = true;
    },
  };
  const code = await main(['--notebooks-dir', 'test/fixtures/notebooks', '--output-dir', out, '--no-environment', '01'], session as unknown as NotebookSession);
  assert.equal(code, 0);
  assert.deepEqual(executed, ['test/fixtures/notebooks/01-fixture.ipynb']);
  assert.equal(closed, false, 'the caller closes a session it gave');
  assert.ok(existsSync(join(out, 'notebooks', '01-fixture.ipynb')));
});
