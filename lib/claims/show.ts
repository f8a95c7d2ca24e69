/**
 * The one claims cell of the notebooks: shows the claims a section rebuilds — the note (lib/claims/
 * display.ts `claimsNotes`) as Markdown, then the claims table, saved beside the section's other tables
 * (`saveTable`, CSV + HTML + sidecar) and displayed. Outside a notebook kernel nothing is displayed; the
 * files are still written.
 */
import { showMarkdown } from '../figures/display';
import { saveTable } from '../figures/table';
import { claimsNotes, claimsTable } from './display';
import type { ClaimRow } from './ledger';

export interface ShowClaimsOptions {
  /** The table's caption. */
  title: string;
  /** True when any claim is rebuilt from simulated records (marks the caption and the sidecar). */
  simulated: boolean;
  /** Where the table goes; default `data/processed/tables` (saveTable's default). */
  dir?: string;
}

/**
 * Shows `rows` (the claims of one section) and saves their table as `<name>.csv`/`.html`. Returns
 * nothing, so a cell ending with the call shows no value after the table.
 */
export function showClaims(rows: readonly ClaimRow[], name: string, options: ShowClaimsOptions): void {
  showMarkdown(claimsNotes(rows));
  saveTable(name, claimsTable(rows), { title: options.title, simulated: options.simulated, ...(options.dir === undefined ? {} : { dir: options.dir }) }).show();
}
