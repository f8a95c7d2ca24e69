import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { ensureDir } from './dirs';
import { openThrough, withPath, writeNotice, writeTarget, type WriteTarget } from './target';
import { processAlive, releaseTemporary, trackTemporary } from './temporaries';
import { writeChunk } from './write-all';

/**
 * Writes `data` to `path` so that readers see either the old file or the complete new one, never a
 * half-written file: the bytes go to a temporary sibling, are flushed to disk, then renamed over the target
 * (rename is atomic within one file system).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  writeFilesAtomic([{ path, data }]);
}

/** The hidden sibling a file is staged in before its rename: `.<name>.<pid>.tmp` in the same folder. */
export function temporarySibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
}

/**
 * Removes the temporary siblings of `path` (`.<name>.<pid>.tmp`) whose process no longer runs: a writer
 * killed by SIGKILL (or a power loss) cannot remove its own, and each is as large as the output it was
 * writing. Each removal is noted on stderr. A sibling of a running process (another kstbench writing
 * the same file) is left alone; so is everything that does not have exactly this form. Called before a
 * new temporary of `path` is staged; a folder that cannot be listed is left to the write to report.
 */
export function removeStaleTemporaries(path: string): void {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = name.slice(prefix.length, -'.tmp'.length);
    if (!/^[1-9]\d{0,6}$/.test(pid) || Number(pid) === process.pid || processAlive(Number(pid))) continue;
    rmSync(join(dir, name), { force: true });
    writeNotice(`removed ${join(dir, name)}, left by an earlier run (pid ${pid}) that was killed before it finished writing ${basename(path)}`);
  }
}

/** An OS error about the temporary sibling of `path`, re-aimed at `path` itself (the file the caller named). */
function aimAt(err: unknown, tmp: string, path: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && e.path === tmp) e.path = path;
  return err;
}

/** Node's own EISDIR error for a rename onto a directory, raised before any rename is attempted. */
function isDirectoryError(tmp: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EISDIR: illegal operation on a directory, rename '${tmp}' -> '${path}'`), { code: 'EISDIR', errno: -21, syscall: 'rename', path });
}

/**
 * Writes several files as one unit: every file is first written to a temporary sibling; only when all
 * of them are complete are they renamed into place. A failure before the renames (a folder that cannot
 * be made, a path component that is a file, a full disk, a target that is a directory) leaves no output
 * at all and no temporary file. Errors are Node's own (`code`, `syscall`), with `path` naming the
 * target rather than its temporary sibling (also for write and fsync, which carry no path). A rename
 * that fails after others succeeded (the folder was removed meanwhile) leaves those earlier files
 * complete and removes every temporary file left. A target that exists and is not a regular file is
 * never renamed over (lib/io/target.ts): a device or pipe is written through after the renames, a
 * link is followed, anything else is refused. Every temporary file is listed (lib/io/temporaries.ts)
 * from before its creation until its rename, so a signal or exit removes it too.
 */
export function writeFilesAtomic(files: ReadonlyArray<{ path: string; data: string | Uint8Array }>): void {
  const staged: Array<{ tmp: string; path: string; requested: string }> = [];
  const through: Array<{ target: Extract<WriteTarget, { mode: 'through' }>; data: string | Uint8Array }> = [];
  const unstage = (): void => {
    for (const { tmp } of staged) {
      rmSync(tmp, { force: true });
      releaseTemporary(tmp);
    }
  };
  try {
    for (const { path, data } of files) {
      ensureDir(dirname(path));
      const target = writeTarget(path);
      if (target.mode === 'through') {
        through.push({ target, data });
        continue;
      }
      const tmp = temporarySibling(target.path);
      removeStaleTemporaries(target.path);
      trackTemporary(tmp);
      staged.push({ tmp, path: target.path, requested: path });
      let fd: number;
      try {
        fd = openSync(tmp, 'w');
      } catch (err) {
        staged.pop(); // nothing was created to remove
        releaseTemporary(tmp);
        throw aimAt(err, tmp, path);
      }
      try {
        writeChunk(fd, data);
        fsyncSync(fd);
      } catch (err) {
        throw withPath(aimAt(err, tmp, path), path);
      } finally {
        closeSync(fd);
      }
    }
    // rename(2) cannot put a file over a directory: find that now, while nothing has been renamed yet.
    for (const { tmp, path } of staged) if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw isDirectoryError(tmp, path);
  } catch (err) {
    unstage();
    throw err;
  }
  for (let i = 0; i < staged.length; i++) {
    const { tmp, path, requested } = staged[i]!;
    try {
      renameSync(tmp, path);
      releaseTemporary(tmp);
    } catch (err) {
      staged.splice(0, i);
      unstage();
      throw aimAt(err, tmp, requested);
    }
  }
  for (const { target, data } of through) {
    const fd = openThrough(target);
    try {
      writeChunk(fd, data);
    } catch (err) {
      throw withPath(err, target.requested);
    } finally {
      closeSync(fd);
    }
  }
}
