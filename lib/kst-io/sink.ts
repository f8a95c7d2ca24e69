import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDir, osWriteErrorAt, temporarySibling } from '../io';

/**
 * A streaming counterpart of lib/io's writeFileAtomic for outputs too large for one string (a space
 * with millions of states): chunks go to a temporary sibling, which is flushed and renamed over `path`
 * only when `commit()` is called; `abort()` (or any failure) removes it, so nothing half-written is
 * left. OS errors (ENOSPC, EACCES, ENOTDIR, …) become InputErrors naming the path and the code.
 */
export interface FileSink {
  write(chunk: string | Uint8Array): void;
  commit(): void;
  abort(): void;
}

export function openFileSink(path: string): FileSink {
  const tmp = temporarySibling(path);
  let fd: number;
  try {
    ensureDir(dirname(path));
    fd = openSync(tmp, 'w');
  } catch (err) {
    throw osWriteErrorAt(path, err);
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
        writeChunk(fd, chunk);
      } catch (err) {
        abort();
        throw osWriteErrorAt(path, err);
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
        throw osWriteErrorAt(path, err);
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
        writeChunk(1, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') return;
        throw osWriteErrorAt('standard output', err);
      }
    },
    commit() {},
    abort() {},
  };
}

/** Writes the whole chunk (a byte chunk may be written in parts: writeSync returns what it wrote). */
function writeChunk(fd: number, chunk: string | Uint8Array): void {
  if (typeof chunk === 'string') {
    writeSync(fd, chunk);
    return;
  }
  for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at, chunk.length - at);
}
