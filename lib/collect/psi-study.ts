import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors';
import { writeFileAtomic } from '../io';
import { promptHash } from '../prompting/prompt';
import * as psi from '../psi';
import type { BatchTransport } from './batch-transport';
import { checkFingerprint } from './fingerprint';
import { checkUniqueJobs, EmptyDesignError, readRunJson, type CellOutcome, type Job, type ResultHandler } from './lifecycle';
import type { ProgressSink } from './progress';
import { parseModelSpec, type CompletionRequest, type Provider } from '../provider/contract';
import { storePaths } from './store';
import type { PsiCourse, PsiRecord, Scenario, Variant } from '../psi';
import { PsiRecordSchema } from '../records/psi-record';
import { answerOutcome } from '../provider/outcome';
import { loadPriceTable } from './prices';
import { checkBatchModels, createBatchClient, createProvider } from './providers';
import type { ModelOptions, ResolvedTargets } from './providers/endpoints';
import { dryRunStudy, resolveTargets, runStudyCollection, type DryRunReport, type NoteSink, type StudyCollection } from './runner';

/**
 * The PSI tutoring study as a job source for the generic collector engine (lib/collect/engine.ts):
 * collects tutoring responses and scores them (`kstbench psi collect` is a thin shell over this).
 *
 * Round 1: every scenario × {standard, defective} × model. Round 2: the weak defective cases of round 1
 * (lib/psi selection.ts), each regenerated with the PSI-guided regeneration prompt (regeneration.ts)
 * and re-scored. Records follow the PSI record contract (lib/psi/schema.ts `PsiRecordSchema`).
 *
 * Files in --out DIR: round<N>.jsonl (the records, in design order) and runs/round<N>/ (the engine's
 * store: responses.jsonl, attempts.jsonl, run.json), which makes the run resumable. With only
 * simulated models the run is deterministic: the same command gives byte-identical files.
 */

export const ANSWER_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: { answer: { type: 'string', description: 'The tutoring response to the student, in Markdown.' } },
  required: ['answer'],
  additionalProperties: false,
};

/** System prompt of round 1, opening with the course's tutor role (round 2's comes from buildRegenerationPrompt). */
export function round1System(course: PsiCourse): string {
  return [
    psi.tutorRole(course),
    "Answer the student's question in Markdown, taking into account what the student has already learned",
    'and where the course currently is. Reply with the answer to the student only.',
  ].join(' ');
}

export interface PsiCellMeta {
  round: 1 | 2;
  scenario: string;
  variant: Variant;
  parentRunId?: string;
  checklist?: string[];
}

/** Model spec → a run-ID-safe token: `simulated:sim-tutor-a` → `simulated_sim-tutor-a`. */
export function modelToken(spec: string): string {
  return spec.replace(/[^A-Za-z0-9_.-]/g, '_');
}

/** Run ID of a cell, e.g. `psi-r1-S01-standard-simulated_sim-tutor-a`. */
export function psiRunId(round: 1 | 2, scenario: string, variant: Variant, model: string): string {
  return `psi-r${round}-${scenario}-${variant}-${modelToken(model)}`;
}

/** Round-1 jobs in design order: scenario (file order), variant (standard, defective), model (as given). */
export function round1Jobs(
  course: PsiCourse,
  scenarios: readonly Scenario[],
  models: readonly string[],
  seed: string,
): Array<Job<PsiCellMeta>> {
  const jobs: Array<Job<PsiCellMeta>> = [];
  for (const s of scenarios) {
    for (const variant of ['standard', 'defective'] as const) {
      for (const model of models) {
        jobs.push({
          runId: psiRunId(1, s.id, variant, model),
          model,
          meta: { round: 1, scenario: s.id, variant },
          request: () => ({
            system: round1System(course),
            user: psi.formatStudentContext(course, s, variant),
            schemaName: 'tutor_answer',
            jsonSchema: ANSWER_SCHEMA,
            context: { kind: 'psi', scenario: s.id, variant, round: 1, seed },
          }),
        });
      }
    }
  }
  return jobs;
}

/**
 * Round-2 jobs: re-scores the round-1 records, selects the weak cases (selectWeakCases, defective
 * variant, PSI < threshold) among the given models, and builds one regeneration job per selected case,
 * lowest PSI first. Returns the selection too (for the report).
 */
export function round2Jobs(
  course: PsiCourse,
  round1: readonly PsiRecord[],
  models: readonly string[],
  seed: string,
  threshold: number | undefined,
): { jobs: Array<Job<PsiCellMeta>>; perModel: Record<string, number>; considered: number } {
  const allowed = new Set(models);
  const scored = round1
    .filter((r) => r.round === 1 && allowed.has(r.model))
    .map((r) => {
      const scenario = psi.getScenario(course, r.scenario);
      const scoring = r.status === 'valid' ? psi.scoreResponse(r.text, scenario, course) : null;
      return { record: r, scenario, scoring, run_id: r.run_id, model: r.model, variant: r.variant, status: r.status, round: 1, psi: scoring?.psi ?? Number.NaN };
    });
  const selection = psi.selectWeakCases(scored, threshold === undefined ? {} : { threshold });
  const jobs = selection.selected.map((c): Job<PsiCellMeta> => {
    const prompt = psi.buildRegenerationPrompt(course, c.scenario, c.variant, c.record.text, c.scoring!);
    return {
      runId: psiRunId(2, c.scenario.id, c.variant, c.model),
      model: c.model,
      meta: { round: 2, scenario: c.scenario.id, variant: c.variant, parentRunId: c.run_id, checklist: prompt.checklist },
      request: () => ({
        system: prompt.system,
        user: prompt.user,
        schemaName: 'tutor_answer',
        jsonSchema: ANSWER_SCHEMA,
        context: { kind: 'psi', scenario: c.scenario.id, variant: c.variant, round: 2, checklist: prompt.checklist, seed },
      }),
    };
  });
  return { jobs, perModel: selection.perModel, considered: selection.considered };
}

/**
 * The tutor's answer: the `answer` field when the text is that JSON object (what the answer schema
 * asks a real model for); null otherwise. The simulated tutors answer in plain Markdown, so for them
 * the text itself is the answer (`plainTextAllowed`); a real model's text that is not the answer
 * object is an unreadable answer (`invalid`), never scored as if it were prose.
 */
export function extractAnswer(text: string, plainTextAllowed = true): string | null {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const value = JSON.parse(trimmed) as { answer?: unknown };
      if (value && typeof value.answer === 'string') return value.answer;
    } catch {
      // not JSON
    }
  }
  return plainTextAllowed ? text : null;
}

/**
 * Builds PSI records from engine outcomes. An answer that is no answer (cut off, refused, filtered:
 * lib/provider/outcome.ts, the rule the KST study shares) or not the answer object is `invalid` with
 * its reason and never scored; every other answer is scored with the current scorer.
 */
export function psiResultHandler(course: PsiCourse, isSimulated: (model: string) => boolean, seed: string): ResultHandler<PsiCellMeta> {
  return {
    recordSchema: PsiRecordSchema,
    finalRecord(job: Job<PsiCellMeta>, _request: CompletionRequest, outcome: CellOutcome): Record<string, unknown> {
      const m = job.meta;
      const simulated = isSimulated(job.model);
      const record: Record<string, unknown> = {
        run_id: job.runId,
        round: m.round,
        scenario: m.scenario,
        variant: m.variant,
        model: job.model,
        simulated,
        seed,
      };
      if (m.parentRunId !== undefined) record['parent_run_id'] = m.parentRunId;
      if (outcome.kind === 'missing') {
        return { ...record, status: 'missing', text: '', missing_reason: outcome.reason, error_class: outcome.errorClass, attempts: outcome.attempts };
      }
      const { result } = outcome;
      const answered = { finish_reason: result.finishReason, model_version: result.modelVersion, attempts: outcome.attempts };
      const verdict = answerOutcome(result);
      if (verdict.kind !== 'answer') {
        return { ...record, status: 'invalid', reason: verdict.reason, detail: verdict.detail, text: '', raw_text: result.text, ...answered };
      }
      const text = extractAnswer(result.text, simulated);
      if (text === null) {
        return { ...record, status: 'invalid', reason: 'malformed_json', detail: 'the answer is not the {"answer": …} object the schema asks for', text: '', raw_text: result.text, ...answered };
      }
      if (text.trim() === '') {
        return { ...record, status: 'missing', text: '', missing_reason: 'empty answer', attempts: outcome.attempts };
      }
      const scenario = psi.getScenario(course, m.scenario);
      const scoring = psi.scoreResponse(text, scenario, course);
      return {
        ...record,
        status: 'valid',
        text,
        scores: { psi: scoring.psi, ...scoring.subscores },
        ...(m.checklist !== undefined ? { checklist: m.checklist } : {}),
        ...answered,
      };
    },
  };
}

/**
 * sha256 of every cell's system and user prompt, in design order: the prompts come from the course
 * files and from this version's prompt builders, so a resume whose builders word the prompts
 * otherwise (a course without a `course` field, say) is refused instead of mixing two texts in one round.
 */
function promptsHash(jobs: ReadonlyArray<Job<PsiCellMeta>>): string {
  const h = createHash('sha256');
  for (const job of jobs) h.update(promptHash(job.request()));
  return h.digest('hex');
}

/** sha256 of the course files, so a resume with edited scenarios is refused. */
function courseHash(dir: string, course: PsiCourse): string {
  const h = createHash('sha256');
  h.update(readFileSync(join(dir, 'scenarios.json')));
  if (course.taxonomy.file) h.update(readFileSync(course.taxonomy.file));
  return h.digest('hex');
}

export interface PsiCollectParams {
  courseDir: string;
  models: string[];
  outDir: string;
  round: 1 | 2;
  round1File?: string;
  scenarios?: string[];
  threshold?: number;
  seed: string;
  concurrency: number;
  baseUrl?: string;
  maxOutputTokens: number;
  timeoutMs: number;
  maxRetries?: number;
  /** `--retry-missing`: request cells whose record is `missing` again (the new record supersedes it). */
  retryMissing?: boolean;
  /** `--batch`: provider batch APIs (openai:/anthropic: models only). */
  batch?: boolean;
  pollIntervalMs?: number;
  resubmitCancelled?: boolean;
  tokensPerMinute?: number;
  retryHorizonMs?: number;
  noPreflight?: boolean;
  /** `--models-file`: per-model base URL, key variable, caps, sampling, thinking. */
  modelsFile?: string;
  /** Injected provider factory (tests); default: simulated tutors locally, others via lib/collect/providers. */
  createProvider?: (spec: string) => Provider;
  /** Injected batch client factory (tests); default lib/collect/providers/batch. */
  createBatchClient?: (spec: string, options: { baseUrl?: string; timeoutMs?: number; model?: ModelOptions }) => BatchTransport;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  progress?: (total: number, initialDone: number) => ProgressSink;
  interrupt?: AbortSignal;
  onNote?: NoteSink;
  retryBaseDelayMs?: number;
}

interface PsiDesign {
  course: PsiCourse;
  jobs: Array<Job<PsiCellMeta>>;
  selection?: { perModel: Record<string, number>; considered: number };
  fingerprint: Record<string, unknown>;
  storeDir: string;
  outFile: string;
}

/**
 * Round 2's jobs from the round-1 file. A file with no scorable defective round-1 case of the given
 * models (empty, another model's records, a model name mistyped) is an empty design: regenerating
 * nothing would otherwise be reported as a complete run. A selection of zero among such cases (all
 * at or above the threshold) is a result, not an error.
 */
function round2Design(params: PsiCollectParams, course: PsiCourse, scenarios: readonly Scenario[]) {
  const file = params.round1File ?? join(params.outDir, 'round1.jsonl');
  if (!existsSync(file)) throw new InputError(`${file}: round-1 records not found (run round 1 first or pass --round1)`, { file });
  const round1 = psi.loadPsiRecords(file, course);
  const wanted = new Set(scenarios.map((s) => s.id));
  const r2 = round2Jobs(course, round1.filter((r) => wanted.has(r.scenario)), params.models, params.seed, params.threshold);
  if (r2.considered === 0) {
    const inFile = [...new Set(round1.filter((r) => r.round === 1).map((r) => r.model))].sort();
    throw new EmptyDesignError(
      `${file}: no valid defective round-1 record of ${params.models.join(', ')}${params.scenarios ? ` in scenarios ${params.scenarios.join(', ')}` : ''}, so there is nothing to regenerate (the file's round-1 models: ${inFile.length === 0 ? 'none' : inFile.join(', ')})`,
      { file },
    );
  }
  return { ...r2, round1Hash: createHash('sha256').update(readFileSync(file)).digest('hex') };
}

/** Loads the course and builds one round's jobs; refuses empty and duplicate designs. Writes nothing. */
function preparePsiDesign(params: PsiCollectParams): PsiDesign {
  if (params.models.length === 0) throw new EmptyDesignError('--models is empty: the design has no cell', { item: 'models' });
  for (const m of params.models) parseModelSpec(m);
  if (params.scenarios !== undefined) {
    if (params.scenarios.length === 0) throw new EmptyDesignError('--scenarios is empty: the design has no cell', { item: 'scenarios' });
    const dup = params.scenarios.find((id, i) => params.scenarios!.indexOf(id) !== i);
    if (dup !== undefined) throw new InputError(`--scenarios lists ${dup} twice (its cells would be requested and billed twice)`, { item: dup });
  }
  const course = psi.loadPsiCourse(params.courseDir);
  const scenarios = params.scenarios ? params.scenarios.map((id) => psi.getScenario(course, id)) : course.scenarios;
  if (scenarios.length === 0) throw new EmptyDesignError(`${params.courseDir}: the course has no scenarios: the design has no cell`, { file: params.courseDir });
  // Model specs that differ only in characters the run ID replaces (a:b, a/b) would share every run ID.
  const byToken = new Map<string, string>();
  for (const m of params.models) {
    const other = byToken.get(modelToken(m));
    if (other !== undefined) {
      throw new InputError(`--models: ${other} and ${m} map to the same run-ID token ${modelToken(m)} (their cells would collide); list one of them`, { item: m });
    }
    byToken.set(modelToken(m), m);
  }
  const fingerprint: Record<string, unknown> = {
    round: params.round,
    models: params.models,
    scenarios: scenarios.map((s) => s.id),
    seed: params.seed,
    course: courseHash(params.courseDir, course),
  };
  let jobs: Array<Job<PsiCellMeta>>;
  let selection: PsiDesign['selection'];
  if (params.round === 1) {
    jobs = round1Jobs(course, scenarios, params.models, params.seed);
  } else {
    const r2 = round2Design(params, course, scenarios);
    jobs = r2.jobs;
    selection = { perModel: r2.perModel, considered: r2.considered };
    fingerprint['threshold'] = params.threshold ?? psi.DEFAULT_WEAK_THRESHOLD;
    fingerprint['round1'] = r2.round1Hash;
  }
  checkUniqueJobs(jobs);
  fingerprint['prompts'] = promptsHash(jobs);
  return {
    course,
    jobs,
    selection,
    fingerprint,
    storeDir: join(params.outDir, 'runs', `round${params.round}`),
    outFile: join(params.outDir, `round${params.round}.jsonl`),
  };
}

/** `psi collect --dry-run`: pending calls, tokens and cost of one round; nothing is sent or written. */
export function dryRunPsi(rawParams: PsiCollectParams): DryRunReport {
  const { params } = resolveTargets(rawParams);
  if (params.batch) checkBatchModels(params.models);
  const design = preparePsiDesign(params);
  return dryRunStudy({ storeDir: design.storeDir, jobs: design.jobs, prices: loadPriceTable() }, params);
}

/** round<N>.jsonl: the final records in file order, without the store's `completed_at`. */
function writeRoundFile(outFile: string, records: ReadonlyArray<Record<string, unknown>>): void {
  const lines = records.map((r) => {
    const { completed_at: _drop, ...rest } = r;
    return JSON.stringify(rest);
  });
  writeFileAtomic(outFile, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
}

/** One PSI round as the runner's study: its jobs, handler, fingerprint, run.json facts and round<N>.jsonl. */
function psiCollection(params: PsiCollectParams, design: PsiDesign, targets: ResolvedTargets): StudyCollection<PsiCellMeta> {
  const { course, selection, fingerprint } = design;
  return {
    storeDir: design.storeDir,
    jobs: design.jobs,
    prices: loadPriceTable(),
    fingerprint,
    runInfo: ({ deterministic, batch, settings }) => ({
      study: 'psi',
      ...fingerprint,
      deterministic,
      ...(batch ? { batch: true } : {}),
      ...(selection ? { selection } : {}),
      ...(settings ? { settings } : {}),
    }),
    handler: (isSimulated) => psiResultHandler(course, isSimulated, params.seed),
    finalize: (records) => writeRoundFile(design.outFile, records),
    createProvider: (spec) => {
      if (params.createProvider) return params.createProvider(spec);
      // The simulated tutors answer from the course's scenarios.
      return parseModelSpec(spec).provider === 'simulated' ? createProvider(spec, { psiCourse: course }) : createProvider(spec, { ...targets.optionsFor(spec), ...(params.onNote ? { onNote: (note: string) => params.onNote!(spec, note, 'call') } : {}) });
    },
    createBatchClient: (spec) => (params.createBatchClient ?? createBatchClient)(spec, { ...targets.optionsFor(spec), timeoutMs: params.timeoutMs }),
  };
}

/** Refuses a store holding a run of another design (the runner's check, on this design's own fingerprint keys). */
function refuseOtherRun(design: PsiDesign): void {
  const run = storePaths(design.storeDir).run;
  const before = readRunJson(run)?.['fingerprint'] as Record<string, unknown> | undefined;
  if (before === undefined) return;
  // The runner adds keys of its own (the models' settings); compare the design's keys only.
  const same = Object.fromEntries(Object.keys(design.fingerprint).map((k) => [k, before[k]]));
  checkFingerprint(run, { fingerprint: same }, design.fingerprint);
}

/** Runs one round; returns the runner's result plus the round file and the selection counts of round 2. */
export async function collectPsi(rawParams: PsiCollectParams) {
  const { params, targets } = resolveTargets(rawParams, rawParams.createProvider === undefined);
  const design = preparePsiDesign(params);
  const { selection, outFile } = design;
  if (design.jobs.length === 0) {
    // Round 2 with no weak case selected: nothing to regenerate is a result, not an empty design. The
    // runner, which refuses another design's directory, is not called, so refuse it here: emptying the
    // round2.jsonl of a run with another threshold would drop its (paid) regenerations from the file.
    refuseOtherRun(design);
    writeFileAtomic(outFile, '');
    // Deterministic (the label "simulated, deterministic") only when every model is a simulated tutor.
    const deterministic = params.models.every((m) => parseModelSpec(m).provider === 'simulated');
    return { status: 'complete' as const, total: 0, resumed: 0, resumedMissing: 0, written: {}, pending: 0, attempts: 0, simulatedAttempts: 0, costUsd: 0, paths: storePaths(design.storeDir), outFile, selection, deterministic };
  }
  const dispatch = { ...params, maxRetries: params.maxRetries ?? 5 };
  const result = await runStudyCollection(psiCollection(params, design, targets), dispatch, targets, {
    env: process.env,
    sleep: params.sleep,
    progress: params.progress,
    interrupt: params.interrupt,
    onNote: params.onNote,
    retryBaseDelayMs: params.retryBaseDelayMs,
  });
  return { ...result, outFile, selection };
}
