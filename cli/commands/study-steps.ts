import { CONDITIONS, type Condition } from '../../lib/conditions';
import { checkStudy, formatCheck } from '../../lib/study/check';
import { initStudy } from '../../lib/study/init';
import { MAX_ORDERS } from '../../lib/collect/caps';
import { loadStudy, MAX_REPEATS, MAX_SAMPLE, PAPER_KEYS, type PaperKey, type Study } from '../../lib/study/manifest';
import { repeatDir, type Repeat } from '../../lib/study/repeats';
import { parseOptions, UsageError } from '../common';
import { flag } from '../flags';
import type { Subcommand } from './study';

// The collector's shell, the analysis, the figures and the report are imported by the step that runs
// them: `study init` and `study check` (run once per case by the tests, and first by every user) load
// about 60 modules fewer (docs/startup.md).

/** The study folder: the one positional argument. */
function studyDir(positionals: string[], sub: string): string {
  if (positionals.length !== 1) throw new UsageError(`study ${sub} takes one study folder (got ${positionals.length} arguments)`);
  return positionals[0]!;
}

function list(value: unknown): string[] {
  return typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
}

function parseStep(argv: string[], sub: string, help: string): Study | null {
  const parsed = parseOptions(argv, NO_FLAGS, help, true);
  if (!parsed) return null;
  return loadStudy(studyDir(parsed.positionals, sub));
}

/** The flags of the steps that collect (`study collect`, `study run`). */
const COLLECT_FLAGS = { 'retry-missing': flag.boolean() } as const;

/** A collecting step's study and whether `--retry-missing` was given (null after --help). */
function parseCollectingStep(argv: string[], sub: string, help: string): { study: Study; retryMissing: boolean } | null {
  const parsed = parseOptions(argv, COLLECT_FLAGS, help, true);
  if (!parsed) return null;
  return { study: loadStudy(studyDir(parsed.positionals, sub)), retryMissing: parsed.values['retry-missing'] === true };
}

const say = (line: string) => process.stderr.write(`kstbench study: ${line}\n`);

const INIT_HELP = `Usage: kstbench study init DIR --domains PATH[,PATH...] (--models SPEC[,...] | --responses FILE) [options]

Writes DIR/study.json, a working manifest (docs/study.md) whose $comment fields say what each part
means. Paths are given relative to the current folder and stored relative to DIR. Refuses to
overwrite an existing manifest; writes nothing when the flags do not make a valid one.

Options:
  --domains LIST      domain files (*.json, any structure form) or folders of them
  --models LIST       provider:model specs, each optionally spec@URL (simulated:sim-a … sim-f offline)
  --models-file FILE  per-model base URL, key variable, caps (lib/collect/providers/README.md)
  --responses FILE    import this response table (CSV or JSONL) instead of collecting
  --title TEXT        the study's title
  --conditions LIST   subset of P0,P1,P2,P3 (default all four)
  --orders N          presentation orders (default 2)
  --repeats N         responses per cell, each repeat collected apart and pooled per state (default 1)
  --sample N          sample N states per domain (seeded) instead of every state
  --sample-seed S     seed of the state sample (default 1)
  --seed S            seed of the collector's cell shuffle (default 20260908)
  --replicates KEYS   only for a replication: KST-2026 and/or PSI-2026
  -h, --help          show this help
`;

const INIT_FLAGS = {
  domains: flag.string(),
  models: flag.string(),
  'models-file': flag.path(),
  responses: flag.path(),
  title: flag.string(),
  conditions: flag.string(),
  orders: flag.int(1, MAX_ORDERS, 2),
  repeats: flag.int(1, MAX_REPEATS, 2),
  sample: flag.int(1, MAX_SAMPLE, 100),
  'sample-seed': flag.seed(),
  seed: flag.seed(),
  replicates: flag.string(),
} as const;

/** The study steps that take only the study folder. */
const NO_FLAGS = {} as const;

export const init: Subcommand = {
  help: INIT_HELP,
  flags: INIT_FLAGS,
  async run(argv) {
    const parsed = parseOptions(argv, INIT_FLAGS, INIT_HELP, true);
    if (!parsed) return 0;
    const v = parsed.values;
    const dir = studyDir(parsed.positionals, 'init');
    const domains = list(v.domains);
    if (domains.length === 0) throw new UsageError('missing required option --domains');
    const models = list(v.models);
    if (models.length === 0 && v['models-file'] === undefined && v.responses === undefined) throw new UsageError('give --models (or --models-file, or --responses to import)');
    const conditions = v.conditions === undefined ? undefined : list(v.conditions);
    for (const c of conditions ?? []) if (!(CONDITIONS as readonly string[]).includes(c)) throw new UsageError(`--conditions: unknown condition ${JSON.stringify(c)} (expected P0, P1, P2, P3)`);
    const replicates = list(v.replicates);
    for (const r of replicates) if (!(PAPER_KEYS as readonly string[]).includes(r)) throw new UsageError(`--replicates: unknown paper ${JSON.stringify(r)} (expected ${PAPER_KEYS.join(', ')})`);
    const study = initStudy(dir, {
      domains,
      models,
      ...(v.title !== undefined ? { title: v.title } : {}),
      ...(v['models-file'] !== undefined ? { modelsFile: v['models-file'] } : {}),
      ...(v.responses !== undefined ? { responses: v.responses } : {}),
      ...(conditions ? { conditions: conditions as Condition[] } : {}),
      ...(v.orders !== undefined ? { orders: v.orders } : {}),
      ...(v.repeats !== undefined ? { repeats: v.repeats } : {}),
      ...(v.sample !== undefined ? { sample: { size: v.sample, seed: v['sample-seed'] ?? '1' } } : {}),
      ...(v.seed !== undefined ? { seed: v.seed } : {}),
      ...(replicates.length > 0 ? { replicates: replicates as PaperKey[] } : {}),
    });
    say(`wrote ${study.file}; next: kstbench study check ${dir}`);
    return 0;
  },
};

const CHECK_HELP = `Usage: kstbench study check DIR

Validates the study before anything is spent, and writes nothing: the manifest, every domain (its
structure: cycles, unknown IDs, …), every model against the catalogue (config/models.json) and the
key it needs in the environment, an imported response table row by row; then prints the cells per
model and the cost estimate per model (the collector's dry run: prompt characters / 4 in, the
catalogue's typical output out; an upper bound at max_output_tokens).
`;

export const check: Subcommand = {
  help: CHECK_HELP,
  flags: NO_FLAGS,
  async run(argv) {
    const study = parseStep(argv, 'check', CHECK_HELP);
    if (!study) return 0;
    process.stdout.write(formatCheck(study, checkStudy(study)));
    return 0;
  },
};

const COLLECT_HELP = `Usage: kstbench study collect DIR [--retry-missing]

Runs the check, then collects every cell of the design into the study's collection folder with the
collector of 'kstbench collect' (resumable: re-run the same command after an interruption or quota
stop; completed cells are never requested again). With design.repeats > 1 each repeat is collected
into its own folder, collection/repeat-<k>, with its own recorded seed (collection/repeats.json).
A study whose manifest names "responses" imports that table instead (every row checked first;
nothing written on a bad row).

Options:
  --retry-missing   request cells whose final record is 'missing' again (the new record supersedes
                    it); without it a re-run requests only cells that have no record
`;

/**
 * The collect step. `nextSteps` names what `study run` does after it: a signal that reached the
 * collector's graceful stop when there was nothing left to collect (its last moments) still ends the
 * run there, exit 130, instead of being spent on a collection that completed anyway while the
 * analysis, figures and report went on to "done" and exit 0.
 */
async function collectOnly(study: Study, retryMissing: boolean, nextSteps?: string): Promise<number> {
  const [{ collectStudy }, { EXIT_INTERRUPTED, reportRun, runShell }] = await Promise.all([import('../../lib/study/collect'), import('./collect')]);
  const resume = `kstbench study collect ${study.dir}${retryMissing ? ' --retry-missing' : ''}`;
  return runShell('study collect', resume, async (shell) => {
    const onRepeat = (repeat: Repeat, of: number) => {
      if (of > 1) say(`repeat ${repeat.repeat}/${of} -> ${repeatDir(study, repeat)} (collector seed ${repeat.collector_seed})`);
    };
    const result = await collectStudy(study, shell.deps, onRepeat, { retryMissing });
    if (result.kind === 'imported') {
      say(`imported ${result.rows} responses of ${result.models.length} model(s) from ${result.file} -> ${study.paths.collection}`);
      return 0;
    }
    // One line per repeat collected; the exit code is the last one's (the first that did not complete).
    let code = 0;
    for (const r of result.repeats) code = reportRun(result.repeats.length > 1 || r.repeat.repeat > 1 ? `study collect (repeat ${r.repeat.repeat})` : 'study collect', r.outcome, resume);
    if (code === 0 && nextSteps !== undefined && shell.deps.interrupt.aborted) {
      say(`interrupted after the collection completed: stopped before ${nextSteps}; resume with: kstbench study run ${study.dir}`);
      return EXIT_INTERRUPTED;
    }
    return code;
  });
}

export const collect: Subcommand = {
  help: COLLECT_HELP,
  flags: COLLECT_FLAGS,
  async run(argv) {
    const step = parseCollectingStep(argv, 'collect', COLLECT_HELP);
    return step ? collectOnly(step.study, step.retryMissing) : 0;
  },
};

async function analyzeOnly(study: Study): Promise<number> {
  const { analyzeStudy } = await import('../../lib/study/analyze');
  say(`analysing ${study.paths.collection} (bootstrap ${study.manifest.analysis.resamples}, sign flips ${study.manifest.analysis.flips}) …`);
  const r = analyzeStudy(study);
  const c = r.counts;
  say(`analysed ${c.responses} responses (${c.valid} valid, ${c.invalid} invalid, ${c.missing} missing)${c.simulated ? `, ${c.simulated} SIMULATED` : ''} -> ${study.paths.output}/analysis`);
  const u = r.collection;
  if (u) say(`WARNING: the collection is not complete (${u.dir}/run.json: ${u.status}${u.reason ? `, ${u.reason}` : ''}): the analysis covers only the responses recorded; the report says so`);
  return 0;
}

export const analyze: Subcommand = {
  help: `Usage: kstbench study analyze DIR\n\nScores the collected (or imported) responses and writes the tables and study-results.json to the study's output/analysis folder.\n`,
  flags: NO_FLAGS,
  async run(argv) {
    const study = parseStep(argv, 'analyze', this.help);
    return study ? analyzeOnly(study) : 0;
  },
};

async function figuresOnly(study: Study): Promise<number> {
  const { drawStudyFigures } = await import('../../lib/study/figures');
  const figures = await drawStudyFigures(study, (i, n, name) => say(`figure ${i}/${n}: ${name}`));
  say(`drew ${figures.length} figures -> ${study.paths.output}/figures`);
  return 0;
}

export const figures: Subcommand = {
  help: `Usage: kstbench study figures DIR\n\nDraws Figures 1–3 equivalents and the P1 verdicts from the analysis, in the pinned Chromium (SVG, PNG, manifest JSON).\n`,
  flags: NO_FLAGS,
  async run(argv) {
    const study = parseStep(argv, 'figures', this.help);
    return study ? figuresOnly(study) : 0;
  },
};

async function reportOnly(study: Study): Promise<number> {
  const { buildStudyReport } = await import('../../lib/study/report');
  say(`report: ${buildStudyReport(study)}`);
  return 0;
}

export const report: Subcommand = {
  help: `Usage: kstbench study report DIR\n\nBuilds the static report (index.html, its figures and CSV tables) in the study's report folder; it opens offline from file://.\n`,
  flags: NO_FLAGS,
  async run(argv) {
    const study = parseStep(argv, 'report', this.help);
    return study ? reportOnly(study) : 0;
  },
};

const RUN_HELP = `Usage: kstbench study run DIR [--retry-missing]

The whole study in one command: collect (or import; resumable), analyze, figures, report. Stops at
the first step that did not do its job, with its exit code; re-running resumes the collection.

Options:
  --retry-missing   collect: request cells whose final record is 'missing' again
`;

export const run: Subcommand = {
  help: RUN_HELP,
  flags: COLLECT_FLAGS,
  async run(argv) {
    const parsed = parseCollectingStep(argv, 'run', RUN_HELP);
    if (!parsed) return 0;
    const study = parsed.study;
    // The whole check first, so bad input is one line with nothing printed or written before it.
    checkStudy(study);
    const started = Date.now();
    const step = (name: string) => say(`step ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    step('1/4 collect');
    const collected = await collectOnly(study, parsed.retryMissing, 'the analysis, figures and report');
    if (collected !== 0) return collected;
    step('2/4 analyze');
    await analyzeOnly(study);
    step('3/4 figures');
    await figuresOnly(study);
    step('4/4 report');
    await reportOnly(study);
    say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  },
};
