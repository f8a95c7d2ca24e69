import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * What a command needs to know about the thread it runs in. Long commands run in a worker thread
 * (cli/kstbench.ts runInWorker), where the process's signals never arrive and stderr is no terminal;
 * the main thread owns both and passes them on:
 * - a command with its own graceful stop (collect, psi collect: finish the calls in flight, record
 *   them, exit 130) registers a handler here; in a worker the main thread is told so, forwards the
 *   first SIGINT/SIGTERM as a message and expects it answered at once. A worker that does not answer
 *   is busy in synchronous work (planning a large design: nothing written yet) and is stopped;
 * - in the main thread (a test calling a command directly) the handler is the process's own.
 */

/** Main thread → worker: a signal the main thread received. */
export interface SignalMessage {
  kstbenchSignal: NodeJS.Signals;
}

/**
 * Worker → main thread: a graceful handler is (or, null, is no longer) registered; if the worker must
 * be stopped, the main thread names the command `name` (e.g. `psi collect`) and prints `resume`.
 */
export interface SignalHandlerMessage {
  kstbenchSignalHandler: { name: string; resume: string } | null;
}

/** Worker → main thread: the forwarded signal reached the handler. */
export interface SignalHandledMessage {
  kstbenchSignalHandled: NodeJS.Signals;
}

/** The worker's data (cli/kstbench.ts sets it). */
export interface CommandWorkerData {
  name: string;
  argv: string[];
  stderrIsTTY: boolean;
  /**
   * Shared with the main thread (commandExit / readCommandExit): the command's exit code once it
   * finished. Shared memory, not a message, so a signal the main thread handles before a queued
   * message still sees that the command is done.
   */
  exit: Int32Array;
}

/** A cell for CommandWorkerData.exit: [0] is 1 once the command finished, [1] its exit code. */
export function commandExitCell(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

/** The worker records its command's exit code (the code first, then the flag: Atomics keep the order). */
export function recordCommandExit(cell: Int32Array, code: number): void {
  Atomics.store(cell, 1, code);
  Atomics.store(cell, 0, 1);
}

/** The command's exit code if the worker recorded one. */
export function readCommandExit(cell: Int32Array): number | undefined {
  return Atomics.load(cell, 0) === 1 ? Atomics.load(cell, 1) : undefined;
}

/** Whether stderr is a terminal (in a worker: the main thread's stderr, as it said at start). */
export function stderrIsTTY(): boolean {
  if (isMainThread) return process.stderr.isTTY === true;
  return (workerData as Partial<CommandWorkerData> | null)?.stderrIsTTY === true;
}

/**
 * Calls `handler` on each SIGINT or SIGTERM until the returned function is called. In a worker the
 * signals come from the main thread (see above); `name` is the command as the user typed it and
 * `resume` the command line that resumes the work.
 */
export function onInterruptSignals(name: string, resume: string, handler: (signal: NodeJS.Signals) => void): () => void {
  if (isMainThread || !parentPort) {
    const sigint = () => handler('SIGINT');
    const sigterm = () => handler('SIGTERM');
    process.on('SIGINT', sigint);
    process.on('SIGTERM', sigterm);
    return () => {
      process.off('SIGINT', sigint);
      process.off('SIGTERM', sigterm);
    };
  }
  const port = parentPort;
  const onMessage = (message: unknown) => {
    const signal = (message as Partial<SignalMessage> | null)?.kstbenchSignal;
    if (signal !== 'SIGINT' && signal !== 'SIGTERM') return;
    port.postMessage({ kstbenchSignalHandled: signal } satisfies SignalHandledMessage);
    handler(signal);
  };
  port.on('message', onMessage);
  port.postMessage({ kstbenchSignalHandler: { name, resume } } satisfies SignalHandlerMessage);
  return () => {
    port.off('message', onMessage);
    port.postMessage({ kstbenchSignalHandler: null } satisfies SignalHandlerMessage);
  };
}
