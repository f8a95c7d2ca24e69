/**
 * Every table and figure of the two papers, and the notebook page that rebuilds (or explains) it —
 * the index of the report lists them, as a supplement's table of contents would. The inventory is
 * the papers' own: [KST-2026] has Tables 1–4 and Figures 1–3, [PSI-2026] Tables I–VI and Fig. 1.
 */
export interface PaperItem {
  paper: 'KST-2026' | 'PSI-2026';
  /** As the paper numbers it: "Table 3", "Figure 1", "Table IV", "Fig. 1". */
  item: string;
  /** What it shows, in this project's words. */
  shows: string;
  /** The notebook (file stem) whose page has it. */
  notebook: string;
  /** When the page shows it only in part, or explains why it cannot be rebuilt. */
  note?: string;
}

export const PAPER_ITEMS: readonly PaperItem[] = [
  { paper: 'KST-2026', item: 'Table 1', shows: 'the four study domains: components, states, coverage', notebook: '01-kst-foundations' },
  { paper: 'KST-2026', item: 'Table 2', shows: 'the four structural-information conditions P0–P3', notebook: '02-collect', note: 'the prompts of each condition' },
  { paper: 'KST-2026', item: 'Table 3', shows: 'recommendation performance by condition', notebook: '04-table3-figure1' },
  { paper: 'KST-2026', item: 'Figure 1', shows: 'exact-set accuracy and macro F1 by condition', notebook: '04-table3-figure1' },
  { paper: 'KST-2026', item: 'Figure 2', shows: 'exact-set accuracy by domain and condition', notebook: '05-table4-figures2-3' },
  { paper: 'KST-2026', item: 'Table 4', shows: 'exact-set accuracy by model and condition, with ranks', notebook: '05-table4-figures2-3' },
  { paper: 'KST-2026', item: 'Figure 3', shows: 'model comparison for one domain and condition', notebook: '05-table4-figures2-3' },
  { paper: 'PSI-2026', item: 'Table I', shows: 'mean PSI sub-scores under standard prompts', notebook: '11-psi-round1' },
  { paper: 'PSI-2026', item: 'Table II', shows: 'PSI under standard and defective prompts', notebook: '11-psi-round1' },
  { paper: 'PSI-2026', item: 'Table III', shows: 'sub-score impact of defective prompts', notebook: '11-psi-round1' },
  { paper: 'PSI-2026', item: 'Fig. 1', shows: 'mean PSI by target Bloom level', notebook: '11-psi-round1' },
  { paper: 'PSI-2026', item: 'Table IV', shows: 'round-2 regeneration results', notebook: '12-psi-regeneration' },
  { paper: 'PSI-2026', item: 'Table V', shows: 'sub-score changes under regeneration', notebook: '12-psi-regeneration' },
  { paper: 'PSI-2026', item: 'Table VI', shows: 'an instructor’s evaluation of the weak cases', notebook: '00-paper-audit', note: 'in the claims ledger: needs the instructor’s judgments, not rebuilt' },
];
