import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { removeStaleTemporaries, temporarySibling } from './atomic';
import { ensureDir } from './dirs';
import { osWriteErrorAt } from './os-error';
import { openThrough, writeTarget } from './target';
import { releaseTemporary, trackTemporary } from './temporaries';
import { writeChunk } from './write-all';

export { writeChunk } from './write-all';

/**
 * A streaming counterpart of writeFileAtomic for outputs too large for one string (a space with
 * millions of states): chunks go to a temporary sibling, which is flushed and renamed over `path`
 * only when `commit()` is called; `abort()` (or any failure) removes it, so nothing half-written is
 * left. The temporary file is listed (lib/io/temporaries.ts) so an exit or a signal removes it too.
 * A device or pipe (`/dev/null`, a FIFO, `/dev/stdout`) is written through and never renamed over;
 * a link is followed (lib/io/target.ts). OS errors (ENOSPC, EACCES, ENOTDIR, …) become InputErrors
 * naming the path and the code.
 */
export interface FileSink {
  write(chunk: string | Uint8Array): void;
  commit(): void;
  abort(): void;
}

function fdSink(fd: number, path: string, finish: () => void, discard: () => void): FileSink {
  let open = true;
  const abort = (): void => {
    if (!open) return;
    open = false;
    try {
      closeSync(fd);
    } catch {
      // already failing; the temporary file (if any) is removed below
    }
    discard();
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
        finish();
        open = false;
      } catch (err) {
        abort();
        throw osWriteErrorAt(path, err);
      }
    },
    abort,
  };
}

export function openFileSink(path: string): FileSink {
  let target: ReturnType<typeof writeTarget>;
  try {
    ensureDir(dirname(path));
    target = writeTarget(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === undefined) throw err;
    throw osWriteErrorAt(path, err);
  }
  if (target.mode === 'through') {
    const fd = openThrough(target);
    return fdSink(fd, path, () => closeSync(fd), () => {});
  }
  const tmp = temporarySibling(target.path);
  removeStaleTemporaries(target.path);
  trackTemporary(tmp);
  let fd: number;
  try {
    fd = openSync(tmp, 'w');
  } catch (err) {
    releaseTemporary(tmp);
    throw osWriteErrorAt(path, err);
  }
  return fdSink(
    fd,
    path,
    () => {
      fsyncSync(fd);
      closeSync(fd);
      renameSync(tmp, target.path);
      releaseTemporary(tmp);
    },
    () => {
      rmSync(tmp, { force: true });
      releaseTemporary(tmp);
    },
  );
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
