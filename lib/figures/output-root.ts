/**
 * Where a notebook's figures and tables go. `npm run reproduce` (and any script or test) writes the
 * project's own outputs (`figures/`, `data/processed/tables/`). A notebook a student runs in Jupyter
 * (through the project kernel, which sets KSTBENCH_INTERACTIVE=1) writes them below
 * `tmp/notebook-outputs/` instead (ignored by git), so experimenting never changes a committed file —
 * unless the student asks for the project folders with `saveToProject()` in a cell (or
 * KSTBENCH_SAVE_OUTPUTS=project in the kernel's environment).
 */
import { join } from 'node:path';
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
