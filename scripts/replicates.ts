/**
 * `npm run replicates`: computes the replicate statistics of the claims ledger once and stores them with
 * their seeds in data/replicates/kst.json and data/replicates/psi.json (schema
 * lib/records/claim-replicates.ts), which every notebook's claims cells read. Deterministic: a re-run
 * writes the same bytes (test/claims/replicates.test.ts).
 *
 *   node dist/scripts/replicates.js [--paper kst|psi|both] [--replicates N] [--psi-replicates N] [--out DIR]
 *
 * Why R = 200 for [KST-2026]: the claims' 95 % interval ends are the 2.5th and 97.5th percentiles, and
 * with 200 replicates five replicates lie beyond each end, so an end moves by about a third of the sd
 * between re-draws of R — small against the gaps that make a claim outside. One replicate (2,400 cells
 * decided, scored, and every claim rebuilt, the contrasts with the paper's 10,000 bootstrap resamples
 * and 100,000 sign flips) takes about 1.5 s on one core, so 200 take 5 minutes. [PSI-2026]: R = 100 (4 s per replicate, because
 * every text of both rounds is scored; 100 take 7 minutes), two or three replicates beyond each end.
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { expectedFailure } from '../cli/common';
import { kstReplicates, psiReplicates } from '../lib/claims/replicates';
import { InputError } from '../lib/errors';
import { writeFileAtomic } from '../lib/io/atomic';
import { loadDomainDir } from '../lib/kst';
import { projectRoot } from '../lib/notebook/project';
import { loadPsiCourse } from '../lib/psi/schema';
import { ClaimReplicatesSchema } from '../lib/records/claim-replicates';
import { loadPublishedKst } from '../lib/records/published-kst';
import { loadPublishedPsi } from '../lib/records/published-psi';

export const KST_REPLICATES = 200;
export const PSI_REPLICATES = 100;

const count = (flag: string, text: string | undefined, fallback: number) => {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 2) throw new InputError(`${flag}: expected a whole number ≥ 2, got ${JSON.stringify(text)}`);
  return n;
};

/** The file text of one paper's statistics (checked against the schema the notebooks read it with). */
export function replicatesText(stats: unknown): string {
  return `${JSON.stringify(ClaimReplicatesSchema.parse(stats), null, 1)}\n`;
}

function main(argv: string[]): number {
  try {
    const { values } = parseArgs({ args: argv, options: { paper: { type: 'string' }, replicates: { type: 'string' }, 'psi-replicates': { type: 'string' }, out: { type: 'string' } }, strict: true });
    const paper = values.paper ?? 'both';
    if (!['kst', 'psi', 'both'].includes(paper)) throw new InputError(`--paper: expected kst, psi or both, got ${JSON.stringify(paper)}`);
    const root = projectRoot();
    const out = values.out ?? join(root, 'data/replicates');
    const progress = (name: string, n: number) => (k: number) => {
      if (k % 20 === 0 || k === n) process.stderr.write(`${name}: ${k}/${n} replicates\n`);
    };
    if (paper !== 'psi') {
      const n = count('--replicates', values.replicates, KST_REPLICATES);
      const stats = kstReplicates({ published: loadPublishedKst(join(root, 'data/published/kst-benchmark-2026.json')), domains: loadDomainDir(join(root, 'data/raw/domains')), replicates: n, onReplicate: progress('kst', n) });
      writeFileAtomic(join(out, 'kst.json'), replicatesText(stats));
    }
    if (paper !== 'kst') {
      const n = count('--psi-replicates', values['psi-replicates'], PSI_REPLICATES);
      const stats = psiReplicates({ published: loadPublishedPsi(join(root, 'data/published/psi-2026.json')), course: loadPsiCourse(join(root, 'data/raw/psi')), replicates: n, onReplicate: progress('psi', n) });
      writeFileAtomic(join(out, 'psi.json'), replicatesText(stats));
    }
    return 0;
  } catch (err) {
    const code = expectedFailure('replicates', err, '');
    if (code !== null) return code;
    throw err;
  }
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
