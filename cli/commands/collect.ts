import { InputError } from '../../lib/errors';
import { CONDITIONS } from '../../lib/conditions';
import { collectKst, DEFAULT_POLL_INTERVAL_MS, dryRunKst, formatDryRun, type CollectParams } from '../../lib/collect/collect';
import { createProgress } from '../../lib/collect/progress';
import { intOption, parseOptions, required, UsageError, type Command } from '../common';

/** Default shuffle/jitter seed (recorded in run.json). */
export const DEFAULT_SEED = '20260908';
/** Exit code of a quota stop: the run paused cleanly and is resumed by re-running the same command. */
export const EXIT_QUOTA_STOPPED = 3;
/** Exit code after SIGINT/SIGTERM: in-flight calls were finished and recorded. */
export const EXIT_INTERRUPTED = 130;

const help = `Usage: kstbench collect --domains DIR --models PROVIDER:MODEL[,...] --out DIR [options]

Collects one model response per cell of the design: every knowledge state × condition × model ×
presentation order (paper 000 §4.3), shuffled within each model. Resumable: re-running the same
command skips every cell that already has a final record in DIR/responses.jsonl.

Files in --out DIR:
  attempts.jsonl   every API attempt and transport event (audit log, append-only)
  responses.jsonl  one final record per cell: prompt, raw text, parsed answer, status
                   valid|invalid|missing, canonical recommendations, usage, cost, attempts
  extracted.jsonl  the cells in 'kstbench analyze --responses' form (+ "simulated")
  run.json         parameters, seed, design size, status complete|quota_stopped|interrupted|failed
  batches.jsonl    --batch only: submitted batches, run ID ↔ custom_id maps, collections
  torn.jsonl       only if a killed writer left a torn last line (moved here on the next start)

Options:
  --domains DIR            directory of domain files (*.json)
  --models LIST            comma-separated specs: openai:MODEL, anthropic:MODEL,
                           openai-compatible:MODEL (needs --base-url), simulated:sim-...
  --out DIR                output directory (created; resumed if it exists)
  --conditions LIST        subset of P0,P1,P2,P3 (default all four)
  --orders N               presentation orders per domain (default 2)
  --concurrency N          parallel requests (default 4)
  --base-url URL           server for openai / openai-compatible / anthropic models
  --max-output-tokens N    output allowance per call (default 16000)
  --timeout S              seconds per attempt (default 600)
  --max-retries N          retries of a transient failure (default 5); then a 'missing' record
  --seed N                 seed of the design shuffle and retry jitter (default ${DEFAULT_SEED})
  --states FILE            collect only these states: a state sample written by sampleStates
                           ({scheme, domain, seed, states, weights}), an array of samples, or a
                           map {"<domain>": [[ids...], ...]}; other domains use all their states
  --retry-missing          request cells whose final record is 'missing' again; the new record
                           supersedes the old one (the last record of a run ID wins)
  --dry-run                print calls, estimated tokens and cost (config/prices.json); write nothing
  --batch                  use the providers' batch APIs (openai: and anthropic: models only) at
                           the batch discount: submit, poll, collect. Ctrl-C or a crash after
                           submission loses nothing: re-running the same command polls the stored
                           batch ids (batches.jsonl) and never submits a cell twice. Failed or
                           expired items go into a follow-up batch (up to --max-retries), then
                           get a 'missing' record. Simulated models are refused (run them live).
  --poll-interval S        seconds between polls of an unfinished batch (default 30; decimals ok)
  -h, --help               show this help

API keys are read only from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY,
OPENAI_COMPATIBLE_API_KEY) and never written to any file.

Exit codes: 0 complete, 1 bad input / authentication failure, 2 usage error,
3 quota stop (re-run the same command after the quota resets), 130 interrupted (re-run to resume).
`;

function list(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
}

/** Quotes an argument for a shell command line shown to the user. */
function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_\-.,:/=@+%]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function parseCollectArgs(values: Record<string, unknown>): CollectParams {
  const models = list(values.models);
  if (models.length === 0) throw new UsageError('missing required option --models');
  if (new Set(models).size !== models.length) throw new UsageError('--models lists a model twice');
  const conditions = values.conditions === undefined ? [...CONDITIONS] : list(values.conditions);
  for (const c of conditions) {
    if (!(CONDITIONS as readonly string[]).includes(c)) {
      throw new UsageError(`--conditions: unknown condition ${JSON.stringify(c)} (expected P0, P1, P2, P3)`);
    }
  }
  if (new Set(conditions).size !== conditions.length) throw new UsageError('--conditions lists a condition twice');
  const seed = values.seed === undefined ? DEFAULT_SEED : String(intOption(values, 'seed', 0));
  return {
    domainsDir: required(values, 'domains'),
    models,
    outDir: required(values, 'out'),
    conditions,
    orders: intOption(values, 'orders', 2, 1),
    concurrency: intOption(values, 'concurrency', 4, 1),
    baseUrl: typeof values['base-url'] === 'string' ? (values['base-url'] as string) : undefined,
    maxOutputTokens: intOption(values, 'max-output-tokens', 16000, 1),
    timeoutMs: intOption(values, 'timeout', 600, 1) * 1000,
    maxRetries: intOption(values, 'max-retries', 5, 0),
    seed,
    ...(typeof values.states === 'string' ? { statesFile: values.states } : {}),
    ...(values['retry-missing'] ? { retryMissing: true } : {}),
    ...batchOptions(values, models),
  };
}

/** --batch and --poll-interval: batch mode needs openai:/anthropic: models; the interval is positive seconds. */
function batchOptions(values: Record<string, unknown>, models: readonly string[]): Partial<CollectParams> {
  const interval = values['poll-interval'];
  if (!values.batch) {
    if (interval !== undefined) throw new UsageError('--poll-interval only applies with --batch');
    return {};
  }
  for (const spec of models) {
    const provider = spec.slice(0, Math.max(0, spec.indexOf(':')));
    if (provider !== 'openai' && provider !== 'anthropic') {
      throw new UsageError(
        `--batch works with openai: and anthropic: models only (provider batch APIs), not ${spec}; run ${provider || 'that'} models without --batch`,
      );
    }
  }
  let pollIntervalMs = DEFAULT_POLL_INTERVAL_MS;
  if (interval !== undefined) {
    const seconds = typeof interval === 'string' && /^\d+(\.\d+)?$/.test(interval) ? Number(interval) : Number.NaN;
    if (!(seconds > 0)) throw new UsageError(`--poll-interval must be a positive number of seconds, got ${JSON.stringify(interval)}`);
    pollIntervalMs = Math.max(1, Math.round(seconds * 1000));
  }
  return { batch: true, pollIntervalMs };
}

export const command: Command = {
  summary: 'collect model responses for every state × condition × model × order (resumable, audited)',
  help,
  async run(argv) {
    const parsed = parseOptions(
      argv,
      {
        domains: { type: 'string' },
        models: { type: 'string' },
        out: { type: 'string' },
        conditions: { type: 'string' },
        orders: { type: 'string' },
        concurrency: { type: 'string' },
        'base-url': { type: 'string' },
        'max-output-tokens': { type: 'string' },
        timeout: { type: 'string' },
        'max-retries': { type: 'string' },
        seed: { type: 'string' },
        'dry-run': { type: 'boolean' },
        batch: { type: 'boolean' },
        'poll-interval': { type: 'string' },
        states: { type: 'string' },
        'retry-missing': { type: 'boolean' },
      },
      help,
    );
    if (!parsed) return 0;
    const v = parsed.values;
    const params = parseCollectArgs(v);
    if (v['dry-run']) {
      process.stdout.write(formatDryRun(dryRunKst(params)));
      return 0;
    }

    const resumeCommand = `kstbench collect ${argv.map(shellQuote).join(' ')}`;
    const interrupt = new AbortController();
    let signals = 0;
    const onSignal = (name: string) => {
      signals += 1;
      if (signals > 1) {
        process.stderr.write(`\nkstbench collect: second ${name}, exiting now (resume with: ${resumeCommand})\n`);
        process.exit(EXIT_INTERRUPTED);
      }
      process.stderr.write(`\nkstbench collect: ${name} received, finishing in-flight calls (press again to exit at once)\n`);
      interrupt.abort();
    };
    const sigint = () => onSignal('SIGINT');
    const sigterm = () => onSignal('SIGTERM');
    process.on('SIGINT', sigint);
    process.on('SIGTERM', sigterm);
    try {
      const result = await collectKst(params, {
        interrupt: interrupt.signal,
        progress: (total, initialDone) => createProgress({ total, initialDone, stream: process.stderr }),
      });
      const counts = Object.entries(result.written)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ');
      const cost = result.costUsd === null ? 'unknown (some model has no price)' : `$${result.costUsd.toFixed(4)}`;
      if (result.batch) {
        process.stderr.write(`kstbench collect: batch mode: ${result.batch.submitted.length} batch(es) submitted by this run; ${result.batch.open.length} still open\n`);
      }
      process.stderr.write(
        `kstbench collect: ${result.status}: ${result.total} cells, ${result.resumed} already complete, this run wrote ${counts || 'nothing'}; ${result.pending} pending; ${result.attempts} API attempts; estimated cost of this run ${cost}\n`,
      );
      switch (result.status) {
        case 'complete':
          return 0;
        case 'quota_stopped':
          process.stderr.write(
            `kstbench collect: QUOTA STOP (${result.reason}). ${result.pending} cells have no final record yet; nothing was lost.\n` +
              `Resume after the quota resets by re-running the same command:\n  ${resumeCommand}\n`,
          );
          return EXIT_QUOTA_STOPPED;
        case 'interrupted':
          if (result.batch && result.batch.open.length > 0) {
            process.stderr.write(
              `kstbench collect: stopped while batches are running at the provider (${result.batch.open.join(', ')}); nothing is lost.\n` +
                `Collect them later by re-running the same command (it polls these batches and submits nothing twice):\n  ${resumeCommand}\n`,
            );
          } else process.stderr.write(`kstbench collect: interrupted; resume with:\n  ${resumeCommand}\n`);
          return EXIT_INTERRUPTED;
        case 'failed':
          throw new InputError(`${result.reason ?? 'run failed'}; fix it and resume with: ${resumeCommand}`);
      }
    } finally {
      process.off('SIGINT', sigint);
      process.off('SIGTERM', sigterm);
    }
  },
};
