import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors';
import { writeFileAtomic } from '../io';
import * as psi from '../psi';
import type { PsiCourse, PsiRecord, Scenario, Variant } from '../psi';
import { runCollection, type CellOutcome, type Job, type ResultHandler } from './engine';
import { loadPriceTable } from './prices';
import { createProvider } from './providers';
import { parseModelSpec, type CompletionRequest, type Provider } from './providers/types';

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

/** System prompt of round 1 (the round-2 system prompt comes from buildRegenerationPrompt). */
export const ROUND1_SYSTEM = [
  'You are a patient tutor for an introductory Python course.',
  "Answer the student's question in Markdown, taking into account what the student has already learned",
  'and where the course currently is. Reply with the answer to the student only.',
].join(' ');

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
            system: ROUND1_SYSTEM,
            user: psi.formatStudentContext(s, variant),
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
    const prompt = psi.buildRegenerationPrompt(c.scenario, c.variant, c.record.text, c.scoring!);
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

/** The tutor's answer: the `answer` field when the text is that JSON object, else the text itself. */
export function extractAnswer(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const value = JSON.parse(trimmed) as { answer?: unknown };
      if (value && typeof value.answer === 'string') return value.answer;
    } catch {
      // not JSON: the text is the answer
    }
  }
  return text;
}

/** Builds PSI records from engine outcomes, scoring every valid answer with the current scorer. */
export function psiResultHandler(course: PsiCourse, isSimulated: (model: string) => boolean, seed: string): ResultHandler<PsiCellMeta> {
  return {
    finalRecord(job: Job<PsiCellMeta>, _request: CompletionRequest, outcome: CellOutcome): Record<string, unknown> {
      const m = job.meta;
      const record: Record<string, unknown> = {
        run_id: job.runId,
        round: m.round,
        scenario: m.scenario,
        variant: m.variant,
        model: job.model,
        simulated: isSimulated(job.model),
        seed,
      };
      if (m.parentRunId !== undefined) record['parent_run_id'] = m.parentRunId;
      if (outcome.kind === 'missing') {
        return { ...record, status: 'missing', text: '', missing_reason: outcome.reason, error_class: outcome.errorClass, attempts: outcome.attempts };
      }
      const text = extractAnswer(outcome.result.text);
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
        finish_reason: outcome.result.finishReason,
        model_version: outcome.result.modelVersion,
        attempts: outcome.attempts,
      };
    },
  };
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
  /** Injected provider factory (tests); default: simulated tutors locally, others via lib/collect/providers. */
  createProvider?: (spec: string) => Provider;
}

/** Runs one round; returns the engine result plus the selection counts of round 2. */
export async function collectPsi(params: PsiCollectParams) {
  const course = psi.loadPsiCourse(params.courseDir);
  const scenarios = params.scenarios ? params.scenarios.map((id) => psi.getScenario(course, id)) : course.scenarios;

  const providers = new Map<string, Provider>();
  for (const spec of params.models) {
    const { provider } = parseModelSpec(spec);
    if (params.createProvider) providers.set(spec, params.createProvider(spec));
    else if (provider === 'simulated') providers.set(spec, createProvider(spec, { psiCourse: course }));
    else providers.set(spec, createProvider(spec, params.baseUrl === undefined ? {} : { baseUrl: params.baseUrl }));
  }
  const deterministic = [...providers.values()].every((p) => p.simulated);
  const isSimulated = (m: string) => providers.get(m)!.simulated;

  let jobs: Array<Job<PsiCellMeta>>;
  let selection: { perModel: Record<string, number>; considered: number } | undefined;
  const fingerprint: Record<string, unknown> = {
    round: params.round,
    models: params.models,
    scenarios: scenarios.map((s) => s.id),
    seed: params.seed,
    course: courseHash(params.courseDir, course),
  };
  if (params.round === 1) {
    jobs = round1Jobs(course, scenarios, params.models, params.seed);
  } else {
    const file = params.round1File ?? join(params.outDir, 'round1.jsonl');
    if (!existsSync(file)) throw new InputError(`${file}: round-1 records not found (run round 1 first or pass --round1)`, { file });
    const round1 = psi.loadPsiRecords(file, course);
    const wanted = new Set(scenarios.map((s) => s.id));
    const r2 = round2Jobs(course, round1.filter((r) => wanted.has(r.scenario)), params.models, params.seed, params.threshold);
    jobs = r2.jobs;
    selection = { perModel: r2.perModel, considered: r2.considered };
    fingerprint['threshold'] = params.threshold ?? psi.DEFAULT_WEAK_THRESHOLD;
    fingerprint['round1'] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  const outFile = join(params.outDir, `round${params.round}.jsonl`);
  const result = await runCollection<PsiCellMeta>({
    dir: join(params.outDir, 'runs', `round${params.round}`),
    jobs,
    providerFor: (model) => providers.get(model)!,
    handler: psiResultHandler(course, isSimulated, params.seed),
    concurrency: params.concurrency,
    maxOutputTokens: params.maxOutputTokens,
    timeoutMs: params.timeoutMs,
    seed: params.seed,
    prices: loadPriceTable(),
    deterministic,
    runInfo: { study: 'psi', ...fingerprint, deterministic, ...(selection ? { selection } : {}) },
    fingerprint,
    finalize: (records) => {
      const lines = records.map((r) => {
        const { completed_at: _drop, ...rest } = r as Record<string, unknown>;
        return JSON.stringify(rest);
      });
      writeFileAtomic(outFile, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
    },
  });
  return { ...result, outFile, selection, deterministic };
}
