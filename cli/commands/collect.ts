import { CONDITIONS } from '../../lib/conditions';
import { collectKst, DEFAULT_POLL_INTERVAL_MS, dryRunKst, formatDryRun, type CollectParams } from '../../lib/collect/collect';
import type { EngineResult } from '../../lib/collect/lifecycle';
import type { NoteKind, NoteSink } from '../../lib/collect/collect';
import { EmptyDesignError } from '../../lib/collect/lifecycle';
import { attemptsWording, resumedWording } from '../../lib/collect/summary';
import { isOsError, osErrorMessage } from '../../lib/io/os-error';
import { createProgress } from '../../lib/collect/progress';
import { batchModelRefusal } from '../../lib/collect/providers/batch';
import { flagCommand, required, UsageError } from '../common';
import { onInterruptSignals, stderrIsTTY } from '../thread';
import { flag, type FlagValues } from '../flags';
import { MODELS_FILE_HELP, MODELS_FILE_OPTION, modelsFileParam } from './models-option';

/** Default shuffle/jitter seed (recorded in run.json). */
export const DEFAULT_SEED = '20260908';
/** Exit code of a quota stop: the run paused cleanly and is resumed by re-running the same command. */
export const EXIT_QUOTA_STOPPED = 3;
/**
 * Exit code of a run that did not do its job: a model's circuit breaker opened (every further request
 * would fail the same way), cells failed deterministically, every call failed, a pre-flight check
 * refused a model, or the files could not be written. The error and its fix are printed; fixing the
 * cause and re-running the same command resumes (failed cells have no record and are requested again).
 */
export const EXIT_RUN_FAILED = 4;
/** Exit code of a run that ended with every cell recorded but some `missing` (status `incomplete`): re-run with --retry-missing. */
export const EXIT_INCOMPLETE = 5;
/** Exit code after SIGINT/SIGTERM: in-flight calls were finished and recorded. */
export const EXIT_INTERRUPTED = 130;

const help = `Usage: kstbench collect --domains DIR --models PROVIDER:MODEL[,...] --out DIR [options]

Collects one model response per cell of the design: every knowledge state × condition × model ×
presentation order ([KST-2026] §4.3), shuffled within each model. Resumable: re-running the same
command skips every cell that already has a final record in DIR/responses.jsonl.

Files in --out DIR:
  attempts.jsonl   every API attempt and transport event (audit log, append-only)
  responses.jsonl  one final record per cell: prompt, raw text, parsed answer, status
                   valid|invalid|missing, canonical recommendations, usage, cost, attempts
  extracted.jsonl  the cells in 'kstbench analyze --responses' form (+ "simulated")
  run.json         parameters, seed, design size, status
                   complete|incomplete|quota_stopped|interrupted|failed
  batches.jsonl    --batch only: submitted batches, run ID ↔ custom_id maps, collections
  torn.jsonl       only if a killed writer left a torn last line (moved here on the next start)

Options:
  --domains DIR            directory of domain files (*.json)
  --models LIST            comma-separated specs: openai:MODEL, anthropic:MODEL,
                           openai-compatible:MODEL (needs --base-url), simulated:sim-...
  --out DIR                output directory (created; resumed if it exists)
  --conditions LIST        subset of P0,P1,P2,P3 (default all four)
  --orders N               presentation orders per domain, 1..1000 (default 2)
  --concurrency N          parallel requests, 1..1024 (default 4)
  --base-url URL           server for openai-compatible models (and for openai / anthropic when
                           they are the only provider); --models may also say spec@URL
${MODELS_FILE_HELP}
  --max-output-tokens N    output allowance per call (default 16000)
  --timeout S              seconds per attempt, 1..2147483 (default 600)
  --max-retries N          retries of a transient failure, 0..100 (default 5); then a 'missing' record
  --seed N                 seed of the design shuffle and retry jitter: an integer up to 2^53-1, or a
                           text hashed to one (default ${DEFAULT_SEED})
  --states FILE            collect only these states: a state sample written by sampleStates
                           ({scheme, domain, seed, states, weights}), an array of samples, or a
                           map {"<domain>": [[ids...], ...]}; other domains use all their states
  --retry-missing          request cells whose final record is 'missing' again; the new record
                           supersedes the old one (the last record of a run ID wins)
  --dry-run                print calls, estimated tokens and cost (prices from config/models.json); write nothing
  --batch                  use the providers' batch APIs (openai: and anthropic: models only) at
                           the batch discount: submit, poll, collect. Ctrl-C or a crash after
                           submission loses nothing: re-running the same command polls the stored
                           batch ids (batches.jsonl) and never submits a cell twice. Failed or
                           expired items go into a follow-up batch (up to --max-retries), then
                           get a 'missing' record. Simulated models are refused (run them live).
  --poll-interval S        seconds between polls of an unfinished batch (default 30; decimals ok;
                           at most 2147483, Node's timer limit)
  --resubmit-cancelled     --batch: send the cells of batches you cancelled at the provider again
                           (otherwise they stay held and the run ends interrupted)
  --tpm N                  token budget per model per minute: each call reserves its prompt
                           estimate + the whole --max-output-tokens (OpenAI counts max_tokens)
  --retry-horizon MIN      minutes a cell keeps waiting out rate limits and transient errors
                           (default 10); a rate limit lasting longer is a quota stop (exit 3)
  --no-preflight           do not send each real model's first cell alone before the others
                           (the pre-flight: recorded and billed like any cell; a refusal, a
                           cut-off answer or no connection stops the run there)
  -h, --help               show this help

API keys are read only from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY,
OPENAI_COMPATIBLE_API_KEY, or the variable a spec@URL=VAR entry or --models-file names for its
host) and never written to any file.

Before dispatch each model gets one pre-flight request (model exists, schema, output cap and
parameters accepted), when its provider supports it; a refusal stops the run before anything is
written. Adaptive concurrency: a 429 halves a model's in-flight calls, a calm 30 s adds one back.
A model whose requests fail deterministically (3 identical 4xx, a rejected key, or no connection at
all) is stopped (circuit breaker); its cells keep no record and are requested again next run.

Exit codes: 0 complete, 1 bad input or an OS error (named with its path), 2 usage error (also an
empty design), 3 quota stop (re-run the same command after the quota resets), 4 run failed (circuit
breaker, deterministic failures, every call failed, pre-flight refused: the error and its fix are
printed; fix and re-run to resume), 5 incomplete (some cells missing: re-run with --retry-missing),
130 interrupted (re-run to resume).
`;

function list(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
}

/** Quotes an argument for a shell command line shown to the user. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_\-.,:/=@+%]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

// Caps of the counts that size the design and the dispatcher: one home, shared with study.json.
import { MAX_CONCURRENCY, MAX_ORDERS, MAX_OUTPUT_TOKENS, MAX_RETRIES, MAX_TPM } from '../../lib/collect/caps';
export { MAX_CONCURRENCY, MAX_ORDERS, MAX_OUTPUT_TOKENS, MAX_RETRIES, MAX_TPM };

/** The flags shared by `collect` and `psi collect` for rate control and pre-flight. */
export const RATE_FLAGS = {
  tpm: flag.int(1, MAX_TPM, 200000),
  'retry-horizon': flag.duration('min', 10),
  'no-preflight': flag.boolean(),
} as const;

/** The flags shared by `collect` and `psi collect` for the dispatcher and the batch mode. */
export const DISPATCH_FLAGS = {
  concurrency: flag.int(1, MAX_CONCURRENCY, 4),
  'base-url': flag.string(),
  'max-output-tokens': flag.int(1, MAX_OUTPUT_TOKENS, 16000),
  timeout: flag.duration('s', 600, true),
  'max-retries': flag.int(0, MAX_RETRIES, 5),
  'retry-missing': flag.boolean(),
  'dry-run': flag.boolean(),
  batch: flag.boolean(),
  'poll-interval': flag.duration('s', 30),
  'resubmit-cancelled': flag.boolean(),
  ...RATE_FLAGS,
  ...MODELS_FILE_OPTION,
} as const;

const flags = {
  domains: flag.path(),
  models: flag.string(),
  out: flag.path(),
  conditions: flag.string(),
  orders: flag.int(1, MAX_ORDERS, 2),
  seed: flag.seed(),
  states: flag.path(),
  ...DISPATCH_FLAGS,
} as const;

export function parseCollectArgs(values: FlagValues<typeof flags>): CollectParams {
  const models = list(values.models);
  if (models.length === 0) throw new UsageError('missing required option --models');
  if (new Set(models).size !== models.length) throw new UsageError('--models lists a model twice');
  const conditions = values.conditions === undefined ? [...CONDITIONS] : list(values.conditions);
  if (conditions.length === 0) throw new UsageError('--conditions is empty: give at least one of P0, P1, P2, P3');
  for (const c of conditions) {
    if (!(CONDITIONS as readonly string[]).includes(c)) {
      throw new UsageError(`--conditions: unknown condition ${JSON.stringify(c)} (expected P0, P1, P2, P3)`);
    }
  }
  if (new Set(conditions).size !== conditions.length) throw new UsageError('--conditions lists a condition twice');
  return {
    domainsDir: required(values, 'domains'),
    models,
    outDir: required(values, 'out'),
    conditions,
    orders: values.orders ?? 2,
    concurrency: values.concurrency ?? 4,
    baseUrl: values['base-url'],
    maxOutputTokens: values['max-output-tokens'] ?? 16000,
    timeoutMs: values.timeout ?? 600_000,
    maxRetries: values['max-retries'] ?? 5,
    seed: values.seed ?? DEFAULT_SEED,
    ...rateOptions(values),
    ...modelsFileParam(values),
    ...(values.states !== undefined ? { statesFile: values.states } : {}),
    ...(values['retry-missing'] ? { retryMissing: true } : {}),
    ...batchOptions(values, models),
  };
}

/** --tpm, --retry-horizon (already in ms, below the timer limit), --no-preflight. */
export function rateOptions(values: FlagValues<typeof RATE_FLAGS>): Partial<CollectParams> {
  const out: Partial<CollectParams> = {};
  if (values.tpm !== undefined) out.tokensPerMinute = values.tpm;
  if (values['retry-horizon'] !== undefined) out.retryHorizonMs = values['retry-horizon'];
  if (values['no-preflight']) out.noPreflight = true;
  return out;
}

/** --batch and --poll-interval: batch mode needs openai:/anthropic: models (batchModelRefusal); the interval is checked by its flag spec. */
export function batchOptions(values: FlagValues<typeof DISPATCH_FLAGS>, models: readonly string[]): Partial<CollectParams> {
  const interval = values['poll-interval'];
  if (!values.batch) {
    if (interval !== undefined) throw new UsageError('--poll-interval only applies with --batch');
    if (values['resubmit-cancelled']) throw new UsageError('--resubmit-cancelled only applies with --batch');
    return {};
  }
  // The library's one batch-model check, as a usage error (a flag combination) before anything is read.
  const refusal = batchModelRefusal(models);
  if (refusal) throw new UsageError(refusal.message);
  return { batch: true, pollIntervalMs: interval ?? DEFAULT_POLL_INTERVAL_MS, ...(values['resubmit-cancelled'] ? { resubmitCancelled: true } : {}) };
}

export const command = flagCommand(help, flags, async (parsed, argv) => {
  const v = parsed.values;
  const params = parseCollectArgs(v);
  const resumeCommand = `kstbench collect ${argv.map(shellQuote).join(' ')}`;
  return runShell('collect', resumeCommand, async (shell) => {
    if (v['dry-run']) {
      // A design of ~1M cells plans for tens of seconds: its count and progress go to stderr (stdout stays the report).
      process.stdout.write(formatDryRun(dryRunKst(params, { onLine: (line) => process.stderr.write(`kstbench collect: ${line}\n`) })));
      return 0;
    }
    const result = await collectKst(params, shell.deps);
    if (result.batch) {
      process.stderr.write(`kstbench collect: batch mode: ${result.batch.submitted.length} batch(es) submitted by this run; ${result.batch.open.length} still open\n`);
    }
    return reportRun('collect', result, resumeCommand, result.batch?.open ?? []);
  });
});

/** What runShell hands the command: the interrupt signal, the progress display and the notes' sink. */
export interface ShellDeps {
  interrupt: AbortSignal;
  progress: (total: number, initialDone: number) => ReturnType<typeof createProgress>;
  onNote: NoteSink;
}

/**
 * A note as the line printed on stderr, labelled by what it is: `routing`, `environment`, a model's
 * `setup` before its first call, or `mid-run` for one heard during a call (a followed redirect that
 * moved the path comes after the pre-flight, so calling it "pre-flight" misdated it).
 */
export function noteLine(name: string, model: string, note: string, kind: NoteKind): string {
  const label = kind === 'routing' || kind === 'environment' ? kind : `${kind === 'setup' ? 'setup' : 'mid-run'} ${model}`;
  return `kstbench ${name}: ${label}: ${note}\n`;
}

/**
 * Runs a collecting command under the shared shell: SIGINT/SIGTERM finish in-flight calls (a second
 * signal exits at once; in a worker thread the main thread stops it, cli/thread.ts), notes (noteLine) and progress go to stderr, and failures that are no bug are
 * one line each — an empty design (exit 2), an OS error
 * naming the path with the resume command (exit 1).
 */
export async function runShell(name: string, resumeCommand: string, body: (shell: { deps: ShellDeps }) => Promise<number>): Promise<number> {
  const interrupt = new AbortController();
  let signals = 0;
  const onSignal = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      process.stderr.write(`\nkstbench ${name}: second ${signal}, exiting now (resume with: ${resumeCommand})\n`);
      process.exit(EXIT_INTERRUPTED);
    }
    process.stderr.write(`\nkstbench ${name}: ${signal} received, finishing in-flight calls (press again to exit at once)\n`);
    interrupt.abort();
  };
  const stopListening = onInterruptSignals(name, resumeCommand, onSignal);
  // In a worker (cli/thread.ts) stderr is no TTY object; the main thread said whether it is a terminal.
  const stderr = { write: (text: string) => process.stderr.write(text), isTTY: stderrIsTTY() };
  try {
    return await body({
      deps: {
        interrupt: interrupt.signal,
        progress: (total, initialDone) => createProgress({ total, initialDone, stream: stderr }),
        onNote: (model, note, kind) => process.stderr.write(noteLine(name, model, note, kind)),
      },
    });
  } catch (err) {
    if (err instanceof EmptyDesignError) throw new UsageError(err.message);
    if (isOsError(err)) {
      process.stderr.write(`kstbench ${name}: ${osErrorMessage(err, resumeCommand)}\n`);
      return 1;
    }
    throw err;
  } finally {
    stopListening();
  }
}

/** The resume command with --retry-missing (added once). */
export function withRetryMissing(command: string): string {
  return /(^| )--retry-missing( |$)/.test(command) ? command : `${command} --retry-missing`;
}

/** Prints the summary of a finished run and returns its exit code (0, 3, 4, 5 or 130). */
/** What the start of the run repaired of a killed run's torn last lines, one line per file. */
export function tornRepairLines(result: Pick<EngineResult, 'tornRepairs' | 'paths'>): string[] {
  return (result.tornRepairs ?? []).map((r) =>
    r.kind === 'newline_added'
      ? `repaired ${r.file}: its last record (line ${r.line}) had no newline (a run was killed as it wrote it); newline added, the record kept`
      : `repaired ${r.file}: line ${r.line} was cut off by a killed run (${r.bytes} bytes, not a whole record); moved to ${result.paths.torn}${r.file === 'responses.jsonl' ? ', and its cell is requested again' : ''}`,
  );
}

export function reportRun(name: string, result: EngineResult, resumeCommand: string, openBatches: readonly string[] = []): number {
  const counts = Object.entries(result.written)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  const cost = result.costUsd === null ? 'unknown (some model has no price)' : `$${result.costUsd.toFixed(4)}`;
  for (const line of tornRepairLines(result)) process.stderr.write(`kstbench ${name}: ${line}\n`);
  process.stderr.write(`kstbench ${name}: ${result.status}: ${result.total} cells, ${resumedWording(result)}, this run wrote ${counts || 'nothing'}; ${result.pending} pending; ${attemptsWording(result)}; estimated cost of this run ${cost}\n`);
  switch (result.status) {
    case 'complete':
      return 0;
    case 'quota_stopped':
      process.stderr.write(
        `kstbench ${name}: QUOTA STOP (${result.reason}). ${result.pending} cells have no final record yet; nothing was lost.\n` +
          `Resume after the quota resets by re-running the same command:\n  ${resumeCommand}\n`,
      );
      return EXIT_QUOTA_STOPPED;
    case 'interrupted':
      if (openBatches.length > 0) {
        process.stderr.write(
          `kstbench ${name}: stopped while batches are running at the provider (${openBatches.join(', ')}); nothing is lost.\n` +
            `Collect them later by re-running the same command (it polls these batches and submits nothing twice):\n  ${resumeCommand}\n`,
        );
      } else {
        process.stderr.write(`kstbench ${name}: interrupted${result.reason && result.reason !== 'interrupted by signal' ? ` (${result.reason})` : ''}; ${result.remedy ? `${result.remedy}; ` : ''}resume with:\n  ${resumeCommand}\n`);
      }
      return EXIT_INTERRUPTED;
    case 'incomplete':
      process.stderr.write(
        `kstbench ${name}: INCOMPLETE: ${result.reason ?? 'some cells are missing'}.\n` +
          `Request them again with:\n  ${withRetryMissing(resumeCommand)}\n`,
      );
      return EXIT_INCOMPLETE;
    case 'failed':
      process.stderr.write(
        `kstbench ${name}: FAILED: ${result.reason ?? 'run failed'}\n` +
          (result.remedy ? `  fix: ${result.remedy}\n` : '') +
          // With no cell left without a record (every one ended `missing`), a plain re-run would
          // request nothing: the command to print is the one that asks for the missing cells again.
          (result.pending === 0
            ? `After fixing it, request the missing cells again with:\n  ${withRetryMissing(resumeCommand)}\n`
            : `After fixing it, resume with (cells without a record are requested again):\n  ${resumeCommand}\n`),
      );
      return EXIT_RUN_FAILED;
  }
}
