import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { readJsonFile } from '../io/json';

/**
 * Where the project lives, found from this module's own location rather than from the working
 * directory: Jupyter starts a kernel in the notebook's folder (`notebooks/`), the headless runner does
 * the same, and a test may run from anywhere — but this file is always inside the project
 * (`lib/notebook/` in source, `dist/lib/notebook/` once built).
 */
export function projectRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if (readJsonFile(pkg, z.object({ name: z.unknown() })).name === 'kstbench') return dir;
      } catch {
        // not the project's package.json; keep climbing
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`kstbench project root not found above ${from}`);
    dir = parent;
  }
}

/**
 * Makes the project root the working directory and returns it. Call it in a notebook's first code cell
 * so that relative paths (`data/raw/...`, `figures/...`) mean the same in Jupyter, VS Code, under
 * nbconvert and in `npm run reproduce`. (Imports are not affected: tslab resolves them from its compile
 * root, `notebookCompileRoot()`, so notebooks import `../dist/lib/...`.)
 */
export function enterProjectRoot(): string {
  const root = projectRoot();
  process.chdir(root);
  return root;
}

/**
 * The folder tslab compiles notebook cells in (its rootDir, which also anchors relative imports): the
 * project's notebooks/. The project's kernel and the headless runner both start tslab there, whatever
 * folder the notebook file is in, so a notebook copied elsewhere still imports `../dist/lib/...` and
 * still gets the library's types (TypeScript resolves the relative path to the real `.d.ts` files).
 */
export function notebookCompileRoot(root: string = projectRoot()): string {
  return join(root, 'notebooks');
}
