import { relative } from 'node:path';
import { outputBase } from '../figures/output-root';
import { showHtml } from '../figures/display';
import { toHtmlTable, toTable } from '../figures/table';
import { enterProjectRoot } from '../notebook/project';

/**
 * The one header every notebook's first cell uses:
 *
 *   import { notebookHeader } from "../dist/lib/report/notebook-header";
 *   const { root, showRows } = notebookHeader();
 *
 * It makes the project root the working directory (so `data/raw/...` means the same in Jupyter,
 * VS Code, nbconvert and `npm run reproduce`, wherever the notebook file is) and returns the helpers
 * the notebooks share, instead of a copy of each in every notebook. The published numbers are read
 * through their one validated reader each, `loadPublishedKst` / `loadPublishedPsi` (lib/records).
 */
export interface NotebookHeader {
  /** The project root (now also the working directory). */
  root: string;
  /**
   * The folder Jupyter opened the notebook in, when the project's kernel runs it (it records it before
   * moving to the project), else the project's notebooks/. For files of your own next to a copied
   * notebook: `${notebookDir}/my-domain.json`.
   */
  notebookDir: string;
  /** Shows rows (objects) as an HTML table in the cell: `showRows(rows, "Caption", 3)`. */
  showRows(rows: readonly object[], caption: string, digits?: number): void;
}

export function notebookHeader(): NotebookHeader {
  const root = enterProjectRoot();
  const base = outputBase(root);
  if (base !== root) {
    console.log(`Interactive session: this notebook's figures and tables go to ${relative(root, base)}/ (not the project's figures/ and data/processed/); run saveToProject() to write the project's own.`);
  }
  return {
    root,
    notebookDir: process.env['KSTBENCH_NOTEBOOK_DIR'] ?? `${root}/notebooks`,
    showRows(rows, caption, digits) {
      const options: { caption: string; digits?: number } = { caption };
      if (digits !== undefined) options.digits = digits;
      showHtml(toHtmlTable(toTable(rows as ReadonlyArray<Record<string, unknown>>), options));
    },
  };
}
