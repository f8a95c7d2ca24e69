import { join } from 'node:path';
import { parseOptions, required, UsageError } from '../common';
import { flag, type FlagValues } from '../flags';
import { formatDryRun } from '../../lib/collect/collect';
import { collectPsi, dryRunPsi, type PsiCollectParams } from '../../lib/collect/psi-study';
import { MODELS_FILE_HELP, modelsFileParam } from './models-option';
import { batchOptions, DISPATCH_FLAGS, rateOptions, reportRun, runShell, shellQuote } from './collect';

const flags = {
  course: flag.path(),
  models: flag.string(),
  out: flag.path(),
  round: flag.int(1, 2, 1),
  round1: flag.path(),
  scenarios: flag.string(),
  threshold: flag.number(0, 1, 0.59),
  seed: flag.seed(),
  ...DISPATCH_FLAGS,
} as const;

/** `kstbench psi collect`: a thin shell over lib/collect/psi-study.ts (its summary is in psi.ts's table). */

export const help = `Usage: kstbench psi collect --models SPEC[,...] --out DIR [options]

Round 1 asks every model every scenario's standard and defective question; round 2 selects the weak
defective cases of round 1 (PSI below --threshold), sends each model its PSI-guided regeneration
prompt and re-scores the answers. Resumable: re-running the same command skips finished cells.

Files in --out DIR:
  round1.jsonl / round2.jsonl   one PSI record per cell (run_id, round, scenario, variant, model,
                                simulated, status valid|invalid|missing, text, scores of a valid
                                answer; invalid: reason; round 2: parent_run_id)
  runs/round<N>/                collector store (responses.jsonl, attempts.jsonl, run.json)

Options:
  --models LIST        comma-separated specs, e.g. simulated:sim-tutor-a,simulated:sim-tutor-b,
                       openai:MODEL, anthropic:MODEL                                    (required)
  --out DIR            output directory                                                 (required)
  --course DIR         scenarios.json + taxonomy.json (default data/raw/psi)
  --round N            1 or 2 (default 1)
  --round1 FILE        round-1 records for round 2 (default DIR/round1.jsonl)
  --scenarios LIST     only these scenario ids (default all)
  --threshold X        round 2: select defective cases with PSI below X (default 0.59)
  --seed N             seed of the simulated tutors and of retry jitter (default 1)
  --concurrency N      parallel requests (default 4)
  --base-url URL       server for openai-compatible models (openai / anthropic too when alone);
                       --models may also say spec@URL
${MODELS_FILE_HELP}
  --max-output-tokens N  output allowance per call (default 4000)
  --timeout S          seconds per attempt (default 300)
  --max-retries N      retries of a transient failure (default 5); then a 'missing' record
  --retry-missing      request cells whose record is 'missing' again (the new record supersedes it)
  --dry-run            print calls, estimated tokens and cost; send and write nothing
  --batch              provider batch APIs (openai: and anthropic: models only), as in
                       'kstbench collect --batch' (resumable; nothing is submitted twice)
  --poll-interval S    seconds between polls of an unfinished batch (default 30)
  --resubmit-cancelled --batch: send the cells of batches cancelled at the provider again
  --tpm N              token budget per model per minute (prompt + whole output allowance)
  --retry-horizon MIN  minutes a cell keeps waiting out rate limits (default 10)
  --no-preflight       skip the one cheap request per model before dispatch
  -h, --help           show this help

Progress is shown on stderr; Ctrl-C (SIGINT) or SIGTERM finishes the calls in flight, records them
and exits 130 (a second signal exits at once); re-run the same command to resume.

Simulated tutors (simulated:sim-tutor-a … sim-tutor-d) are behavioural simulations, not real models;
their records say "simulated": true.

Exit codes: 0 complete, 1 bad input or an OS error (named with its path), 2 usage error (also an
empty design, e.g. round 2 on a round-1 file with no valid defective case of --models), 3 quota stop
(re-run to resume), 4 run failed (circuit breaker, deterministic failures, every call failed,
pre-flight refused; the fix is printed), 5 incomplete (some cells missing after their retries:
re-run with --retry-missing), 130 interrupted (re-run).
`;

/** The --scenarios list: undefined for all; an empty or repeated entry is a usage error. */
function parseScenarios(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const scenarios = value.split(',').map((x) => x.trim()).filter((x) => x !== '');
  if (scenarios.length === 0) throw new UsageError('--scenarios is empty: give at least one scenario id (or leave the option out for all)');
  const dup = scenarios.find((id, i) => scenarios.indexOf(id) !== i);
  if (dup !== undefined) throw new UsageError(`--scenarios lists ${dup} twice`);
  return scenarios;
}

/** The parsed flags as the library's parameters (psi-study.ts), with this command's defaults. */
export function parsePsiCollectArgs(values: FlagValues<typeof flags>): PsiCollectParams {
  const scenarios = parseScenarios(values.scenarios);
  const models = parseModels(required(values, 'models'));
  return {
    courseDir: values.course ?? join('data', 'raw', 'psi'),
    models,
    outDir: required(values, 'out'),
    round: (values.round ?? 1) as 1 | 2,
    round1File: values.round1,
    scenarios,
    threshold: values.threshold,
    seed: values.seed ?? '1',
    concurrency: values.concurrency ?? 4,
    baseUrl: values['base-url'],
    maxOutputTokens: values['max-output-tokens'] ?? 4000,
    timeoutMs: values.timeout ?? 300_000,
    maxRetries: values['max-retries'] ?? 5,
    ...(values['retry-missing'] ? { retryMissing: true } : {}),
    ...(batchOptions(values, models) as Partial<PsiCollectParams>),
    ...rateOptions(values),
    ...modelsFileParam(values),
  };
}

/** The round's summary on stdout: counts, the round-2 selection, the records file. */
function printRoundSummary(round: 1 | 2, result: Awaited<ReturnType<typeof collectPsi>>): void {
  const written = Object.entries(result.written).map(([k, v]) => `${k} ${v}`).join(', ') || 'nothing new';
  const lines = [
    `psi collect round ${round}: ${result.status}; ${result.total} cells (${result.resumed} resumed; written: ${written}); ${result.pending} pending`,
  ];
  if (result.selection) {
    const per = Object.entries(result.selection.perModel).map(([m, n]) => `${m} ${n}`).join(', ');
    lines.push(`selected ${result.total} of ${result.selection.considered} defective round-1 cases: ${per}`);
  }
  lines.push(`records: ${result.outFile}${result.deterministic ? ' (simulated, deterministic)' : ''}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Entry point called by `kstbench psi collect` (cli/commands/psi.ts dispatch). */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseOptions(argv, flags, help);
  if (!parsed) return 0;
  const { values } = parsed;
  const params = parsePsiCollectArgs(values);
  const resumeCommand = `kstbench psi collect ${argv.map(shellQuote).join(' ')}`;
  return runShell('psi collect', resumeCommand, async ({ deps }) => {
    if (values['dry-run']) {
      process.stdout.write(formatDryRun(dryRunPsi(params)));
      return 0;
    }
    const result = await collectPsi({ ...params, interrupt: deps.interrupt, progress: deps.progress, onNote: deps.onNote });
    printRoundSummary(params.round, result);
    const open = 'batch' in result && result.batch ? result.batch.open : [];
    return reportRun('psi collect', result, resumeCommand, open);
  });
}

/** The subcommand object that cli/commands/psi.ts lists as `psi collect`. */
export const subcommand = { help, flags, run };

function parseModels(value: string): string[] {
  const models = value.split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (models.length === 0) throw new UsageError('--models needs at least one model spec');
  const dup = models.find((m, i) => models.indexOf(m) !== i);
  if (dup) throw new UsageError(`--models lists ${dup} twice`);
  return models;
}
