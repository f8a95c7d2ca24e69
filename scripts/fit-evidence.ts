/**
 * `npm run fit-evidence`: computes the objective J of the PSI tutors' fit for the hand-tuned version-2
 * habits and the shipped, fitted version-3 habits on the same 12 fresh seeds and stores both, with
 * every replicate's values and each habit table's fingerprint, in data/replicates/psi-fit.json
 * (schema lib/records/fit-evidence.ts; lib/simulation/psi-tutor/fit-evidence.ts). The test suite reads
 * the file and re-runs one replicate instead of the 24 studies (test/simulation/psi-tutor/
 * fit-evidence.test.ts). Deterministic: a re-run writes the same bytes.
 *
 *   node dist/scripts/fit-evidence.js [--out FILE]
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { expectedFailure } from '../cli/common';
import { writeFileAtomic } from '../lib/io/atomic';
import { projectRoot } from '../lib/notebook/project';
import { loadPsiCourse } from '../lib/psi/schema';
import { fitEvidenceText } from '../lib/records/fit-evidence';
import { loadPublishedPsi } from '../lib/records/published-psi';
import { FIT_EVIDENCE_FILE, psiFitEvidence } from '../lib/simulation/psi-tutor/fit-evidence';
import { TUTOR_PROFILES } from '../lib/simulation/psi-tutor/profiles';
import { TUTOR_PROFILES_V2 } from '../lib/simulation/psi-tutor/profiles-v2';

function main(argv: string[]): number {
  try {
    const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } }, strict: true });
    const root = projectRoot();
    const out = values.out ?? join(root, FIT_EVIDENCE_FILE);
    const evidence = psiFitEvidence(loadPsiCourse(join(root, 'data/raw/psi')), loadPublishedPsi(join(root, 'data/published/psi-2026.json')), {
      baseline: { label: 'version 2 (hand-tuned)', habits: TUTOR_PROFILES_V2 },
      current: { label: 'version 3 (fitted, shipped)', habits: TUTOR_PROFILES },
    });
    writeFileAtomic(out, fitEvidenceText(evidence));
    process.stdout.write(`${out}: J ${evidence.baseline.objective.toFixed(1)} (${evidence.baseline.label}) → ${evidence.current.objective.toFixed(1)} (${evidence.current.label}) on ${evidence.seeds.length} seeds ${evidence.seeds[0]}…${evidence.seeds.at(-1)}\n`);
    return 0;
  } catch (err) {
    const code = expectedFailure('fit-evidence', err, '');
    if (code !== null) return code;
    throw err;
  }
}

if (require.main === module) process.exit(main(process.argv.slice(2)));
