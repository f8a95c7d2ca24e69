import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

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

/**
 * Why ensureDir(dir) would fail, found without making anything, so a command can refuse a bad output
 * folder before it spends minutes on work it cannot save: null when `dir` is a folder, or can be made,
 * that this process may write in; else the OS code and the path it is about — ENOTDIR (a path
 * component is a file), EEXIST (`dir` itself is a file), EACCES (the nearest existing folder is not
 * writable), or what stat(2) said.
 * @example
 * whyDirCannotBeMade('/dev/null/x'); // => { code: 'ENOTDIR', path: '/dev/null' }
 */
export function whyDirCannotBeMade(dir: string): { code: string; path: string } | null {
  const target = resolve(dir);
  let path = target;
  for (;;) {
    let stats;
    try {
      stats = statSync(path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      // Missing, or under a file (stat of FILE/x says ENOTDIR): look one level up for what is there.
      if ((code === 'ENOENT' || code === 'ENOTDIR') && dirname(path) !== path) {
        path = dirname(path);
        continue;
      }
      return { code, path };
    }
    if (!stats.isDirectory()) return { code: path === target ? 'EEXIST' : 'ENOTDIR', path };
    try {
      accessSync(path, constants.W_OK | constants.X_OK);
    } catch (err) {
      return { code: (err as NodeJS.ErrnoException).code ?? (err as Error).message, path };
    }
    return null;
  }
}
