import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { ensureDir } from './dirs';

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
 * target rather than its temporary sibling. A rename that fails after others succeeded (the folder was
 * removed meanwhile) leaves those earlier files complete and removes every temporary file left.
 */
export function writeFilesAtomic(files: ReadonlyArray<{ path: string; data: string | Uint8Array }>): void {
  const staged: Array<{ tmp: string; path: string }> = [];
  try {
    for (const { path, data } of files) {
      ensureDir(dirname(path));
      const tmp = temporarySibling(path);
      staged.push({ tmp, path });
      let fd: number;
      try {
        fd = openSync(tmp, 'w');
      } catch (err) {
        staged.pop(); // nothing was created to remove
        throw aimAt(err, tmp, path);
      }
      try {
        writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    // rename(2) cannot put a file over a directory: find that now, while nothing has been renamed yet.
    for (const { tmp, path } of staged) if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw isDirectoryError(tmp, path);
  } catch (err) {
    for (const { tmp } of staged) rmSync(tmp, { force: true });
    throw err;
  }
  for (let i = 0; i < staged.length; i++) {
    const { tmp, path } = staged[i]!;
    try {
      renameSync(tmp, path);
    } catch (err) {
      for (const rest of staged.slice(i)) rmSync(rest.tmp, { force: true });
      throw aimAt(err, tmp, path);
    }
  }
}
