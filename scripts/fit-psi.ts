/**
 * Fits the simulated PSI tutors (lib/simulation/psi-tutor/fit.ts) and prints the fit table before and
 * after, confirmed on fresh seeds (`--confirm-prefix`, default `fresh`: never used by the search, which
 * chooses on `fit1` … and checks every step on the held-out `hold1` …), and
 * the fitted habits as JSON (copied into lib/simulation/psi-tutor/profiles.ts by hand, so the shipped
 * profiles stay readable).
 *
 *   node --import tsx scripts/fit-psi.ts [--search-replicates 10] [--holdout-replicates 8] [--passes 1]
 *     [--confirm-replicates 12] [--confirm-prefix fresh] [--steps 0.8,1.25] [--min-gain 1] [--no-search]
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { projectRoot } from '../lib/notebook/project';
import { loadPsiCourse } from '../lib/psi/schema';
import { loadPublishedPsi } from '../lib/records/published-psi';
import { TUTOR_PROFILES, TUTOR_PROFILE_IDS } from '../lib/simulation/psi-tutor/profiles';
import { psiFitSearch, psiFitTable, psiObjective, type PsiFitPublished, type PsiFitRow } from '../lib/simulation/psi-tutor/fit';

const fmt = (x: number, d: number) => x.toFixed(d);
const table = (rows: PsiFitRow[]) =>
  ['| target | published | expected | sd | z |', '|---|---:|---:|---:|---:|', ...rows.map((r) => `| ${r.target} | ${fmt(r.published, r.decimals)} | ${fmt(r.expected, r.decimals + 1)} | ${fmt(r.sd, r.decimals + 1)} | ${r.z >= 0 ? '+' : ''}${r.z.toFixed(2)} |`)].join('\n');

function main(argv: string[]): void {
  const { values } = parseArgs({ args: argv, options: { 'search-replicates': { type: 'string' }, 'confirm-replicates': { type: 'string' }, steps: { type: 'string' }, 'min-gain': { type: 'string' }, 'no-search': { type: 'boolean' }, 'holdout-replicates': { type: 'string' }, passes: { type: 'string' }, 'confirm-prefix': { type: 'string' } } });
  const root = projectRoot();
  const course = loadPsiCourse(join(root, 'data/raw/psi'));
  // The published file's own schema reads it; the fit needs only the numbers PsiFitPublished names.
  const published: PsiFitPublished = loadPublishedPsi(join(root, 'data/published/psi-2026.json'));
  const confirm = Number(values['confirm-replicates'] ?? 12);
  const confirmPrefix = values['confirm-prefix'] ?? 'fresh';
  const start = { ...TUTOR_PROFILES };
  const before = psiFitTable(course, published, start, confirm, confirmPrefix);
  process.stdout.write(`## before (${confirm} fresh replicates, ${confirmPrefix}1…): J = ${psiObjective(before).toFixed(1)}\n\n${table(before)}\n\n`);
  if (values['no-search']) return;
  const steps = (values.steps ?? '0.8,1.25').split(',').map(Number);
  const replicates = Number(values['search-replicates'] ?? 10);
  const fitted = psiFitSearch(course, published, start, {
    replicates,
    scaleReplicates: replicates,
    minGain: Number(values['min-gain'] ?? 1),
    steps,
    holdout: { replicates: Number(values['holdout-replicates'] ?? 8), prefix: 'hold' },
    passes: Number(values.passes ?? 1),
    log: (s) => process.stderr.write(`${s}\n`),
  });
  const after = psiFitTable(course, published, fitted, confirm, confirmPrefix);
  process.stdout.write(`## after (${confirm} fresh replicates, ${confirmPrefix}1…): J = ${psiObjective(after).toFixed(1)}\n\n${table(after)}\n\n`);
  for (const id of TUTOR_PROFILE_IDS) process.stdout.write(`${id}: ${JSON.stringify({ habits: fitted[id].habits, defective: fitted[id].defective, regeneration: fitted[id].regeneration })}\n`);
}

main(process.argv.slice(2));
