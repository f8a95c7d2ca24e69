import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors';
import { ensureDir, osErrorMeaning } from '../io';

/**
 * A streaming counterpart of lib/io's writeFileAtomic for outputs too large for one string (a space
 * with millions of states): chunks go to a temporary sibling, which is flushed and renamed over `path`
 * only when `commit()` is called; `abort()` (or any failure) removes it, so nothing half-written is
 * left. OS errors (ENOSPC, EACCES, ENOTDIR, …) become InputErrors naming the path and the code.
 */
export interface FileSink {
  write(chunk: string): void;
  commit(): void;
  abort(): void;
}

function osError(path: string, err: unknown): never {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code ? `${code} (${osErrorMeaning(code)})` : (err as Error).message;
  throw new InputError(`cannot write ${path}: ${why}`, { file: path });
}

export function openFileSink(path: string): FileSink {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let fd: number;
  try {
    ensureDir(dirname(path));
    fd = openSync(tmp, 'w');
  } catch (err) {
    osError(path, err);
  }
  let open = true;
  const abort = (): void => {
    if (!open) return;
    open = false;
    try {
      closeSync(fd);
    } catch {
      // already failing; the temporary file is removed below
    }
    rmSync(tmp, { force: true });
  };
  return {
    write(chunk) {
      try {
        writeSync(fd, chunk);
      } catch (err) {
        abort();
        osError(path, err);
      }
    },
    commit() {
      try {
        fsyncSync(fd);
        closeSync(fd);
        open = false;
        renameSync(tmp, path);
      } catch (err) {
        abort();
        osError(path, err);
      }
    },
    abort,
  };
}

/** A sink on standard output (fd 1), written synchronously so that pipes see the lines in order. */
export function stdoutSink(): FileSink {
  return {
    write(chunk) {
      try {
        writeSync(1, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
        osError('standard output', err);
      }
    },
    commit() {},
    abort() {},
  };
}
