/**
 * Where a notebook's figures and tables go. `npm run reproduce` (and any script or test) writes the
 * project's own outputs (`figures/`, `data/processed/tables/`). A notebook a student runs in Jupyter
 * (through the project kernel, which sets KSTBENCH_INTERACTIVE=1) writes them below
 * `tmp/notebook-outputs/` instead (ignored by git), so experimenting never changes a committed file —
 * unless the student asks for the project folders with `saveToProject()` in a cell (or
 * KSTBENCH_SAVE_OUTPUTS=project in the kernel's environment).
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { projectRoot } from '../notebook/project';

/** The scratch folder of an interactive session, relative to the project root. */
export const SCRATCH_OUTPUTS = join('tmp', 'notebook-outputs');

/**
 * The folder below which `figures/` and `data/processed/tables/` are written.
 *
 * @example
 * outputBase('/p', {}); // => '/p'
 * outputBase('/p', { KSTBENCH_INTERACTIVE: '1' }); // => '/p/tmp/notebook-outputs'
 * outputBase('/p', { KSTBENCH_INTERACTIVE: '1', KSTBENCH_SAVE_OUTPUTS: 'project' }); // => '/p'
 */
export function outputBase(root: string = projectRoot(), env: NodeJS.ProcessEnv = process.env): string {
  return env['KSTBENCH_INTERACTIVE'] === '1' && env['KSTBENCH_SAVE_OUTPUTS'] !== 'project' ? join(root, SCRATCH_OUTPUTS) : root;
}

/** In a notebook: from now on, write figures and tables into the project's own folders (or, with false, back to the scratch folder). */
export function saveToProject(on = true): string {
  process.env['KSTBENCH_SAVE_OUTPUTS'] = on ? 'project' : 'scratch';
  return `figures and tables now go to ${outputBase()}`;
}

/**
 * Where a notebook writes a project output that is not a figure or a table (notebook 02's simulated
 * collection, notebook 03's analysis files): `path` itself (relative to the project root) for
 * reproduce and scripts, the same path below the scratch folder in an interactive session, by the rule
 * of `outputBase`. Relative, so what a notebook prints about it is the same on every machine. An
 * absolute path is a place the user chose and is kept as it is.
 *
 * @example
 * outputPath('data/processed/kst', '/p', {}); // => 'data/processed/kst'
 * outputPath('data/processed/kst', '/p', { KSTBENCH_INTERACTIVE: '1' }); // => 'tmp/notebook-outputs/data/processed/kst'
 * outputPath('/elsewhere/kst', '/p', { KSTBENCH_INTERACTIVE: '1' }); // => '/elsewhere/kst'
 */
export function outputPath(path: string, root: string = projectRoot(), env: NodeJS.ProcessEnv = process.env): string {
  if (isAbsolute(path)) return path;
  return relative(root, join(outputBase(root, env), path)).split(sep).join('/');
}
