import { rmSync } from 'node:fs';
import { isMainThread, parentPort } from 'node:worker_threads';

/**
 * Every temporary file the atomic writers stage, from creation to rename or removal, so that no exit
 * path leaves one behind: a normal exit removes what is still listed (`process.on('exit')`), and the
 * CLI's signal handler calls `removeLiveTemporaries` before it exits. A command that runs in a worker
 * thread (cli/command-worker.ts) also reports each name to the main thread, which owns the signals: it
 * stops the worker, then removes the files the worker had open.
 */

const live = new Set<string>();
let exitHookInstalled = false;

/** The message a worker thread posts about a temporary file (read by cli/kstbench.ts). */
export interface TemporaryMessage {
  kstbenchTemporary: 'add' | 'release';
  path: string;
}

function tell(kind: TemporaryMessage['kstbenchTemporary'], path: string): void {
  if (!isMainThread && parentPort) parentPort.postMessage({ kstbenchTemporary: kind, path } satisfies TemporaryMessage);
}

/** Lists a temporary file before it is created (so a signal between open and rename still finds it). */
export function trackTemporary(path: string): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => removeLiveTemporaries());
  }
  live.add(path);
  tell('add', path);
}

/** Takes a temporary file off the list once it was renamed into place or removed. */
export function releaseTemporary(path: string): void {
  live.delete(path);
  tell('release', path);
}

/** Applies a worker's message to this thread's list; false when the message is not about temporaries. */
export function applyTemporaryMessage(message: unknown): boolean {
  const m = message as TemporaryMessage | null;
  if (!m || typeof m !== 'object' || typeof m.path !== 'string') return false;
  if (m.kstbenchTemporary === 'add') live.add(m.path);
  else if (m.kstbenchTemporary === 'release') live.delete(m.path);
  else return false;
  return true;
}

/** What removeLiveTemporaries did: how many listed paths it removed, and those it could not, with the OS error's code. */
export interface TemporariesRemoval {
  removed: number;
  left: Array<{ path: string; code: string }>;
}

/**
 * Removes every listed temporary file (missing ones are fine) and every listed temporary folder with
 * what is in it (the figure browser's profile and page folders). A browser stopped with its command
 * may still write into its profile for a moment (ENOTEMPTY while the folder is emptied), so removal
 * is retried for up to about a second (Node's rmSync retries); a path that still cannot be removed is
 * reported, never thrown: this runs while the process is exiting.
 */
export function removeLiveTemporaries(remove: (path: string) => void = removeRetrying): TemporariesRemoval {
  const result: TemporariesRemoval = { removed: 0, left: [] };
  for (const path of live) {
    try {
      remove(path);
      result.removed++;
    } catch (err) {
      result.left.push({ path, code: (err as NodeJS.ErrnoException).code ?? String(err) });
    }
  }
  live.clear();
  return result;
}

function removeRetrying(path: string): void {
  rmSync(path, { force: true, recursive: true, maxRetries: 6, retryDelay: 50 });
}

/** The temporary files listed now (for tests and messages). */
export function liveTemporaries(): string[] {
  return [...live];
}

/** True while a process of this pid exists (EPERM: it exists, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
