/**
 * What the notebooks read from their one parameter, `study` (a study folder or its study.json): the
 * study's inputs, whether it replicates a paper (only then are the paper's numbers, markers, n and
 * claims shown), and the choices a notebook makes for its pictures, each derived from the study's data
 * by a rule written here (and in docs/study-notebooks.md), so that a notebook needs no override on a
 * study of one's own and never draws an empty figure:
 *
 * - **the domain shown** (notebooks 01, 02): the domain with the most components, ties broken by the
 *   fewest knowledge states (the smallest picture of the most tasks), then by id. Shipped: Slope.
 * - **the highlighted state** (notebook 01): the first non-empty state of that domain's space.
 *   Shipped: {SL1}.
 * - **the preview state** (notebook 02): the first state with two components, else the first non-empty
 *   one. Shipped: {SL1, SL2}.
 * - **Figure 3's domain × condition** (notebook 05): for a replication of [KST-2026], the paper's own
 *   Figure 3 cell when the data have responses there; otherwise the domain × condition cell with
 *   responses where the models' exact-set accuracies spread the most (max − min), ties broken by domain
 *   id then condition order. Shipped: Graph to Equation × P1.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, relative, resolve } from 'node:path';
import { CONDITIONS, type Condition } from '../conditions';
import { InputError } from '../errors';
import { percent } from '../stats/prints-as';
import { ensureDir } from '../io';
import { checkState, countStatesExact, DEFAULT_WORK_BUDGET, enumerateStates, workBudget, type Domain, type StateSample } from '../kst';
import { MAX_LATTICE_STATES } from '../report/kst-diagrams';
import type { InferenceOptions } from '../analysis';
import { MAX_FLIPS, MAX_RESAMPLES } from '../analysis/caps';
import type { CollectParams } from '../collect/collect';
import { collectionPlan, type CollectionPlan } from '../report/kst-collection';
import { prepareCollectorInputs } from './collect';
import { collectParams, sampledStates } from './design';
import { loadStudy, loadStudyDomains, replicatesPaper, SHIPPED_STUDY_DIR, singleDomainDir, type PaperKey, type Study } from './manifest';

/** The published numbers of each paper, set beside the computed ones only in a replication. */
export const PUBLISHED_FILES = { 'KST-2026': 'data/published/kst-benchmark-2026.json', 'PSI-2026': 'data/published/psi-2026.json' } as const;

/** A study as the notebooks see it (paths relative to the project root when they are inside it). */
export interface NotebookStudy {
  study: Study;
  title: string;
  /** The project's own replication (data/raw/study.json): the only study with a shipped corpus to re-collect. */
  shipped: boolean;
  domains: Domain[];
  /** A folder holding exactly the study's domain files (the collector and `kstbench analyze` read one). */
  domainsDir: string;
  collectionDir: string;
  /** The collector's `extracted.jsonl` (the `kstbench analyze --responses` form) in the collection folder. */
  responsesFile: string;
  /** The collector's `responses.jsonl` (final records, with the P1 graphs). */
  rawResponsesFile: string;
  models: string[];
  /** The [KST-2026] published numbers file when the study replicates that paper, else null. */
  publishedKstFile: string | null;
  /** The [PSI-2026] published numbers file when the study replicates that paper, else null. */
  publishedPsiFile: string | null;
  /** The PSI part: scenarios (course folder), round files; null when the study has none. */
  psi: { courseDir: string; round1File: string; round2File: string; ratingsFile: string | null; models: string[] } | null;
}

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') ? rel.split('\\').join('/') : path;
}

/**
 * A folder with exactly the study's domain files: the manifest's folder when it names one, else a copy
 * of the named files under `tmp/notebook-study/<hash>/domains`. InputError for a kstIO import (the
 * collector needs domain files; `kstbench import` writes one).
 */
function studyDomainsDir(study: Study, domains: readonly Domain[]): string {
  const single = singleDomainDir(study);
  if (single !== null) return shown(single);
  const files = domains.map((d) => {
    if (d.file === undefined || !d.file.endsWith('.json')) {
      throw new InputError(`${study.file}: domain ${d.id} is imported, not a domain file; write it with kstbench import and name the .json file`, { file: study.file, item: d.id });
    }
    return d.file;
  });
  const key = createHash('sha256').update(files.map((f) => resolve(f)).join('\n')).digest('hex').slice(0, 12);
  const dir = join('tmp', 'notebook-study', key, 'domains');
  ensureDir(dir);
  for (const f of files) copyFileSync(f, join(dir, basename(f)));
  return dir;
}

/**
 * Loads the study a notebook's `study` parameter names (a folder or its study.json) and derives what
 * the notebooks read. InputError naming the manifest (or the domain entry) when it is missing or bad.
 * @example
 * notebookStudy('data/raw').publishedKstFile; // => 'data/published/kst-benchmark-2026.json'
 */
export function notebookStudy(studyPath: string): NotebookStudy {
  const study = loadStudy(studyPath);
  const domains = loadStudyDomains(study);
  const m = study.manifest;
  const psiDir = study.paths.psiCollection;
  return {
    study,
    title: m.title,
    shipped: resolve(study.dir) === resolve(SHIPPED_STUDY_DIR),
    domains,
    domainsDir: studyDomainsDir(study, domains),
    collectionDir: shown(study.paths.collection),
    responsesFile: shown(join(study.paths.collection, 'extracted.jsonl')),
    rawResponsesFile: shown(join(study.paths.collection, 'responses.jsonl')),
    models: [...m.models],
    publishedKstFile: replicatesPaper(study, 'KST-2026') ? PUBLISHED_FILES['KST-2026'] : null,
    publishedPsiFile: replicatesPaper(study, 'PSI-2026') ? PUBLISHED_FILES['PSI-2026'] : null,
    psi:
      m.psi === undefined || psiDir === null
        ? null
        : {
            courseDir: shown(join(study.resolve(m.psi.scenarios), '..')),
            round1File: shown(join(psiDir, 'round1.jsonl')),
            round2File: shown(join(psiDir, 'round2.jsonl')),
            ratingsFile: m.psi.ratings === undefined ? null : shown(study.resolve(m.psi.ratings)),
            models: [...m.psi.models],
          },
  };
}

/** A notebook parameter left at its "derive it" default ("" or []) takes the derived value. */
export function orDerived<T>(given: T, derive: () => T): T {
  return given === '' || (Array.isArray(given) && given.length === 0) ? derive() : given;
}

/**
 * The domain the notebooks show: among those whose space notebook 01 can draw (at most
 * MAX_LATTICE_STATES states), the most components, then the fewest states, then the id; when none
 * can be drawn, the fewest states. The states are counted, never enumerated: a study domain may have
 * millions (enumerating them refused the whole notebook, even for a domain it did not show).
 * @example
 * shownDomain(notebookStudy('data/raw').domains).id; // => 'slope'
 */
export function shownDomain(domains: readonly Domain[]): Domain {
  if (domains.length === 0) throw new InputError('the study has no domain to show');
  const size = new Map(domains.map((d) => [d.id, countStatesExact(d, workBudget(DEFAULT_WORK_BUDGET))]));
  const byId = (a: Domain, b: Domain) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const fewerStates = (a: Domain, b: Domain) => (size.get(a.id)! < size.get(b.id)! ? -1 : size.get(a.id)! > size.get(b.id)! ? 1 : 0);
  const drawable = domains.filter((d) => size.get(d.id)! <= BigInt(MAX_LATTICE_STATES));
  if (drawable.length === 0) return [...domains].sort((a, b) => fewerStates(a, b) || byId(a, b))[0]!;
  return drawable.sort((a, b) => b.ids.length - a.ids.length || fewerStates(a, b) || byId(a, b))[0]!;
}

/** A domain by id, or an InputError naming the ids there are (for a `-p domainId …` that is not one). */
export function domainById(domains: readonly Domain[], id: string, parameter: string): Domain {
  const d = domains.find((x) => x.id === id);
  if (!d) throw new InputError(`${parameter} "${id}" is not a domain of the study (its domains: ${domains.map((x) => x.id).join(', ')})`, { item: id });
  return d;
}

/**
 * The state notebook 01 highlights: the first non-empty state in the space's order (the full domain for a one-component domain).
 * @example
 * highlightedState(shownDomain(notebookStudy('data/raw').domains)); // => ['SL1']
 */
export function highlightedState(domain: Domain): string[] {
  const single = firstStateOfSize(domain, 1);
  if (single) return single;
  // No single component is a state (equivalent components, learned together): the space's own order.
  const states = enumerateStates(domain);
  return [...(states.find((s) => s.length > 0) ?? states[0]!)];
}

/**
 * The first state of one or two components in the space's order (by size, then canonical indices),
 * found by checking those sets in that order instead of enumerating the space, which may hold 2^64
 * states (notebook 02 stopped there); null when there is none.
 */
function firstStateOfSize(domain: Domain, size: 1 | 2): string[] | null {
  const ids = domain.ids;
  for (let i = 0; i < ids.length; i++) {
    if (size === 1) {
      if (checkState(domain, [ids[i]!]).ok) return [ids[i]!];
      continue;
    }
    for (let j = i + 1; j < ids.length; j++) if (checkState(domain, [ids[i]!, ids[j]!]).ok) return [ids[i]!, ids[j]!];
  }
  return null;
}

/**
 * The state notebook 02 previews prompts for: the first state with two components, else the first non-empty one.
 * @example
 * previewState(shownDomain(notebookStudy('data/raw').domains)); // => ['SL1', 'SL2']
 */
export function previewState(domain: Domain): string[] {
  return firstStateOfSize(domain, 2) ?? highlightedState(domain);
}

/** One scored response, as far as the Figure 3 rule needs it. */
export interface ScoredCell {
  model: string;
  domain: string;
  condition: Condition;
  scores: { exact: number };
}

/**
 * Figure 3's domain × condition. Given ones (notebook parameters, "" = not given) must have responses
 * (else InputError: the figure would be empty); otherwise the paper's cell in a replication when the
 * data have responses there, else the cell with responses where the models' exact-set accuracies
 * spread the most (ties: domain id, then condition order). InputError when nothing is scored at all.
 * @example
 * figure3Cell([{ model: 'a', domain: 'd', condition: 'P0', scores: { exact: 1 } }, { model: 'b', domain: 'd', condition: 'P0', scores: { exact: 0 } }]).rule; // => 'the widest spread between models (100.0 points)'
 */
export function figure3Cell(
  scored: readonly ScoredCell[],
  options: { paper?: { domain: string; condition: string } | null; domain?: string; condition?: string } = {},
): { domain: string; condition: Condition; rule: string } {
  if (scored.length === 0) throw new InputError('no scored response: nothing to draw in Figure 3');
  const cells = new Map<string, Map<string, { n: number; exact: number }>>();
  for (const r of scored) {
    const key = `${r.domain}\u0000${r.condition}`;
    const models = cells.get(key) ?? new Map<string, { n: number; exact: number }>();
    const acc = models.get(r.model) ?? { n: 0, exact: 0 };
    acc.n += 1;
    acc.exact += r.scores.exact;
    models.set(r.model, acc);
    cells.set(key, models);
  }
  const order = (c: string) => CONDITIONS.indexOf(c as Condition);
  const given = { domain: options.domain ?? '', condition: options.condition ?? '' };
  const paper = options.paper;
  if (paper && given.domain === '' && given.condition === '' && cells.has(`${paper.domain}\u0000${paper.condition}`)) {
    return { domain: paper.domain, condition: paper.condition as Condition, rule: "the paper's own Figure 3 cell" };
  }
  const candidates = [...cells].filter(([key]) => {
    const [domain, condition] = key.split('\u0000') as [string, string];
    return (given.domain === '' || domain === given.domain) && (given.condition === '' || condition === given.condition);
  });
  if (candidates.length === 0) {
    const have = [...new Set(scored.map((r) => `${r.domain} × ${r.condition}`))].sort().join(', ');
    throw new InputError(`figure3Domain "${given.domain}" × figure3Condition "${given.condition}": no scored response there, so Figure 3 would be empty (cells with responses: ${have})`, { item: `${given.domain}:${given.condition}` });
  }
  const ranked = candidates.map(([key, models]) => {
    const [domain, condition] = key.split('\u0000') as [string, Condition];
    const rates = [...models.values()].map((a) => a.exact / a.n);
    return { domain, condition, spread: Math.max(...rates) - Math.min(...rates) };
  });
  ranked.sort((a, b) => b.spread - a.spread || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0) || order(a.condition) - order(b.condition));
  const best = ranked[0]!;
  const rule = given.domain !== '' && given.condition !== '' ? 'given as parameters' : `the widest spread between models (${percent(best.spread).toFixed(1)} points)`;
  return { domain: best.domain, condition: best.condition, rule };
}

/** Columns of a computed-beside-paper table that hold the paper's side (`x (paper)`, `x (paper, %)`, `stands for (paper model)`, `paper row`, `paper model`, `paper`). */
const PAPER_COLUMN = /^paper( row| model)?$|\(paper[ ,)]/;

/**
 * Whether a notebook sets the paper's numbers beside its own: only when the study declares it
 * replicates that paper. The notebooks build their comparison tables as before and pass them through
 * `table`, which drops the paper's columns otherwise; `title` picks the table's title for either case;
 * `mirrors` maps a model to the paper row it is set beside (so a simulated profile is named by its
 * profile, `sim-a`, on a study that is not the replication); `noClaims` is the line a claims cell shows
 * instead of the paper's claims ledger.
 */
export interface PaperComparison {
  shown: boolean;
  paper: PaperKey;
  table<T extends object>(rows: readonly T[]): T[];
  /** The title of a table: `besidePaper` in a replication (the shipped titles, unchanged), `computedOnly` otherwise. */
  title(besidePaper: string, computedOnly: string): string;
  mirrors(map: () => Record<string, string>): Record<string, string>;
  noClaims: string;
}

/**
 * The comparison with `paper` for a study.
 * @example
 * paperComparison({ study: { manifest: { replicates: [] } } }, 'KST-2026').table([{ n: 1, 'n (paper)': 2 }]); // => [{ n: 1 }]
 * paperComparison({ study: { manifest: { replicates: ['KST-2026'] } } }, 'KST-2026').title('Table 3 (computed beside paper)', 'Table 3'); // => 'Table 3 (computed beside paper)'
 */
export function paperComparison(s: { study: Pick<Study, 'manifest'> }, paper: PaperKey): PaperComparison {
  const shown = replicatesPaper(s.study, paper);
  return {
    shown,
    paper,
    table: <T extends object>(rows: readonly T[]): T[] =>
      shown ? [...rows] : rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !PAPER_COLUMN.test(k))) as T),
    title: (besidePaper: string, computedOnly: string) => (shown ? besidePaper : computedOnly),
    mirrors: (map) => (shown ? map() : {}),
    noClaims: `No claims ledger: the study does not declare that it replicates [${paper}] (manifest "replicates"), so its results are not set beside the paper's.`,
  };
}

/**
 * The line a notebook prints about the study it follows.
 * @example
 * studySummary({ title: 'Fractions', study: { file: 'f/study.json' } }, { shown: false, paper: 'KST-2026' }).slice(0, 33); // => 'Study: Fractions (f/study.json). '
 */
export function studySummary(s: { title: string; study: Pick<Study, 'file'> }, vs: Pick<PaperComparison, 'shown' | 'paper'>): string {
  const what = vs.shown
    ? `It replicates [${vs.paper}]: the paper's published numbers stand beside the computed ones.`
    : `It does not declare that it replicates [${vs.paper}]: the tables and figures show what was computed here, with no paper column, marker or claim.`;
  return `Study: ${s.title} (${shown(s.study.file)}). ${what}`;
}

/** What notebook 02 collects: the plan (whose models, which folder), the collector's parameters and the state sample. */
export interface NotebookCollection {
  plan: CollectionPlan;
  params: CollectParams;
  /** Per domain, the sampled states of a `design.states.sample` study; null when every state is asked. */
  samples: StateSample[] | null;
}

/**
 * Notebook 02's collection: exactly the study's design, as `kstbench study collect` builds it
 * (lib/study/design.ts `collectParams`, and the seeded state sample written by `prepareCollectorInputs`):
 * its models as written (`spec@URL` included) and its models file, its conditions, orders, limits and
 * seed (`seed` overrides it when not ""). `KSTBENCH_MODELS` (with `KSTBENCH_BASE_URL`) still replaces
 * the models, as `collectionPlan` says. The folder: `dirs.simulatedOutDir` when every model is
 * simulated, else `dirs.environmentOutDir`, or when that is "" the study's own collection folder (for
 * the shipped study, whose collection folder holds the simulated corpus, `data/raw/kst-real`).
 * InputError for a design the collector cannot run (as `study collect`).
 */
export function notebookCollection(
  s: NotebookStudy,
  env: Readonly<Record<string, string | undefined>>,
  dirs: { simulatedOutDir: string; environmentOutDir: string; seed: string },
): NotebookCollection {
  const environmentOutDir = orDerived(dirs.environmentOutDir, () => (s.shipped ? join('data', 'raw', 'kst-real') : s.collectionDir));
  const plan = collectionPlan(env, { simulatedOutDir: dirs.simulatedOutDir, environmentOutDir, models: s.models });
  const inputs = prepareCollectorInputs(s.study);
  const design = collectParams(s.study, shown(inputs.domainsDir), inputs.statesFile === null ? null : shown(inputs.statesFile));
  const params: CollectParams = { ...design, models: plan.models, outDir: plan.outDir, seed: orDerived(dirs.seed, () => design.seed) };
  // The study's models file belongs to the study's models; models named in KSTBENCH_MODELS go without it.
  if (plan.source === 'environment') delete params.modelsFile;
  if (plan.baseUrl !== undefined) params.baseUrl = plan.baseUrl;
  return { plan, params, samples: sampledStates(s.study, s.domains) };
}

/** Each left at "" / null: the study's own analysis settings. */
const STUDY_INFERENCE = { seed: '', resamples: null, flips: null } as const;

/**
 * The inference of a notebook that analyses the study (notebooks 03 and 06, and notebook 00's contrast
 * claims): the manifest's `analysis` seed, resamples and flips, as `kstbench study analyze` uses them,
 * each overridden by its notebook parameter when that is given (a seed other than "", a count other
 * than null). Without `given`, the study's settings as they are. A count that is not a positive whole
 * number is an InputError naming its parameter.
 * @example
 * notebookInference(notebookStudy('data/raw'), { seed: '', resamples: 500, flips: null }); // => { seed: '20260908', resamples: 500, flips: 100000 }
 */
export function notebookInference(
  s: Pick<NotebookStudy, 'study'>,
  given: { seed: string; resamples: number | null; flips: number | null } = STUDY_INFERENCE,
): InferenceOptions {
  const settings = s.study.manifest.analysis;
  return {
    seed: orDerived(given.seed, () => settings.seed),
    resamples: givenCount(given.resamples, 'resamples', settings.resamples),
    flips: givenCount(given.flips, 'flips', settings.flips),
  };
}

const COUNT_CAPS = { resamples: MAX_RESAMPLES, flips: MAX_FLIPS } as const;

/**
 * A count parameter of a notebook (`resamples`, `flips`): null takes the study's setting; a value
 * given must be a positive whole number up to the cap the CLI and study.json have (lib/analysis/caps.ts),
 * checked here so that a student's `0`, `1.5` or `1e9` stops the cell with one line naming the parameter
 * instead of a RangeError from lib/stats or a bootstrap that does not fit in memory.
 */
function givenCount(value: number | null, name: keyof typeof COUNT_CAPS, studySetting: number): number {
  if (value === null) return studySetting;
  const cap = COUNT_CAPS[name];
  if (!Number.isSafeInteger(value) || value < 1 || value > cap) {
    throw new InputError(`${name} parameter: expected a whole number from 1 to ${cap} (or null for the study's ${studySetting}), got ${value}`, { item: name });
  }
  return value;
}

/** The PSI part as notebooks 10–13 read it (paths relative to the project root when inside it). */
export type NotebookPsi = NonNullable<NotebookStudy['psi']>;

/**
 * The study's PSI part for a PSI notebook, or an InputError saying that the study has none (the
 * notebook then stops with that one line, instead of scoring another study's scenarios).
 * @example
 * notebookPsi(notebookStudy('data/raw'), '10').round1File; // => 'data/raw/psi/round1.jsonl'
 */
export function notebookPsi(s: Pick<NotebookStudy, 'psi' | 'study'>, notebook: string): NotebookPsi {
  if (s.psi === null) {
    throw new InputError(
      `${shown(s.study.file)}: the study has no PSI part (manifest "psi": scenarios, taxonomy, models), so notebook ${notebook} has nothing to score; add one (docs/study.md) or run only the KST notebooks 00-08`,
      { file: s.study.file, item: 'psi' },
    );
  }
  return s.psi;
}

/**
 * The ratings file notebook 13 reads: the manifest's `psi.ratings`, else `ratings.json` beside the
 * scenarios (when that does not exist either, the notebook generates illustrative ratings and says so).
 * @example
 * ratingsFileOf(notebookPsi(notebookStudy('data/raw'), '13')); // => 'data/raw/psi/ratings.json'
 */
export function ratingsFileOf(psi: Pick<NotebookPsi, 'ratingsFile' | 'courseDir'>): string {
  return psi.ratingsFile ?? `${psi.courseDir}/ratings.json`;
}

/**
 * Notebook 13's `ratingsFile` parameter: "" takes `ratingsFileOf` (where a missing file means
 * illustrative ratings, generated and labelled so); a file named on purpose must exist, else one
 * InputError line naming it, rather than illustrative ratings in place of the file that was asked for.
 * @example
 * ratingsPathFor({ ratingsFile: null, courseDir: 'data/raw/psi' }, ''); // => 'data/raw/psi/ratings.json'
 */
export function ratingsPathFor(psi: Pick<NotebookPsi, 'ratingsFile' | 'courseDir'>, given: string): string {
  if (given === '') return ratingsFileOf(psi);
  if (!existsSync(given)) {
    throw new InputError(`ratingsFile parameter: ${given} does not exist (leave it "" for the study's ratings, or illustrative ones when it has none)`, { file: given, item: 'ratingsFile' });
  }
  return given;
}

/** The scenario the hand-written example answers of notebook 10 are about (a count-down loop). */
export const EXAMPLE_SCENARIO = 'S13';

/**
 * Notebook 10's scenario and corpus response: the scenario the hand-written answers were written for
 * (S13) when the course has it, else the course's first scenario; the first model (in the study's PSI
 * models' order, then the records' own) with a response to it in that variant. InputError naming the
 * round-1 file (`file`), the model asked for and the models that did answer, when none did.
 * @example
 * exampleResponse({ scenarios: [{ id: 'S1' }] }, [{ scenario: 'S1', variant: 'standard', model: 'm' }], { file: 'round1.jsonl', variant: 'standard', models: [] }); // => { scenario: 'S1', model: 'm' }
 */
export function exampleResponse(
  course: { scenarios: ReadonlyArray<{ id: string }> },
  records: ReadonlyArray<{ scenario: string; variant: string; model: string }>,
  options: { file: string; variant: string; models: readonly string[]; scenario?: string; model?: string },
): { scenario: string; model: string } {
  const ids = course.scenarios.map((x) => x.id);
  const scenario = orDerived(options.scenario ?? '', () => (ids.includes(EXAMPLE_SCENARIO) ? EXAMPLE_SCENARIO : ids[0] ?? ''));
  const answered = records.filter((r) => r.scenario === scenario && r.variant === options.variant).map((r) => r.model);
  const ranked = [...options.models.filter((m) => answered.includes(m)), ...[...new Set(answered)].sort()];
  const model = orDerived(options.model ?? '', () => ranked[0] ?? '');
  if (model === '' || !answered.includes(model)) {
    const { file } = options;
    const asked = model === '' ? '' : ` of ${model}`;
    const withOne = [...new Set(answered)].sort().join(', ') || 'none';
    throw new InputError(`${file}: no ${options.variant} response${asked} to scenario ${scenario} in these round-1 records (models with one: ${withOne})`, { file, item: model === '' ? scenario : model });
  }
  return { scenario, model };
}

/**
 * Notebook 12's example case: the round-1 case `runId` names, or (`runId` "") the first case the
 * selection chose (its lowest PSI). InputError naming the round-1 file (`file`) when no case has that
 * run_id (with the number of cases and the first few ids) or when nothing was selected to show.
 * @example
 * regenerationExample([{ run_id: 'r1' }, { run_id: 'r2' }], [{ run_id: 'r2' }], { file: 'round1.jsonl', runId: '' }).run_id; // => 'r2'
 */
export function regenerationExample<T extends { run_id: string }>(
  cases: readonly T[],
  selected: readonly T[],
  options: { file: string; runId: string },
): T {
  const { file, runId } = options;
  if (runId === '') {
    const first = selected[0];
    if (first === undefined) {
      throw new InputError(`${file}: no round-1 case was selected for regeneration, so there is no example to show; set exampleRunId to one of its run_ids, or loosen the selection (selectionThreshold, selectionQuota)`, { file });
    }
    return first;
  }
  const found = cases.find((c) => c.run_id === runId);
  if (found === undefined) {
    const some = cases.slice(0, 3).map((c) => c.run_id).join(', ');
    const hint = cases.length === 0 ? 'it has no cases' : `its ${cases.length} cases begin ${some}${cases.length > 3 ? ', …' : ''}`;
    throw new InputError(`${file}: no round-1 case with run_id "${runId}" (exampleRunId; ${hint})`, { file, item: runId });
  }
  return found;
}
