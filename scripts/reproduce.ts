/**
 * `npm run reproduce`: executes every notebook in notebooks/ in file-name order, headless — Node only,
 * no Python or Jupyter — with tslab's own converter and executor (lib/notebook/execute.ts), writes the
 * executed notebooks back with their outputs, and refreshes environment.md. The notebooks themselves
 * write data/processed/* and figures/*.
 *
 *   node dist/scripts/reproduce.js [NOTEBOOK ...] [-p NAME VALUE] [--param NAME=VALUE] [options]
 *
 * A failing cell stops the run: the notebook, cell and error go to stderr, the executed notebook with
 * the recorded error is written to tmp/failed-notebooks/ (the committed notebook is left alone), and
 * the exit code is 1.
 */
import { expectedFailure } from '../cli/common';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError } from '../lib/errors';
import { writeFileAtomic } from '../lib/io/atomic';
import { whyDirCannotBeMade } from '../lib/io/dirs';
import { osErrorMeaning } from '../lib/io/os-error';
import { readUtf8File } from '../lib/io/read';
import { collectEnvironment, renderEnvironment } from '../lib/notebook/environment';
import { closeFigureBrowser, describeChromium } from '../lib/figures/browser';
import { failureReport, NotebookSession } from '../lib/notebook/execute';
import { parseNotebook, writeNotebook, type Notebook } from '../lib/notebook/ipynb';
import { checkGlobalParameters, coerceParameters, effectiveParameters, parameterNames, parametersFor, parseParameterArgs } from '../lib/notebook/parameters';
import { OutputSnapshot, PROJECT_OUTPUTS } from '../lib/notebook/snapshot';
import { OUTPUT_DIR_NOTEBOOKS, outputDirInputs, siteFiles, writeSite } from './report';
import { projectRoot } from '../lib/notebook/project';

const HELP = `usage: npm run reproduce -- [NOTEBOOK ...] [-p NAME VALUE] [--param NAME=VALUE] [options]

Executes the notebooks (all of notebooks/*.ipynb in file-name order, or those named: file name, stem
or prefix such as 01) headless with tslab's TypeScript, writes them back with outputs, refreshes
environment.md (full runs only).

  -p NAME VALUE, --param NAME=VALUE   override a parameter of every notebook that declares it;
                                      NOTEBOOK:NAME for one notebook. The value is read as the type
                                      of the notebook's default: string as given (-p seed 7 is "7"),
                                      number, true/false, array as JSON or comma-separated (a,b),
                                      object as JSON; a default with no literal type takes JSON when
                                      it parses, else the string. A value that does not fit stops the
                                      run before anything executes
  --notebooks-dir DIR                 where the notebooks are (default notebooks)
  --output-dir DIR                    keep the run apart: the executed notebooks (DIR/notebooks/),
                                      every file they wrote (same paths below DIR), DIR/environment.md
                                      and the report DIR/report/ go there; the project's files stay as
                                      they were
  --environment FILE                  where environment.md goes (default environment.md)
  --no-environment                    do not write environment.md
  -h, --help                          this text
`;

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Notebook files of `dir` in file-name order, filtered by the names given (file name, stem or prefix). */
export function selectNotebooks(dir: string, wanted: readonly string[]): string[] {
  if (!existsSync(dir)) throw new InputError(`${dir}: notebooks folder not found`, { file: dir });
  const all = readdirSync(dir)
    .filter((n) => n.endsWith('.ipynb') && !n.startsWith('.'))
    .sort();
  if (wanted.length === 0) return all.map((n) => join(dir, n));
  const picked = new Set<string>();
  for (const w of wanted) {
    const name = basename(w);
    const hits = all.filter((n) => n === name || n === `${name}.ipynb` || n.startsWith(name));
    if (hits.length === 0) throw new InputError(`no notebook in ${dir} matches ${JSON.stringify(w)}`, { item: w });
    hits.forEach((h) => picked.add(h));
  }
  return all.filter((n) => picked.has(n)).map((n) => join(dir, n));
}

interface ReproduceOptions {
  params: ReturnType<typeof parseParameterArgs>['params'];
  positionals: string[];
  notebooksDir?: string;
  outputDir?: string;
  environment?: string;
  noEnvironment: boolean;
}

/** The command line, or 'help' for -h/--help. Unknown options throw (node:util's parseArgs). */
function parseReproduceArgs(argv: string[]): ReproduceOptions | 'help' {
  const { params, rest } = parseParameterArgs(argv);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      'notebooks-dir': { type: 'string' },
      'output-dir': { type: 'string' },
      environment: { type: 'string' },
      'no-environment': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  return {
    params,
    positionals,
    notebooksDir: values['notebooks-dir'],
    outputDir: values['output-dir'],
    environment: values.environment,
    noEnvironment: values['no-environment'] === true,
  };
}

/** What one run executes: the notebooks, parsed, each with its parameters already coerced. */
interface ReproducePlan {
  root: string;
  notebooksDir: string;
  files: string[];
  notebooks: Map<string, Notebook>;
  typed: Map<string, Record<string, unknown>>;
  /** No notebook was named: every notebook runs, and environment.md and report/ are refreshed. */
  full: boolean;
}

function planNotebooks(root: string, options: ReproduceOptions): ReproducePlan {
  // Checked first: the notebooks run for seconds to minutes before their results are written there.
  const unmakeable = options.outputDir === undefined ? null : whyDirCannotBeMade(options.outputDir);
  if (unmakeable !== null) {
    const { code, path } = unmakeable;
    throw new InputError(`--output-dir ${options.outputDir}: cannot make it: ${path}: ${code} (${osErrorMeaning(code)}); nothing was run`, { file: options.outputDir });
  }
  const notebooksDir = resolve(options.notebooksDir ?? join(root, 'notebooks'));
  const files = selectNotebooks(notebooksDir, options.positionals);
  const stems = new Set(files.map((f) => basename(f, '.ipynb')));
  for (const stem of Object.keys(options.params.byNotebook)) {
    if (!stems.has(stem)) throw new InputError(`-p ${stem}:...: no notebook ${stem}.ipynb is being run`, { item: stem });
  }
  const notebooks = new Map(
    files.map((f) => [f, parseNotebook(readUtf8File(f, (reason) => `${relative(root, f)}: cannot read notebook (${reason})`), relative(root, f))]),
  );
  const declared = new Map([...notebooks].map(([f, nb]) => [basename(f, '.ipynb'), parameterNames(nb, relative(root, f))]));
  checkGlobalParameters(options.params, declared);
  // Every value is coerced to its notebook's declared type before anything runs, so a bad value
  // stops the run with nothing changed.
  const typed = new Map(
    files.map((f) => {
      const stem = basename(f, '.ipynb');
      return [f, coerceParameters(notebooks.get(f)!, parametersFor(options.params, stem, declared.get(stem)!), relative(root, f))];
    }),
  );
  return { root, notebooksDir, files, notebooks, typed, full: options.positionals.length === 0 };
}

/**
 * Everything `reproduce` checks before a cell runs: the options, the notebooks named, and every
 * parameter value coerced to its notebook's declared type (InputError naming the notebook, the
 * parameter and a working example otherwise). The docs' command test calls it on the documented
 * `npm run reproduce -- ...` lines, which are too slow to run whole.
 */
export function planRun(argv: readonly string[], root: string): ReproducePlan | 'help' {
  const options = parseReproduceArgs([...argv]);
  return options === 'help' ? 'help' : planNotebooks(root, options);
}

interface ExecutedNotebook {
  file: string;
  notebook: Notebook;
}

/**
 * Runs the plan's notebooks in order. On the first failing cell the outputs written so far are put
 * back, the failed copy goes to tmp/failed-notebooks/, and undefined is returned.
 */
async function executeAll(
  session: NotebookSession,
  plan: ReproducePlan,
  snapshot: OutputSnapshot,
): Promise<{ executed: ExecutedNotebook[]; ran: Array<{ file: string; parameters: Record<string, unknown> }> } | undefined> {
  const { root } = plan;
  const ran: Array<{ file: string; parameters: Record<string, unknown> }> = [];
  const executed: ExecutedNotebook[] = [];
  const started = process.hrtime.bigint();
  for (const file of plan.files) {
    const shown = relative(root, file);
    const nb = plan.notebooks.get(file)!;
    const parameters = plan.typed.get(file)!;
    // tslab compiles in the project's notebooks/ (execute.ts), as the project's kernel does, so a
    // notebook in another folder (--notebooks-dir) finds the library the same way.
    const result = await session.execute(nb, { file: shown, parameters });
    if (result.failure) {
      const restored = snapshot.restore();
      const failedCopy = join(root, 'tmp', 'failed-notebooks', basename(file));
      writeNotebook(failedCopy, result.notebook);
      process.stderr.write(`FAILED ${failureReport(result.failure)}\n`);
      process.stderr.write(
        `The executed notebook with the error is in ${relative(root, failedCopy)}. Nothing was changed: no notebook was written, ` +
          `${restored} output file(s) the run had written were put back as they were.\n`,
      );
      return undefined;
    }
    executed.push({ file, notebook: result.notebook });
    ran.push({ file: shown, parameters: effectiveParameters(nb, parameters, shown) });
    log(`ok ${shown}  ${result.seconds.toFixed(1)} s`);
  }
  const total = Number(process.hrtime.bigint() - started) / 1e9;
  log(`${plan.files.length} notebook(s) in ${total.toFixed(1)} s`);
  return { executed, ran };
}

/**
 * --output-dir: the executed notebooks go to DIR/notebooks/; every file the notebooks wrote is copied there (also one written with the bytes the
 * project already had) and the project's files are put back; the run's environment.md and its report
 * (DIR/report/, built as `npm run report -- --from DIR` builds it) go there too, whether every
 * notebook ran or some.
 */
function writeToOutputDir(outputDir: string, options: ReproduceOptions, plan: ReproducePlan, snapshot: OutputSnapshot, executed: ExecutedNotebook[], environment: string | undefined): void {
  const moved = snapshot.copyWrittenTo(outputDir);
  snapshot.restore();
  // DIR/notebooks/, beside DIR/figures/ and DIR/report/ as in the project: the notebooks' relative
  // links (../report/figures/…, ../figures/…) then lead to the run's own files.
  for (const { file, notebook } of executed) writeNotebook(join(outputDir, OUTPUT_DIR_NOTEBOOKS, basename(file)), notebook);
  log(`wrote ${executed.length} notebook(s) to ${join(outputDir, OUTPUT_DIR_NOTEBOOKS)}/ and ${moved.length} output file(s) to ${outputDir}; the project's own files are unchanged`);
  if (environment === undefined) return;
  const target = resolve(options.environment ?? join(outputDir, 'environment.md'));
  writeFileAtomic(target, environment);
  log(`wrote ${target}`);
  if (target !== join(outputDir, 'environment.md')) {
    log(`${join(outputDir, 'report')}/ not built (environment.md went to ${relative(plan.root, target)}, not into the output folder)`);
    return;
  }
  const site = siteFiles(plan.root, outputDirInputs(outputDir));
  writeSite(join(outputDir, 'report'), site);
  log(`wrote ${join(outputDir, 'report')}/ (${site.size} files): open ${join(outputDir, 'report', 'index.html')} (npm run report -- --from ${outputDir} rebuilds it)`);
}

/** No --output-dir: the executed notebooks, environment.md and (on a full run) report/ go into the project. */
function writeToProject(options: ReproduceOptions, plan: ReproducePlan, executed: ExecutedNotebook[], environment: string | undefined): void {
  const { root } = plan;
  const site =
    plan.full && environment !== undefined && !options.environment && plan.notebooksDir === join(root, 'notebooks')
      ? siteFiles(root, {
          notebooks: executed.map(({ file, notebook }) => ({ file: relative(root, file).split('\\').join('/'), notebook })),
          environmentMarkdown: environment,
        })
      : undefined;
  for (const { file, notebook } of executed) writeNotebook(file, notebook);
  if (environment !== undefined) {
    const target = resolve(options.environment ?? join(root, 'environment.md'));
    writeFileAtomic(target, environment);
    log(`wrote ${relative(root, target)}`);
  }
  if (site) {
    writeSite(join(root, 'report'), site);
    log(`wrote report/ (${site.size} files): open report/index.html`);
  } else if (plan.full) {
    log('report/ not rebuilt (environment.md was not written to the project): npm run report builds it');
  }
}

/**
 * Executes the plan and, only when every notebook succeeded, writes the results; the exit code. The
 * notebooks run in `given` when there is one (left open for the caller), else in a session of their own.
 */
async function runPlan(options: ReproduceOptions, plan: ReproducePlan, given: NotebookSession | undefined): Promise<number> {
  // What the notebooks write (figures/, data/processed/, ...) is remembered, so that a run that
  // fails — or one aimed at --output-dir — leaves the project's files as they were.
  const snapshot = new OutputSnapshot(plan.root, PROJECT_OUTPUTS);
  const restoreOnSignal = (signal: NodeJS.Signals) => {
    const n = snapshot.restore();
    process.stderr.write(`reproduce: ${signal}: stopped; ${n} output file(s) put back as they were, no notebook changed\n`);
    process.exit(130);
  };
  process.once('SIGINT', restoreOnSignal);
  process.once('SIGTERM', restoreOnSignal);
  const session = given ?? new NotebookSession({ root: plan.root });
  try {
    const done = await executeAll(session, plan, snapshot);
    if (done === undefined) return 1;
    // Every notebook succeeded: only now is anything committed.
    // A run kept apart (--output-dir) records its own environment and report, even for some notebooks only.
    const environment =
      (plan.full || options.outputDir) && !options.noEnvironment ? renderEnvironment(collectEnvironment(plan.root, done.ran, { chromium: describeChromium() })) : undefined;
    if (options.outputDir) writeToOutputDir(resolve(options.outputDir), options, plan, snapshot, done.executed, environment);
    else writeToProject(options, plan, done.executed, environment);
    if (!plan.full && !options.outputDir) log('environment.md and report/ not refreshed: only some notebooks were run');
    return 0;
  } finally {
    process.off('SIGINT', restoreOnSignal);
    process.off('SIGTERM', restoreOnSignal);
    if (session !== given) session.close();
  }
}

/**
 * `reproduce ARGV`; the exit code. `session`: run the notebooks in this session, of this project's
 * lib/notebook/execute, instead of a new one (it stays open; the caller closes it): several runs in one
 * process then pay tslab's converter once (test/notebook/run-jobs.ts). What a run writes is the same.
 */
export async function main(argv: string[], session?: NotebookSession): Promise<number> {
  try {
    const options = parseReproduceArgs(argv);
    if (options === 'help') {
      process.stdout.write(HELP);
      return 0;
    }
    return await runPlan(options, planNotebooks(projectRoot(), options), session);
  } catch (err) {
    const code = expectedFailure('reproduce', err, `\n${HELP}`);
    if (code !== null) return code;
    throw err;
  } finally {
    // The browser module is loaded anyway (describeChromium); it launches Chromium only when a
    // notebook exported a figure, and closing a browser that never launched does nothing.
    await closeFigureBrowser();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`reproduce: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
