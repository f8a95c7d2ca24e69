import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { applyTemporaryMessage, removeLiveTemporaries, type TemporariesRemoval } from '../lib/io/temporaries';
import { writeChunk } from '../lib/io/write-all';
import type { Command } from './common';
import { commandExitCell, readCommandExit } from './thread';
import type { CommandWorkerData, SignalHandledMessage, SignalHandlerMessage, SignalMessage } from './thread';

/**
 * The `kstbench` command: a thin dispatcher over lib/. A subcommand's module is imported only when it
 * runs (the table below is the only place a command is named), and
 * the heavy packages load only where they are used (the model SDKs at a live provider's first use):
 * `kstbench --help` loads no command and `kstbench fringe` neither the collector, an SDK nor danfojs
 * (test/collect/startup.test.ts).
 *
 * The main thread only dispatches and owns the signals (runInWorker): it loads this module and
 * lib/io/temporaries, not the flag parser or the error reporting (cli/common.ts, lib/io/target.ts),
 * which the command's thread imports in runCommand and the main thread only when a worker fails.
 * Every module the main thread loads is compiled a second time in the worker's own isolate.
 */
interface CommandEntry {
  summary: string;
  load: () => Promise<Command>;
  /**
   * Runs in a worker thread (cli/command-worker.ts), as every command does. Its long
   * synchronous work (enumerating a space, a union closure, bootstrap draws, planning a large
   * collection design) would otherwise keep the main thread from ever seeing SIGINT; here the main
   * thread stays idle, owns the signals and removes the worker's temporary files (runInWorker). A
   * command with a graceful stop of its own (collect, psi collect: cli/thread.ts) gets the first
   * signal forwarded and must answer within SIGNAL_ANSWER_MS; otherwise, and on a second signal, the
   * worker is stopped at once.
   */
  worker?: true;
}

export const commands: Record<string, CommandEntry> = {
  space: {
    summary: 'stream every knowledge state with its outer fringe (JSON Lines or SRBT); --count, --check',
    load: async () => (await import('./commands/space')).command,
    worker: true,
  },
  fringe: {
    summary: 'outer fringe (admissible next steps) of one state (JSON)',
    load: async () => (await import('./commands/fringe')).command,
    worker: true,
  },
  sample: {
    summary: 'seeded sample of knowledge states, as the state-sample file collect --states reads',
    load: async () => (await import('./commands/sample')).command,
    worker: true,
  },
  import: {
    summary: 'import a kstIO structure file (matrix, KST, SRBT, CSV, surmise CSV) as a domain file',
    load: async () => (await import('./commands/import')).command,
    worker: true,
  },
  export: {
    summary: 'export a domain as a kstIO file (basis, space, relation, surmise function, items)',
    load: async () => (await import('./commands/export')).command,
    worker: true,
  },
  analyze: {
    summary: 'score responses and write Tables 1, 3, 4, contrasts and order agreement (CSV)',
    load: async () => (await import('./commands/analyze')).command,
    worker: true,
  },
  collect: {
    summary: 'collect model responses for every state × condition × model × order (resumable, audited)',
    load: async () => (await import('./commands/collect')).command,
    worker: true,
  },
  study: {
    summary: 'a study as a folder: init, check, run (collect, analyze, figures, report), plan',
    load: async () => (await import('./commands/study')).command,
    worker: true,
  },
  psi: {
    summary: 'Pedagogical Suitability Index: score responses, collect rounds 1 and 2',
    load: async () => (await import('./commands/psi')).command,
    worker: true,
  },
};

/** Registers a subcommand (used by later modules; keeps the table in one place). */
export function commandNames(): string[] {
  return Object.keys(commands);
}

function usage(): string {
  const lines = Object.entries(commands).map(([name, { summary }]) => `  ${name.padEnd(12)} ${summary}`);
  return [
    'Usage: kstbench <command> [options]',
    '',
    'Knowledge Space Theory benchmark for LLM next-step recommendations.',
    '',
    'Commands:',
    ...lines,
    '',
    "Run 'kstbench <command> --help' for a command's options.",
    'Exit codes: 0 ok, 1 bad input or OS error, 2 usage error, 3 quota stop (collect: resume later),',
    '  4 run failed (collect: fix the printed cause, then re-run), 5 incomplete (collect: some cells',
    '  missing, re-run with --retry-missing), 130 interrupted (collect: re-run to resume).',
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const failure = printOnStdout(usage());
    if (!failure) return name === undefined ? 2 : 0;
    const { osWriteErrorAt } = await import('../lib/io/os-error');
    process.stderr.write(`kstbench: ${osWriteErrorAt('standard output', failure).message}\n`);
    return 1;
  }
  const entry = commands[name];
  if (!entry) {
    process.stderr.write(`kstbench: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  return entry.worker ? runInWorker(name, rest) : runCommand(name, rest);
}

/** Loads and runs one command in this thread; every failure becomes its exit code and one stderr line. */
export async function runCommand(name: string, argv: string[]): Promise<number> {
  const entry = commands[name]!;
  const [{ reportError, running }, { onWriteNotice }] = await Promise.all([import('./common'), import('../lib/io/target')]);
  running.command = name;
  const previous = onWriteNotice((message) => process.stderr.write(`kstbench ${name}: ${message}\n`));
  try {
    return await (await entry.load()).run(argv);
  } catch (err) {
    return reportError(name, err);
  } finally {
    onWriteNotice(previous);
  }
}

/** Exit code after SIGINT / SIGTERM (128 + 2, as shells report it). */
export const EXIT_SIGNALLED = 130;

/** How long a worker with a graceful stop has to answer a forwarded signal before it is stopped (it is busy in synchronous work). */
export const SIGNAL_ANSWER_MS = 500;

/** The line printed when the main thread stopped a worker, by why it did. */
function stoppedLine(command: string, stop: { signal: NodeJS.Signals; why: 'signal' | 'busy' | 'second' }, graceful: { name: string; resume: string } | null, removal: TemporariesRemoval): string {
  const name = graceful?.name ?? command;
  const resume = graceful?.resume;
  const { removed, left } = removal;
  const cleaned = removed === 0 && left.length === 0 ? 'no temporary file was left' : `removed ${removed} temporary file${removed === 1 ? '' : 's'}`;
  const files = left.length === 0 ? cleaned : `${cleaned}; could not remove ${left.map(({ path, code }) => `${path} (${code})`).join(', ')}`;
  const again = resume === undefined ? '' : `; resume with: ${resume}`;
  if (stop.why === 'second') return `kstbench ${name}: second ${stop.signal}, exiting now (${files}${again})`;
  if (stop.why === 'busy') return `kstbench ${name}: stopped by ${stop.signal} during synchronous work (no answer within ${SIGNAL_ANSWER_MS} ms); ${files}${again}`;
  return `kstbench ${name}: stopped by ${stop.signal}; no output file was replaced (${files})`;
}

/**
 * SIGKILLs this process's own child processes (Linux: read from /proc; elsewhere nothing). Used only
 * when a command was stopped, so no work of the run is left to lose.
 */
function killChildProcesses(): void {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return;
  }
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after its last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
}

let ignoringLateSignals = false;

/** How long after a command's worker exited a SIGINT/SIGTERM is still ignored (see ignoreLateSignals). */
const LATE_SIGNAL_MS = 1000;

/**
 * Once a command's worker has exited, the process only writes its last line and exits with the code
 * it settled on; a SIGINT or SIGTERM then (a second Ctrl-C) would kill it by the default action, so it
 * ended "by a signal" after its work was done. Such signals are ignored for LATE_SIGNAL_MS, by then the
 * CLI has exited (neither the listeners nor the unref'd timer keep a process alive); a program that
 * called main() itself gets its signals back.
 */
function ignoreLateSignals(): void {
  if (ignoringLateSignals) return;
  ignoringLateSignals = true;
  const ignore = (): void => {};
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  setTimeout(() => {
    process.off('SIGINT', ignore);
    process.off('SIGTERM', ignore);
    ignoringLateSignals = false;
  }, LATE_SIGNAL_MS).unref();
}

/**
 * Runs a command in a worker thread and waits for its exit code. On SIGINT or SIGTERM the worker is
 * terminated (V8 stops it even inside a tight loop, so any command ends within a second), every
 * temporary file it had listed is removed, and the command exits 130 saying so. A worker that
 * registered a graceful handler (cli/thread.ts) gets the first signal instead, and is terminated only
 * when it does not answer within SIGNAL_ANSWER_MS or on a second signal. A signal after the worker
 * recorded its exit code (only the code cache's save is left, cli/command-worker.ts) stops the worker
 * and keeps that code: the command's output was written. The code is in shared memory, read when the
 * signal is handled, so no message queued behind the signal can make a finished run say "stopped".
 */
function runInWorker(name: string, argv: string[]): Promise<number> {
  // Run from its TypeScript source (a test importing cli/kstbench.ts), this module still starts the
  // worker from tsc's output: a worker thread gets no TypeScript loader of its parent's.
  const compiled = __filename.endsWith('.js');
  const exit = commandExitCell();
  const workerData: CommandWorkerData = { name, argv, stderrIsTTY: process.stderr.isTTY === true, exit };
  const worker = new Worker(compiled ? join(__dirname, 'command-worker.js') : join(__dirname, '..', 'dist', 'cli', 'command-worker.js'), { workerData, stdout: true });
  const output = forwardStdout(worker.stdout);
  return new Promise<number>((resolve) => {
    let reported: Promise<number> | undefined;
    let graceful: { name: string; resume: string } | null = null;
    let forwarded = false;
    let stopped: { signal: NodeJS.Signals; why: 'signal' | 'busy' | 'second' } | undefined;
    let answerTimer: NodeJS.Timeout | undefined;
    const stop = (signal: NodeJS.Signals, why: 'signal' | 'busy' | 'second'): void => {
      if (stopped) return;
      // Once the worker recorded its exit code the command is done (only the code cache's save is left): the
      // worker is still stopped, but the run's code and output stand.
      if (readCommandExit(exit) === undefined) stopped = { signal, why };
      clearTimeout(answerTimer);
      void worker.terminate();
    };
    const onSignal = (signal: NodeJS.Signals): void => {
      if (graceful && !forwarded && readCommandExit(exit) === undefined) {
        forwarded = true;
        worker.postMessage({ kstbenchSignal: signal } satisfies SignalMessage);
        answerTimer = setTimeout(() => stop(signal, 'busy'), SIGNAL_ANSWER_MS);
        return;
      }
      stop(signal, forwarded ? 'second' : 'signal');
    };
    const sigint = (): void => onSignal('SIGINT');
    const sigterm = (): void => onSignal('SIGTERM');
    process.on('SIGINT', sigint);
    process.on('SIGTERM', sigterm);
    worker.on('message', (message: unknown) => {
      if (applyTemporaryMessage(message)) return;
      const m = (message ?? {}) as Partial<SignalHandlerMessage & SignalHandledMessage>;
      if (m.kstbenchSignalHandler !== undefined) graceful = m.kstbenchSignalHandler;
      else if (m.kstbenchSignalHandled !== undefined) clearTimeout(answerTimer);
    });
    // Rare (runCommand catches what a command throws), so the reporting is loaded only then; 'exit'
    // follows 'error' and waits for it.
    worker.on('error', (err) => {
      reported = import('./common').then(({ reportError }) => reportError(name, err));
    });
    worker.on('exit', async (exitCode) => {
      const stdoutFailure = await output;
      const failed = reported === undefined ? undefined : await reported;
      clearTimeout(answerTimer);
      ignoreLateSignals();
      process.off('SIGINT', sigint);
      process.off('SIGTERM', sigterm);
      // A stopped command's browser (lib/figures) is this process's child and outlives the worker by
      // seconds, still writing into the profile being removed: it is stopped first.
      if (stopped) killChildProcesses();
      const removed = removeLiveTemporaries();
      // A command can finish between the signal and the worker's termination: then it recorded its
      // code, its output is written, and it did not stop.
      if (stopped && readCommandExit(exit) === undefined) {
        process.stderr.write(`\n${stoppedLine(name, stopped, graceful, removed)}\n`);
        resolve(EXIT_SIGNALLED);
        return;
      }
      if (stdoutFailure) {
        const { osWriteErrorAt } = await import('../lib/io/os-error');
        process.stderr.write(`kstbench ${name}: ${osWriteErrorAt('standard output', stdoutFailure).message}\n`);
        resolve(1);
        return;
      }
      // A worker that called process.exit(n) recorded no code.
      resolve(failed ?? readCommandExit(exit) ?? (exitCode !== 0 ? exitCode : 1));
    });
  });
}

/**
 * Writes what the worker prints on standard output to fd 1, every byte (lib/io/write-all.ts), and
 * resolves when the worker's stream ends: with null, or with the error that stopped the writing. Node's
 * own forwarding through process.stdout lost output: a redirection to a full disk got a short write
 * that its file stream ignores (a truncated file, exit 0), and /dev/full or a reader that left
 * (`| head -1`) an 'error' event nobody listened to (a stack trace). A reader that left (EPIPE) is no
 * failure: the rest is dropped, as the worker's direct writes of fd 1 drop it (lib/io/sink.ts,
 * stdoutSink). Any other error is reported once (the command exits 1) and the rest dropped.
 */
function forwardStdout(stream: NodeJS.ReadableStream): Promise<NodeJS.ErrnoException | null> {
  let failure: NodeJS.ErrnoException | null = null;
  stream.on('data', (chunk: Uint8Array) => {
    if (!failure) failure = printOnStdout(chunk);
  });
  return new Promise((resolve) => stream.on('end', () => resolve(failure)));
}

/** Writes every byte to fd 1; returns the error that stopped it, or null (also when the reader left: EPIPE). */
function printOnStdout(chunk: string | Uint8Array): NodeJS.ErrnoException | null {
  try {
    writeChunk(1, chunk);
    return null;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPIPE' ? null : (err as NodeJS.ErrnoException);
  }
}

