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
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError } from '../lib/errors';
import { writeFileAtomic } from '../lib/io/atomic';
import { collectEnvironment, renderEnvironment } from '../lib/notebook/environment';
import { describeChromium } from '../lib/figures/browser';
import { describeFailure, NotebookSession } from '../lib/notebook/execute';
import { parseNotebook, writeNotebook, type Notebook } from '../lib/notebook/ipynb';
import { checkGlobalParameters, coerceParameters, effectiveParameters, parameterNames, parametersFor, parseParameterArgs } from '../lib/notebook/parameters';
import { OutputSnapshot, PROJECT_OUTPUTS } from '../lib/notebook/snapshot';
import { siteFiles, writeSite } from './report';
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
  --output-dir DIR                    write executed notebooks there instead of in place
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

/**
 * Everything `reproduce` checks before a cell runs: the options, the notebooks named, and every
 * parameter value coerced to its notebook's declared type (InputError naming the notebook, the
 * parameter and a working example otherwise). The docs' command test calls it on the documented
 * `npm run reproduce -- ...` lines, which are too slow to run whole.
 */
export function planRun(argv: readonly string[], root: string) {
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
  if (values.help) return { help: true as const };
  const notebooksDir = resolve(values['notebooks-dir'] ?? join(root, 'notebooks'));
  const files = selectNotebooks(notebooksDir, positionals);
  const stems = new Set(files.map((f) => basename(f, '.ipynb')));
  for (const stem of Object.keys(params.byNotebook)) {
    if (!stems.has(stem)) throw new InputError(`-p ${stem}:...: no notebook ${stem}.ipynb is being run`, { item: stem });
  }
  const notebooks = new Map(files.map((f) => [f, parseNotebook(readFileSync(f, 'utf8'), relative(root, f))]));
  const declared = new Map([...notebooks].map(([f, nb]) => [basename(f, '.ipynb'), parameterNames(nb, relative(root, f))]));
  checkGlobalParameters(params, declared);
  // Every value is coerced to its notebook's declared type before anything runs, so a bad value
  // stops the run with nothing changed.
  const typed = new Map(
    files.map((f) => {
      const stem = basename(f, '.ipynb');
      return [f, coerceParameters(notebooks.get(f)!, parametersFor(params, stem, declared.get(stem)!), relative(root, f))];
    }),
  );
  return { help: false as const, values, positionals, notebooksDir, files, notebooks, typed };
}

export async function main(argv: string[]): Promise<number> {
  let session: NotebookSession | undefined;
  try {
    const root = projectRoot();
    const plan = planRun(argv, root);
    if (plan.help) {
      process.stdout.write(HELP);
      return 0;
    }
    const { values, positionals, notebooksDir, files, notebooks, typed } = plan;
    const outputDir = values['output-dir'] ? resolve(values['output-dir']) : undefined;
    const full = positionals.length === 0;
    // What the notebooks write (figures/, data/processed/, ...) is remembered, so that a run that
    // fails — or one aimed at --output-dir — leaves the project's files as they were.
    const snapshot = new OutputSnapshot(root, PROJECT_OUTPUTS);
    const restoreOnSignal = (signal: NodeJS.Signals) => {
      const n = snapshot.restore();
      process.stderr.write(`reproduce: ${signal}: stopped; ${n} output file(s) put back as they were, no notebook changed\n`);
      process.exit(130);
    };
    process.once('SIGINT', restoreOnSignal);
    process.once('SIGTERM', restoreOnSignal);
    try {
      session = new NotebookSession({ root });
      const ran: Array<{ file: string; parameters: Record<string, unknown> }> = [];
      const executed: Array<{ file: string; notebook: Notebook }> = [];
      const started = process.hrtime.bigint();
      for (const file of files) {
        const shown = relative(root, file);
        const nb = notebooks.get(file)!;
        const parameters = typed.get(file)!;
        // tslab compiles in the project's notebooks/ (execute.ts), as the project's kernel does, so a
        // notebook in another folder (--notebooks-dir) finds the library the same way.
        const result = await session.execute(nb, { file: shown, parameters });
        if (result.failure) {
          const restored = snapshot.restore();
          const failedCopy = join(root, 'tmp', 'failed-notebooks', basename(file));
          writeNotebook(failedCopy, result.notebook);
          process.stderr.write(`FAILED ${describeFailure(result.failure)}\n${result.failure.traceback.join('\n')}\n`);
          process.stderr.write(
            `The executed notebook with the error is in ${relative(root, failedCopy)}. Nothing was changed: no notebook was written, ` +
              `${restored} output file(s) the run had written were put back as they were.\n`,
          );
          return 1;
        }
        executed.push({ file, notebook: result.notebook });
        ran.push({ file: shown, parameters: effectiveParameters(nb, parameters, shown) });
        log(`ok ${shown}  ${result.seconds.toFixed(1)} s`);
      }
      const total = Number(process.hrtime.bigint() - started) / 1e9;
      log(`${files.length} notebook(s) in ${total.toFixed(1)} s`);
      // Every notebook succeeded: only now is anything committed.
      const environment =
        full && !values['no-environment'] ? renderEnvironment(collectEnvironment(root, ran, { chromium: describeChromium() })) : undefined;
      if (outputDir) {
        const moved = snapshot.copyChangesTo(outputDir);
        snapshot.restore();
        for (const { file, notebook } of executed) writeNotebook(join(outputDir, basename(file)), notebook);
        log(`wrote ${executed.length} notebook(s) and ${moved.length} output file(s) to ${outputDir}; the project's own files are unchanged`);
        if (environment !== undefined) {
          const target = resolve(values.environment ?? join(outputDir, 'environment.md'));
          writeFileAtomic(target, environment);
          log(`wrote ${relative(root, target)}`);
        }
      } else {
        const site =
          full && environment !== undefined && !values.environment && notebooksDir === join(root, 'notebooks')
            ? siteFiles(root, {
                notebooks: executed.map(({ file, notebook }) => ({ file: relative(root, file).split('\\').join('/'), notebook })),
                environmentMarkdown: environment,
              })
            : undefined;
        for (const { file, notebook } of executed) writeNotebook(file, notebook);
        if (environment !== undefined) {
          const target = resolve(values.environment ?? join(root, 'environment.md'));
          writeFileAtomic(target, environment);
          log(`wrote ${relative(root, target)}`);
        }
        if (site) {
          writeSite(join(root, 'report'), site);
          log(`wrote report/ (${site.size} files): open report/index.html`);
        } else if (full) {
          log('report/ not rebuilt (environment.md was not written to the project): npm run report builds it');
        }
      }
      if (!full) log('environment.md and report/ not refreshed: only some notebooks were run');
    } finally {
      process.off('SIGINT', restoreOnSignal);
      process.off('SIGTERM', restoreOnSignal);
    }
    return 0;
  } catch (err) {
    const code = expectedFailure('reproduce', err, `\n${HELP}`);
    if (code !== null) return code;
    throw err;
  } finally {
    session?.close();
    // Lazy: only loaded when a notebook exported a figure (then the browser is open).
    const figures = require.cache[require.resolve('../lib/figures/browser')];
    if (figures) await (figures.exports as typeof import('../lib/figures/browser')).closeFigureBrowser();
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
