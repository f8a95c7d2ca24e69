/**
 * Which JSON Lines record files a committed notebook reads: the `.jsonl` files and folders its
 * parameters cell names, and, for a `study` parameter naming a manifest, the study's collection folder
 * (when the notebook reads studyInputs.responsesFile, .rawResponsesFile or .collectionDir) and its PSI
 * round files (when it reads psiPart.round1File or .round2File). Shared by the tests that check that
 * outputs made from simulated records say so.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cellSource, parseNotebook } from '../../lib/notebook/ipynb';
import { notebookStudy } from '../../lib/study/notebook-defaults';

export interface NotebookRecords {
  /** The string literals of the parameters cell. */
  parameters: string[];
  /** Every code cell's source, joined. */
  source: string;
  /** Record files (relative to the project root) under data/raw/ that the notebook reads. */
  recordFiles: string[];
}

export function notebookRecords(root: string, notebookFile: string): NotebookRecords {
  const nb = parseNotebook(readFileSync(join(root, 'notebooks', notebookFile), 'utf8'), notebookFile);
  const code = nb.cells.filter((c) => c.cell_type === 'code');
  const params = code.find((c) => c.id === 'parameters');
  const parameters = params ? [...cellSource(params).matchAll(/=\s*"([^"]*)"/g)].map((m) => m[1]!) : [];
  const source = code.map(cellSource).join('\n');
  const readsRecords = /studyInputs\.(responsesFile|rawResponsesFile|collectionDir)/.test(source);
  const readsPsiRounds = /psiPart!?\.(round1File|round2File)/.test(source);
  const fromStudy = (manifest: string): string[] => {
    const study = notebookStudy(manifest);
    return [...(readsRecords ? [study.collectionDir] : []), ...(readsPsiRounds && study.psi !== null ? [study.psi.round1File, study.psi.round2File] : [])];
  };
  const at = (p: string) => join(root, p);
  const inputs = parameters.flatMap((p) => (p.endsWith('study.json') && existsSync(at(p)) ? fromStudy(at(p)) : [p]));
  const recordFiles = inputs
    .map((p) => (p.startsWith(root) ? p.slice(root.length + 1) : p))
    .filter((p) => p.startsWith('data/raw/') && existsSync(at(p)))
    .flatMap((p) => (statSync(at(p)).isDirectory() ? readdirSync(at(p)).filter((n) => n.endsWith('.jsonl')).map((n) => join(p, n)) : p.endsWith('.jsonl') ? [p] : []));
  return { parameters, source, recordFiles: [...new Set(recordFiles)] };
}
