import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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

/**
 * Writes several files as one unit: every file is first written to a temporary sibling; only when all
 * of them are complete are they renamed into place. A failure before the renames leaves no output at all.
 */
export function writeFilesAtomic(files: ReadonlyArray<{ path: string; data: string | Uint8Array }>): void {
  const staged: Array<{ tmp: string; path: string }> = [];
  try {
    for (const { path, data } of files) {
      ensureDir(dirname(path));
      const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
      staged.push({ tmp, path });
      const fd = openSync(tmp, 'w');
      try {
        writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  } catch (err) {
    for (const { tmp } of staged) rmSync(tmp, { force: true });
    throw err;
  }
  for (const { tmp, path } of staged) renameSync(tmp, path);
}
