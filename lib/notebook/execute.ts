import { resolve } from 'node:path';
import { format } from 'node:util';
import { cellSource, type Cell, type Notebook } from './ipynb';
import { OutputCollector } from './outputs';
import { injectParameters, type ParameterValues } from './parameters';
import { notebookCompileRoot, projectRoot } from './project';

/**
 * Headless execution of tslab TypeScript notebooks, in this process, with tslab's own converter and
 * executor (node_modules/tslab/dist/{converter,executor}.js) — the code a notebook cell runs is compiled
 * and evaluated exactly as the tslab Jupyter kernel would, only without Jupyter, Python or ZeroMQ.
 *
 * Parity with the kernel: the working directory is the project's notebooks/ folder (the project's
 * kernel, scripts/kernel.ts, starts tslab there whatever folder Jupyter opened the notebook in), cells share top-level declarations, `display` from "tslab" works, a cell's last expression is
 * printed to stdout. Beyond the kernel: a failing cell is recorded as an nbformat `error` output
 * (tslab only prints it) and execution stops there; execution counts are 1, 2, 3... over the executed
 * cells, so re-runs give the same file.
 */

/** Where and why a notebook stopped. `cellIndex` is 0-based over the cells of the executed notebook. */
export interface CellFailure {
  file: string;
  cellIndex: number;
  cellId?: string;
  ename: string;
  evalue: string;
  traceback: string[];
}

/** Thrown by callers that want an exception for a failed run (see `ExecutionResult.failure`). */
export class NotebookExecutionError extends Error {
  override readonly name = 'NotebookExecutionError';
  constructor(readonly failure: CellFailure) {
    super(describeFailure(failure));
  }
}

/** One line for humans: `notebooks/01-x.ipynb: cell 4 (id abc) failed: TypeError: boom`. */
export function describeFailure(f: CellFailure): string {
  const id = f.cellId ? ` (id ${f.cellId})` : '';
  return `${f.file}: cell ${f.cellIndex}${id} failed: ${f.ename}: ${f.evalue}`;
}

export interface ExecuteOptions {
  /** Path of the notebook, used in messages and to pick the default working directory. */
  file: string;
  /**
   * The kernel's compile root (tslab compiles cells with rootDir = the folder it starts in and resolves
   * imports from there); default: the project's notebooks/, wherever the notebook file is — as the
   * project's kernel (`npm run kernel`, scripts/kernel.ts) does — so `../dist/lib/...` always resolves.
   */
  cwd?: string;
  /** Values for the `parameters` cell (an `injected-parameters` cell is inserted). */
  parameters?: ParameterValues;
  /** Called after each executed code cell. */
  onCell?: (cellIndex: number, seconds: number, ok: boolean) => void;
}

export interface ExecutionResult {
  /** The notebook with fresh outputs (cells after a failure are cleared). */
  notebook: Notebook;
  failure?: CellFailure;
  seconds: number;
}

interface TslabConverter {
  close(): void;
}
interface TslabExecutor {
  execute(src: string): Promise<boolean>;
  close(): void;
}
interface TslabModules {
  createConverter(options: { isJS: boolean; isBrowser: boolean }): TslabConverter;
  createExecutor(
    rootDir: string,
    convs: { node: TslabConverter; browser: TslabConverter; close(): void },
    console: { log(...args: unknown[]): void; error(...args: unknown[]): void },
  ): TslabExecutor;
  jupyter: { lastWriteDisplayData: unknown };
}

let tslab: TslabModules | undefined;
function loadTslab(): TslabModules {
  if (!tslab) {
    // Lazy: tslab brings its own TypeScript compiler (hundreds of ms to load).
    const converter = require('tslab/dist/converter') as Pick<TslabModules, 'createConverter'>;
    const executor = require('tslab/dist/executor') as Pick<TslabModules, 'createExecutor'>;
    const jupyter = require('tslab/dist/jupyter') as TslabModules['jupyter'];
    tslab = { createConverter: converter.createConverter, createExecutor: executor.createExecutor, jupyter };
  }
  return tslab;
}

/** Is tslab's diagnostic line format (`"%s%d:%d - %s"`, file, line, column, message). */
function isDiagnostic(args: unknown[]): boolean {
  return args[0] === '%s%d:%d - %s' && args.length === 5;
}

/** Replaces the absolute project path in stack traces, so recorded errors don't depend on the checkout. */
function relativizeStack(text: string, root: string): string {
  return text.split(`${root}/`).join('');
}

/**
 * Drops the stack frames below the notebook's own code (tslab's and this runner's machinery, Node
 * internals): they say nothing about the cell and would make the recorded error depend on how the
 * runner was started. Frames of cell code are `evalmachine.<anonymous>`; library frames are kept.
 */
export function trimTraceback(lines: string[]): string[] {
  let last = -1;
  lines.forEach((line, i) => {
    if (line.includes('evalmachine.<anonymous>')) last = i;
  });
  return last < 0 ? lines : lines.slice(0, last + 1);
}

/**
 * What `npm run reproduce` prints for a failed cell: the one line of `describeFailure`, then the
 * traceback only when it says more than that line (a stack; not the single `InputError: …` line or the
 * compile diagnostics the line already holds).
 */
export function failureReport(f: CellFailure): string {
  const restated = f.traceback.join('\n') === f.evalue || (f.traceback.length === 1 && f.traceback[0] === `${f.ename}: ${f.evalue}`);
  return restated ? describeFailure(f) : `${describeFailure(f)}\n${f.traceback.join('\n')}`;
}

/**
 * Turns what tslab's executor reported for a failed cell into an nbformat error (ename, evalue,
 * traceback). An InputError (bad input: a parameter, a file) is recorded as its one line, as the
 * kernel shows it and the CLI prints it: its stack runs through the library's readers and says nothing
 * the message does not.
 */
export function failureFrom(reported: unknown[][], root: string): { ename: string; evalue: string; traceback: string[] } {
  const diagnostics = reported.filter(isDiagnostic);
  if (diagnostics.length > 0) {
    // tslab passes line and column already 1-based (file name empty for the cell itself).
    const lines = diagnostics.map((d) => `${d[1] as string}${d[2] as number}:${d[3] as number} - ${String(d[4])}`);
    return { ename: 'CompileError', evalue: lines.join('\n'), traceback: lines };
  }
  const last = reported[reported.length - 1];
  const thrown = last?.[0];
  if (thrown instanceof Error || (thrown !== null && typeof thrown === 'object' && 'stack' in thrown)) {
    const err = thrown as Error;
    // By name, not instanceof: the cell's InputError comes from the notebook's own require of dist/lib.
    if (err.name === 'InputError') return { ename: err.name, evalue: err.message, traceback: [`${err.name}: ${err.message}`] };
    const stack = relativizeStack(String(err.stack ?? `${err.name}: ${err.message}`), root);
    return { ename: err.name || 'Error', evalue: err.message ?? '', traceback: trimTraceback(stack.split('\n')) };
  }
  const text = last ? format(...last) : 'the cell failed without a message';
  return { ename: 'Error', evalue: text, traceback: [text] };
}

/**
 * Runs one cell's source with the process's stdout/stderr and tslab's display hook pointed at
 * `collector`; an exception is pushed to `reported`. Always puts the streams back. True when the
 * executor reports success.
 */
async function runCapturedCell(
  executor: { execute(source: string): Promise<boolean> },
  source: string,
  collector: OutputCollector,
  jupyter: { lastWriteDisplayData: unknown },
  reported: unknown[][],
): Promise<boolean> {
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const capture = (name: 'stdout' | 'stderr') =>
    ((chunk: string | Uint8Array) => {
      collector.stream(name, typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    }) as typeof process.stdout.write;
  process.stdout.write = capture('stdout');
  process.stderr.write = capture('stderr');
  jupyter.lastWriteDisplayData = (
    msg: { data: Record<string, unknown>; metadata?: Record<string, unknown>; transient?: { display_id?: string } },
    update?: boolean,
  ) => collector.display(msg.data, msg.metadata ?? {}, msg.transient?.display_id, update === true);
  try {
    const ok = await executor.execute(source);
    // Let already-settled rejections and timers of this cell surface before judging it.
    await new Promise((r) => setImmediate(r));
    return ok;
  } catch (err) {
    reported.push([err]);
    return false;
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
}

/**
 * Runs notebooks one after another, reusing tslab's TypeScript converter per working directory
 * (creating one costs ~2 s); every notebook still gets a fresh executor, i.e. fresh top-level state, as
 * with a new kernel. Call `close()` at the end (the converter watches files and keeps Node alive).
 */
export class NotebookSession {
  private readonly converters = new Map<string, TslabConverter>();
  private readonly root: string;

  constructor(options: { root?: string } = {}) {
    this.root = options.root ?? projectRoot();
  }

  private converterFor(cwd: string): TslabConverter {
    let conv = this.converters.get(cwd);
    if (!conv) {
      const before = process.cwd();
      process.chdir(cwd); // tslab's converter takes the current directory as its rootDir
      try {
        conv = loadTslab().createConverter({ isJS: false, isBrowser: false });
      } finally {
        process.chdir(before);
      }
      this.converters.set(cwd, conv);
    }
    return conv;
  }

  /** Executes every code cell in order; stops at the first failing cell (recorded in the result). */
  async execute(input: Notebook, options: ExecuteOptions): Promise<ExecutionResult> {
    const started = process.hrtime.bigint();
    const nb = injectParameters(input, options.parameters ?? {}, options.file);
    const cwd = resolve(options.cwd ?? notebookCompileRoot(this.root));
    const { createExecutor, jupyter } = loadTslab();
    const conv = this.converterFor(cwd);
    const collector = new OutputCollector();
    let reported: unknown[][] = [];
    const executor = createExecutor(
      cwd,
      { node: conv, browser: conv, close: () => {} },
      {
        log: (...args) => collector.stream('stdout', `${format(...args)}\n`),
        error: (...args) => {
          reported.push(args);
        },
      },
    );

    const cells: Cell[] = nb.cells.map((c) => (c.cell_type === 'code' ? { ...c, outputs: [], execution_count: null } : c));
    let failure: CellFailure | undefined;
    let count = 0;
    const before = process.cwd();
    const stdoutWrite = process.stdout.write;
    const stderrWrite = process.stderr.write;
    const savedDisplay = jupyter.lastWriteDisplayData;
    let asyncError: unknown[] | undefined;
    const onAsyncError = (err: unknown) => {
      asyncError = [err];
    };
    process.on('unhandledRejection', onAsyncError);
    process.on('uncaughtException', onAsyncError);
    try {
      process.chdir(cwd);
      for (const [i, cell] of cells.entries()) {
        const source = cellSource(cell);
        if (cell.cell_type !== 'code' || source.trim() === '') continue;
        const outputs = collector.startCell();
        cell.outputs = outputs;
        cell.execution_count = ++count;
        reported = [];
        asyncError = undefined;
        const t0 = process.hrtime.bigint();
        let ok = await runCapturedCell(executor, source, collector, jupyter, reported);
        if (ok && asyncError) {
          ok = false;
          reported.push(asyncError);
        }
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
        options.onCell?.(i, seconds, ok);
        if (!ok) {
          const { ename, evalue, traceback } = failureFrom(reported, this.root);
          collector.error(ename, evalue, traceback);
          failure = { file: options.file, cellIndex: i, ename, evalue, traceback };
          if (cell.id !== undefined) failure.cellId = cell.id;
          break;
        }
      }
    } finally {
      process.stdout.write = stdoutWrite;
      process.stderr.write = stderrWrite;
      jupyter.lastWriteDisplayData = savedDisplay;
      process.off('unhandledRejection', onAsyncError);
      process.off('uncaughtException', onAsyncError);
      process.chdir(before);
      // executor.close() is not called: it would close the converter shared with later notebooks.
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const result: ExecutionResult = { notebook: { ...nb, cells }, seconds };
    if (failure) result.failure = failure;
    return result;
  }

  /** Releases the TypeScript converters (their file watchers keep the process alive otherwise). */
  close(): void {
    for (const conv of this.converters.values()) conv.close();
    this.converters.clear();
  }
}

/** Executes one notebook in a session of its own (see NotebookSession). */
export async function executeNotebook(nb: Notebook, options: ExecuteOptions): Promise<ExecutionResult> {
  const session = new NotebookSession();
  try {
    return await session.execute(nb, options);
  } finally {
    session.close();
  }
}
