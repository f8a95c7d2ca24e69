// Test helper (not a test file): runs notebook jobs in a process of its own — the runner replaces
// process.stdout.write while a cell runs, and a reproduce job runs the project of the working directory
// (a test's project copy) — and writes the results as JSON, one per job, in order.
//   node --require ./scripts/test-runner/hook.js test/notebook/run-jobs.ts JOBS.json RESULTS.json
// Three kinds of job:
// - { file, parameters?, extraCells? }: the notebook executed by lib/notebook/execute's NotebookSession;
//   result { text, failure } (the executed notebook) or { thrown }.
// - { reproduce: ARGV, env? }: `npm run reproduce -- ARGV` as the built script of the project in the
//   working directory runs it (its dist/scripts/reproduce.js main(), with `env` set meanwhile; a null
//   value unsets); result { status, stdout, stderr }, the exit code and what it wrote to each stream.
// - { listing: DIRS }: every file below the DIRS of the working directory with its size and modification
//   time ("path size mtimeMs", sorted), to compare before and after a run (a rewrite counts).
// The notebook jobs of each kind share one session, so the process pays tslab's converter (about 3 s of
// CPU over the library's types) once, not once per job; every notebook still gets fresh top-level state.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotebookSession } from '../../lib/notebook/execute';
import { readNotebook, serializeNotebook, type Notebook } from '../../lib/notebook/ipynb';

interface ExecuteJob {
  file: string;
  parameters?: Record<string, unknown>;
  extraCells?: string[];
}
interface ReproduceJob {
  reproduce: string[];
  env?: Record<string, string | null>;
}
interface ListingJob {
  listing: string[];
}
type Job = ExecuteJob | ReproduceJob | ListingJob;

/** Every file below `dirs` (relative to the working directory): "path size mtimeMs", sorted. */
function listing(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else {
        const s = statSync(p);
        out.push(`${p} ${s.size} ${s.mtimeMs}`);
      }
    }
  };
  for (const d of dirs) if (existsSync(d)) walk(d);
  return out.sort();
}

async function executeJob(session: NotebookSession, job: ExecuteJob): Promise<unknown> {
  const nb: Notebook = readNotebook(job.file);
  for (const [i, source] of (job.extraCells ?? []).entries()) {
    nb.cells.push({ cell_type: 'code', id: `extra-${i}`, metadata: {}, source, outputs: [], execution_count: null });
  }
  try {
    const r = await session.execute(nb, { file: job.file, parameters: job.parameters ?? {} });
    return { text: serializeNotebook(r.notebook), failure: r.failure ?? null };
  } catch (err) {
    return { thrown: { name: (err as Error).name, message: (err as Error).message } };
  }
}

/** The built project in the working directory: its reproduce script and its notebook session class. */
interface BuiltProject {
  main(argv: string[], session: unknown): Promise<number>;
  session: { close(): void };
}
function builtProject(): BuiltProject {
  const root = process.cwd();
  const { main } = require(join(root, 'dist', 'scripts', 'reproduce.js')) as Pick<BuiltProject, 'main'>;
  const execute = require(join(root, 'dist', 'lib', 'notebook', 'execute.js')) as { NotebookSession: new (o: { root: string }) => { close(): void } };
  return { main, session: new execute.NotebookSession({ root }) };
}

/** One reproduce run with its streams captured and `env` applied, both put back afterwards. */
async function reproduceJob(project: BuiltProject, job: ReproduceJob): Promise<{ status: number; stdout: string; stderr: string }> {
  const captured = { stdout: '', stderr: '' };
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
  const savedEnv = Object.fromEntries(Object.keys(job.env ?? {}).map((k) => [k, process.env[k]]));
  const setEnv = (values: Record<string, string | null | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === null || v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  for (const name of ['stdout', 'stderr'] as const) {
    process[name].write = ((chunk: string | Uint8Array) => {
      captured[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    }) as typeof process.stdout.write;
  }
  setEnv(job.env ?? {});
  try {
    const status = await project.main(job.reproduce, project.session);
    return { status, ...captured };
  } finally {
    process.stdout.write = writes.stdout;
    process.stderr.write = writes.stderr;
    setEnv(savedEnv);
  }
}

async function main(): Promise<void> {
  const jobs = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job[];
  let session: NotebookSession | undefined;
  let project: BuiltProject | undefined;
  const results = [];
  for (const job of jobs) {
    if ('listing' in job) results.push(listing(job.listing));
    else if ('reproduce' in job) results.push(await reproduceJob((project ??= builtProject()), job));
    else results.push(await executeJob((session ??= new NotebookSession()), job));
  }
  session?.close();
  project?.session.close();
  // The figure browser of the built library the notebooks import (reproduce closes it after each run).
  for (const built of new Set([join(process.cwd(), 'dist'), join(__dirname, '..', '..', 'dist')])) {
    const browser = require.cache[join(built, 'lib', 'figures', 'browser.js')];
    if (browser) await (browser.exports as { closeFigureBrowser(): Promise<void> }).closeFigureBrowser();
  }
  writeFileSync(process.argv[3]!, JSON.stringify(results));
}

void main();
