import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates `dir` and any missing parents, like `mkdir -p`, and throws the OS error (ENOENT, EACCES,
 * EEXIST, ENOTDIR, …) when that cannot be done.
 *
 * Why not `mkdirSync(dir, { recursive: true })`: Node 20's recursive mkdir never returns on a
 * pseudo file system that answers ENOENT for a child of an existing directory (`/proc/x`), so a
 * mistyped `--out` hung the process. Walking up one level at a time ends on every file system.
 */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && isDirectory(dir)) return;
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw err;
    ensureDir(parent);
    // The parent exists now; a second ENOENT (as /proc gives) is final, not a reason to loop.
    try {
      mkdirSync(dir);
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'EEXIST' && isDirectory(dir)) return;
      throw again;
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
