import { analysisFiles, analysisProvenance, analyze, DEFAULT_INFERENCE, loadResponses } from '../../lib/analysis';
import { MAX_FLIPS, MAX_RESAMPLES } from '../../lib/analysis/caps';
import { writeFilesAtomic } from '../../lib/io';
import { DEFAULT_WORK_BUDGET, loadDomainDir, workBudget } from '../../lib/kst';
import { flagCommand, required } from '../common';
import { flag } from '../flags';


const flags = {
  domains: flag.path(),
  responses: flag.path(),
  out: flag.path(),
  seed: flag.seed(),
  boot: flag.int(1, MAX_RESAMPLES, 2000),
  perm: flag.int(1, MAX_FLIPS, 10000),
  'max-states': flag.int(0, Number.MAX_SAFE_INTEGER, DEFAULT_WORK_BUDGET),
} as const;

const help = `Usage: kstbench analyze --domains DIR --responses FILE --out DIR [--seed N] [--boot N] [--perm N]

Scores every response against the outer fringe of its knowledge state and writes the paper's tables:
  table1.csv            domain,components,states,terminal_states
  table3.csv            condition,n,exact,precision,recall,f1,jaccard   (macro averages)
  table4.csv            model,condition,n,exact,rank                    (competition ranks)
  domain_condition.csv  domain,condition,n,exact
  contrasts.csv         contrast,metric,states,estimate,ci_low,ci_high,p,p_holm
  order_agreement.csv   pairs,exact_agreement,mean_jaccard
  analysis.json         counts (valid, invalid, missing), seeds, SHA-256 of the inputs
  <name>.csv.meta.json  beside each CSV: whether it is made from simulated responses (simulated: true|false)
Proportions are in [0,1] at full precision. Nothing is written unless every input line is valid.

Options:
  --domains DIR     directory of domain files (*.json)
  --responses FILE  JSON Lines, one response per line:
                    {"run_id","model","domain","condition":"P0".."P3","order":1,
                     "state":[IDs],"recommended":[IDs],"status":"valid"|"invalid"|"missing"}
  --out DIR         output directory (created if needed)
  --seed N          seed for the bootstrap and sign-flip draws: an integer up to 2^53-1, or a text
                    hashed to one (default ${DEFAULT_INFERENCE.seed})
  --boot N          bootstrap resamples over states, 1..${MAX_RESAMPLES} (default ${DEFAULT_INFERENCE.resamples})
  --perm N          sign flips for the randomization test, 1..${MAX_FLIPS} (default ${DEFAULT_INFERENCE.flips})
  --max-states N    work budget for Table 1: steps counting a space, states walked for its terminal
                    states (default ${DEFAULT_WORK_BUDGET}; 0 = no limit)
  -h, --help        show this help
`;


export const command = flagCommand(help, flags, async (parsed) => {
  const v = parsed.values;
  const domainsDir = required(v, 'domains');
  const responsesFile = required(v, 'responses');
  const outDir = required(v, 'out');
  const inference = {
    seed: v.seed ?? String(DEFAULT_INFERENCE.seed),
    resamples: v.boot ?? DEFAULT_INFERENCE.resamples,
    flips: v.perm ?? DEFAULT_INFERENCE.flips,
  };
  const domains = loadDomainDir(domainsDir);
  const records = loadResponses(responsesFile, domains);
  const result = analyze(domains, records, inference, workBudget(v['max-states'] ?? DEFAULT_WORK_BUDGET));
  const provenance = analysisProvenance(responsesFile, domains);
  writeFilesAtomic(analysisFiles(result, outDir, provenance));
  const c = result.counts;
  process.stderr.write(
    `kstbench analyze: ${c.responses} responses (${c.valid} valid, ${c.invalid} invalid, ${c.missing} missing)` +
      `${c.simulated ? `, ${c.simulated} SIMULATED` : ''} -> ${outDir}\n`,
  );
  return 0;
});
