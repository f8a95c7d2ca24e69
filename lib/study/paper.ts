import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ResponseRecord } from '../analysis';
import { kstClaimRows } from '../claims/kst';
import type { ClaimRow } from '../claims/ledger';
import { psiRatingsClaimRows } from '../claims/psi';
import { readJsonl } from '../io/jsonl';
import type { Domain } from '../kst';
import { projectRoot } from '../notebook/project';
import { loadRatings, ratingRates } from '../psi/ratings';
import { loadPublishedKst } from '../records/published-kst';
import { loadPublishedPsi } from '../records/published-psi';
import { replicatesPaper, type Study } from './manifest';
import { PUBLISHED_FILES } from './notebook-defaults';
import type { StudyResults } from './results';

/**
 * What a study's analysis adds about the papers and the human ratings:
 * - `ratings`: with `psi.ratings` in the manifest, the Table VI-style rates of that file (any study);
 * - `paper_claims`: only when the manifest declares that it replicates a paper, that paper's claims
 *   ledger evaluated on the study's own data by the one rule (lib/claims): [KST-2026] on the pooled
 *   responses, [PSI-2026]'s Table VI claims from the ratings file (the PSI rounds are the notebooks'
 *   job: notebooks 10–13). A study that replicates no paper gets no paper number at all.
 */

type PaperParts = Pick<StudyResults, 'ratings' | 'paper_claims'>;

const claimRow = (r: ClaimRow) => ({ id: r.id, where: r.where, claim: r.claim, paper: r.printed, computed: r.computed, simulation: r.simulation, basis: r.basis, status: r.status, note: r.note });

/** The collector's final records of every repeat (responses.jsonl), for the KST collection claims; none for an import. */
function finalRecords(dirs: readonly string[]): Array<{ status: string; reason?: string | null }> {
  return dirs.flatMap((dir) => {
    const file = join(dir, 'responses.jsonl');
    return existsSync(file) ? readJsonl(file).lines.map((l) => l.value as { status: string; reason?: string | null }) : [];
  });
}

/** The ratings and paper-claims parts of the study's results (see the module comment); `{}` when neither applies. */
export function paperParts(study: Study, records: readonly ResponseRecord[], sources: ReadonlyArray<{ dir: string }>, domains: readonly Domain[]): PaperParts {
  const out: PaperParts = {};
  const ratingsPath = study.manifest.psi?.ratings;
  const given = ratingsPath === undefined ? null : { file: study.resolve(ratingsPath), ratings: loadRatings(study.resolve(ratingsPath)) };
  if (given) {
    const r = ratingRates(given.ratings);
    const finite = (x: number) => (Number.isFinite(x) ? x : null);
    out.ratings = { file: given.file, simulated: given.ratings.simulated, ratings: r.ratings, cases: r.cases, raters: r.raters, meaningful_improvement: finite(r.rates.meaningful_improvement), weaknesses_resolved: finite(r.rates.weaknesses_resolved) };
  }
  const papers: NonNullable<PaperParts['paper_claims']> = [];
  const root = projectRoot();
  if (replicatesPaper(study, 'KST-2026')) {
    const published = loadPublishedKst(join(root, PUBLISHED_FILES['KST-2026']));
    const rows = kstClaimRows({ published, records, finalRecords: finalRecords(sources.map((s) => s.dir)), domains, inference: study.manifest.analysis });
    papers.push({ paper: 'KST-2026', rows: rows.map(claimRow), note: null });
  }
  if (replicatesPaper(study, 'PSI-2026')) {
    const published = loadPublishedPsi(join(root, PUBLISHED_FILES['PSI-2026']));
    const scope = 'Only the Table VI claims are evaluated here; the other PSI claims need the PSI rounds, which notebooks 10–13 analyse.';
    if (!given) papers.push({ paper: 'PSI-2026', rows: [], note: `${scope} No ratings file is named (psi.ratings), so they are not rebuildable.` });
    else if (given.ratings.simulated) papers.push({ paper: 'PSI-2026', rows: [], note: `${scope} The ratings file says simulated: true, and simulated ratings have no replicate spread to judge them by.` });
    else papers.push({ paper: 'PSI-2026', rows: psiRatingsClaimRows(published, given).map(claimRow), note: scope });
  }
  if (papers.length > 0) out.paper_claims = papers;
  return out;
}
