/**
 * Fits the simulated KST respondent (lib/simulation/kst-respondent/fit.ts) and prints the fit table
 * before and after, confirmed with more replicates than the search used, and the fitted parameters
 * (copied into lib/simulation/kst-respondent/profiles.ts by hand, so the shipped table stays readable).
 *
 *   node --import tsx scripts/fit-kst.ts [--search-replicates 4] [--confirm-replicates 40] [--passes 2] [--no-search]
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { loadDomainDir } from '../lib/kst';
import { projectRoot } from '../lib/notebook/project';
import { DOMAIN_DIFFICULTY, SIMULATED_PROFILES } from '../lib/simulation/kst-respondent/profiles';
import { designCells, fitSearch, KstFit, type FitTarget } from '../lib/simulation/kst-respondent/fit';

const table = (rows: FitTarget[]) =>
  ['| target | published | expected | sd | z |', '|---|---:|---:|---:|---:|', ...rows.map((r) => `| ${r.target} | ${r.published} | ${r.expected.toFixed(1)} | ${r.sd.toFixed(1)} | ${r.z >= 0 ? '+' : ''}${r.z.toFixed(2)} |`)].join('\n');

function main(argv: string[]): void {
  const { values } = parseArgs({ args: argv, options: { 'search-replicates': { type: 'string' }, 'confirm-replicates': { type: 'string' }, passes: { type: 'string' }, 'no-search': { type: 'boolean' } } });
  const cells = designCells(loadDomainDir(join(projectRoot(), 'data/raw/domains')));
  const confirm = Number(values['confirm-replicates'] ?? 40);
  const start = SIMULATED_PROFILES.map((p) => ({ ...p, domainDifficulty: p.domainDifficulty ?? DOMAIN_DIFFICULTY }));
  const before = new KstFit(start, cells, confirm);
  process.stdout.write(`## before (${confirm} replicates): J = ${before.objective().toFixed(1)}\n\n${table(before.table())}\n\n`);
  if (values['no-search']) return;
  const fitted = fitSearch(start, cells, Number(values['search-replicates'] ?? 4), Number(values.passes ?? 2), (s) => process.stderr.write(`${s}\n`));
  const after = new KstFit(fitted, cells, confirm);
  process.stdout.write(`## after (${confirm} replicates): J = ${after.objective().toFixed(1)}\n\n${table(after.table())}\n\n`);
  process.stdout.write(`${JSON.stringify(fitted.map((p) => ({ name: p.name, belief: p.belief, slip: p.slip, consistency: p.consistency })))}\ndomain difficulty: ${JSON.stringify(fitted[0]!.domainDifficulty)}\n`);
}

main(process.argv.slice(2));
