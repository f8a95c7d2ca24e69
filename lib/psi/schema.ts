import { readUtf8File } from '../io/read';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../errors';
// From their modules, not the folders' indexes: lib/kst's index loads the state sampler and
// seedrandom, which a `kstbench psi score` process never uses (docs/startup.md).
import { parseJsonFile } from '../io/json';
import { readJsonl } from '../io/jsonl';
import { parseDomain, type Domain } from '../kst/domain';
import { checkState } from '../kst/fringe';
import { surmiseRelation } from '../kst/relation';
import { SUM_TOLERANCE } from './parameters';
import { PsiRecordSchema, type PsiRecord } from '../records/psi-record';

/**
 * Number of course weeks when scenarios.json states none (CSCI 150, the paper's course, is a 15-week
 * course); a course that states `course.weeks` is bounded by its own count instead.
 */
export const COURSE_WEEKS = 15;

/**
 * What the tutor prompts say about the course: scenarios.json's `course` (lib/psi/README.md, data
 * contract). `name` and `weeks` give the context line "Course: <name>, week N of <weeks>."; `tutor_for`
 * completes the system prompts' "You are a patient tutor for <tutor_for>." (default "a course in <name>").
 */
export const CourseInfoSchema = z.strictObject({
  name: z.string().trim().min(1),
  weeks: z.int().min(1),
  tutor_for: z.string().trim().min(1).optional(),
});
export type CourseInfo = z.infer<typeof CourseInfoSchema>;

/** Defect categories of the defective prompts (paper §IV-A). */
export const DEFECT_CATEGORIES = [
  'too_short',
  'keyword_only',
  'missing_context',
  'unclear_goal',
  'code_dump',
  'vague_error',
  'wrong_terminology',
  'multi_issue',
] as const;
export type DefectCategory = (typeof DEFECT_CATEGORIES)[number];

/** Bloom's revised taxonomy levels 1..6. */
export const BLOOM_LEVELS = ['Remember', 'Understand', 'Apply', 'Analyze', 'Evaluate', 'Create'] as const;

export { VARIANTS, PsiRecordSchema, RecordedScoresSchema } from '../records/psi-record';
export type { PsiRecord, RecordedScores, Variant } from '../records/psi-record';

/**
 * The concept taxonomy: a KST domain whose every component also has `keywords` (phrases matched in
 * responses) and `week` (1..the course's weeks, week of introduction), plus the prerequisite closure precomputed.
 */
export interface PsiTaxonomy extends Domain {
  /** id → lower-cased keywords (non-empty). */
  keywords: ReadonlyMap<string, readonly string[]>;
  /** id → week of introduction. */
  weeks: ReadonlyMap<string, number>;
  /** Every strict pair p ≺ q of the transitive closure (KST surmise relation minus reflexive pairs). */
  closure: ReadonlyArray<readonly [string, string]>;
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`;
  return out === '' ? '(top level)' : out;
}

function parseJson(text: string, file: string): unknown {
  return parseJsonFile(text, file, z.unknown());
}

function readText(file: string, what: string): string {
  return readUtf8File(file, (reason) => `${file}: cannot read ${what} (${reason})`);
}

/**
 * Parses the PSI concept taxonomy. KST structure (schema, duplicate/unknown IDs, self-loops, cycles) is
 * validated by lib/kst `parseDomain`; on top of that every component must have a non-empty `keywords`
 * list and an integer `week` in 1..`weeks` (the course's length, default 15), and no keyword may belong
 * to two components (a shared keyword would make concept detection ambiguous). Keywords are lower-cased
 * (matching is case-insensitive).
 */
export function parsePsiTaxonomy(text: string, file: string, courseWeeks: number = COURSE_WEEKS): PsiTaxonomy {
  const domain = parseDomain(text, file);
  const keywords = new Map<string, readonly string[]>();
  const weeks = new Map<string, number>();
  const owner = new Map<string, string>();
  domain.components.forEach((c, i) => {
    if (!c.keywords || c.keywords.length === 0) {
      throw new InputError(`${file}: component "${c.id}" (components[${i}]) has no keywords`, { file, item: c.id });
    }
    if (c.week === undefined || !Number.isInteger(c.week) || c.week < 1 || c.week > courseWeeks) {
      throw new InputError(
        `${file}: component "${c.id}" (components[${i}]) needs an integer "week" in 1..${courseWeeks} (the course's length: course.weeks of scenarios.json, ${COURSE_WEEKS} when it states none), got ${String(c.week)}`,
        { file, item: c.id },
      );
    }
    const list = c.keywords.map((k) => k.toLowerCase());
    for (const k of list) {
      const other = owner.get(k);
      if (other !== undefined && other !== c.id) {
        throw new InputError(`${file}: keyword "${k}" of component "${c.id}" is also a keyword of "${other}"`, {
          file,
          item: c.id,
        });
      }
      owner.set(k, c.id);
    }
    keywords.set(c.id, [...new Set(list)]);
    weeks.set(c.id, c.week);
  });
  const closure = surmiseRelation(domain).map(([p, q]) => [p, q] as const);
  return { ...domain, keywords, weeks, closure };
}

export function loadPsiTaxonomy(file: string, courseWeeks: number = COURSE_WEEKS): PsiTaxonomy {
  return parsePsiTaxonomy(readText(file, 'taxonomy file'), file, courseWeeks);
}

const MemoryItemSchema = z.strictObject({
  concept: z.string().min(1),
  days_since_exposure: z.number().nonnegative(),
  strength_days: z.number().positive(),
  importance: z.number().nonnegative(),
});

/** One scenario as stored in scenarios.json (see the PSI data contract in lib/psi/README.md). */
export const ScenarioSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be an ID such as "S01"'),
  // The upper bound is the course's length, checked in parsePsiScenarios.
  week: z.int().min(1),
  title: z.string().trim().min(1),
  target_bloom: z.int().min(1, 'Bloom level must be 1..6').max(6, 'Bloom level must be 1..6'),
  learning_objective: z.string().trim().min(1),
  objective_concepts: z.array(z.string().min(1)).min(1),
  learner: z.object({
    known_concepts: z.array(z.string().min(1)),
    memory: z.array(MemoryItemSchema).min(1),
  }),
  question: z.string().trim().min(1),
  defective: z.object({
    question: z.string().trim().min(1),
    categories: z.array(z.enum(DEFECT_CATEGORIES)).min(1),
  }),
});
export type Scenario = z.infer<typeof ScenarioSchema>;
export type MemoryItem = z.infer<typeof MemoryItemSchema>;

const ScenarioFileSchema = z.object({
  source: z.string().trim().min(1),
  taxonomy: z.string().trim().min(1).default('taxonomy.json'),
  course: CourseInfoSchema.optional(),
  scenarios: z.array(z.unknown()).min(1),
});

/** Taxonomy plus scenarios, cross-checked against each other. */
export interface PsiCourse {
  taxonomy: PsiTaxonomy;
  scenarios: Scenario[];
  scenarioById: ReadonlyMap<string, Scenario>;
  /** Provenance note from scenarios.json. */
  source: string;
  /** The scenarios file the course was loaded from (set by loadPsiCourse; used in error messages). */
  file?: string;
  /** scenarios.json's `course`: the name and length the tutor prompts state (absent: prompts name no subject). */
  info?: CourseInfo;
}

type ScenarioFile = z.infer<typeof ScenarioFileSchema>;

/** The course's length in weeks: scenarios.json's `course.weeks`, COURSE_WEEKS when it states none. */
function courseWeeks(top: ScenarioFile): number {
  return top.course?.weeks ?? COURSE_WEEKS;
}

/** The top level of scenarios.json (source, taxonomy, course, the raw scenario list), or InputError. */
function parseScenarioFile(json: unknown, file: string): ScenarioFile {
  const top = ScenarioFileSchema.safeParse(json);
  if (!top.success) {
    const issue = top.error.issues[0]!;
    throw new InputError(`${file}: invalid scenarios file at ${formatPath(issue.path)}: ${issue.message}`, {
      file,
      item: formatPath(issue.path),
    });
  }
  return top.data;
}

/**
 * Parses scenarios.json against a taxonomy. Throws InputError naming the file, the scenario id and the
 * item for: schema violations (including a Bloom level outside 1..6, an unknown defect category and a
 * week past the course's length), duplicate scenario ids, unknown concepts in objective_concepts /
 * known_concepts / memory, a memory concept listed twice or not among the known concepts, importance
 * weights not summing to 1 (±1e-9), and known concepts that are not prerequisite-closed (not a
 * knowledge state of the taxonomy).
 */
export function parsePsiScenarios(
  text: string,
  file: string,
  taxonomy: PsiTaxonomy,
): { source: string; taxonomyFile: string; info?: CourseInfo; scenarios: Scenario[] } {
  return scenariosOf(parseScenarioFile(parseJson(text, file), file), file, taxonomy);
}

function scenariosOf(top: ScenarioFile, file: string, taxonomy: PsiTaxonomy): { source: string; taxonomyFile: string; info?: CourseInfo; scenarios: Scenario[] } {
  const weeks = courseWeeks(top);
  const seen = new Set<string>();
  const scenarios = top.scenarios.map((raw, i) => {
    const label =
      raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string'
        ? `scenario "${(raw as { id: string }).id}" (scenarios[${i}])`
        : `scenarios[${i}]`;
    const parsed = ScenarioSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InputError(`${file}: ${label}: ${formatPath(issue.path)}: ${issue.message}`, {
        file,
        item: label,
      });
    }
    const s = parsed.data;
    if (s.week > weeks) {
      const how = top.course ? 'course.weeks' : `the default; a longer course states "course": { "name": …, "weeks": N }`;
      throw new InputError(`${file}: ${label}: week: ${s.week} is past the course's ${weeks} weeks (${how})`, { file, item: label });
    }
    if (seen.has(s.id)) throw new InputError(`${file}: duplicate scenario id "${s.id}" at scenarios[${i}]`, { file, item: s.id });
    seen.add(s.id);
    checkScenarioConcepts(s, i, file, taxonomy);
    return s;
  });
  return { source: top.source, taxonomyFile: top.taxonomy, ...(top.course === undefined ? {} : { info: top.course }), scenarios };
}

function checkScenarioConcepts(s: Scenario, i: number, file: string, taxonomy: PsiTaxonomy): void {
  const where = `${file}: scenario "${s.id}" (scenarios[${i}])`;
  const fail = (msg: string, item: string): never => {
    throw new InputError(`${where}: ${msg}`, { file, item: `${s.id}:${item}` });
  };
  const lists: Array<[string, string[]]> = [
    ['objective_concepts', s.objective_concepts],
    ['learner.known_concepts', s.learner.known_concepts],
    ['learner.memory', s.learner.memory.map((m) => m.concept)],
  ];
  for (const [field, ids] of lists) {
    for (const id of ids) if (!taxonomy.index.has(id)) fail(`${field} names unknown concept "${id}"`, id);
    const dup = ids.find((id, j) => ids.indexOf(id) !== j);
    if (dup !== undefined) fail(`${field} lists concept "${dup}" twice`, dup);
  }
  const state = checkState(taxonomy, s.learner.known_concepts);
  if (!state.ok) {
    fail(`learner.known_concepts is not prerequisite-closed (${state.reason})`, state.component ?? 'known_concepts');
  }
  const known = new Set(s.learner.known_concepts);
  for (const m of s.learner.memory) {
    if (!known.has(m.concept)) fail(`learner.memory concept "${m.concept}" is not among learner.known_concepts`, m.concept);
  }
  const total = s.learner.memory.reduce((sum, m) => sum + m.importance, 0);
  if (Math.abs(total - 1) > SUM_TOLERANCE) {
    fail(`learner.memory importance weights must sum to 1, got ${total}`, 'importance');
  }
}

/** Builds a course from already-parsed parts (tests, notebooks). */
export function makePsiCourse(taxonomy: PsiTaxonomy, scenarios: Scenario[], source = '', file?: string, info?: CourseInfo): PsiCourse {
  return {
    taxonomy,
    scenarios,
    scenarioById: new Map(scenarios.map((s) => [s.id, s])),
    source,
    ...(file === undefined ? {} : { file }),
    ...(info === undefined ? {} : { info }),
  };
}

/**
 * Loads `<dir>/scenarios.json` and the taxonomy it names (default `taxonomy.json`, relative to the
 * scenarios file), validating both.
 * @example
 * const path = require('node:path');
 * const course = loadPsiCourse(path.dirname(require.resolve('../../../data/raw/psi/scenarios.json')));
 * course.scenarios.length; // => 30
 */
export function loadPsiCourse(dir: string): PsiCourse {
  const scenariosFile = join(dir, 'scenarios.json');
  const text = readText(scenariosFile, 'scenarios file');
  const top = parseScenarioFile(parseJson(text, scenariosFile), scenariosFile);
  // The taxonomy's weeks are bounded by the course's length, which scenarios.json states.
  const taxonomy = loadPsiTaxonomy(join(dir, top.taxonomy), courseWeeks(top));
  const parsed = scenariosOf(top, scenariosFile, taxonomy);
  return makePsiCourse(taxonomy, parsed.scenarios, parsed.source, scenariosFile, parsed.info);
}

/** Looks a scenario up or throws InputError naming it (and the scenarios file, when known). */
export function getScenario(course: PsiCourse, id: string): Scenario {
  const s = course.scenarioById.get(id);
  if (!s) {
    const where = course.file === undefined ? '' : `${course.file}: `;
    throw new InputError(`${where}unknown scenario "${id}" (known: ${course.scenarios.map((x) => x.id).join(', ')})`, {
      item: id,
      ...(course.file === undefined ? {} : { file: course.file }),
    });
  }
  return s;
}


/**
 * Validates parsed JSONL lines as PSI records: schema, non-empty text for a `valid` record, unique
 * run_id, and (with a course) a known scenario. InputError names file, line and run_id.
 */
export function parsePsiRecords(
  lines: ReadonlyArray<{ line: number; value: unknown }>,
  file: string,
  course?: PsiCourse,
): PsiRecord[] {
  const seen = new Map<string, number>();
  return lines.map(({ line, value }) => {
    const parsed = PsiRecordSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const runId = value && typeof value === 'object' ? (value as { run_id?: unknown }).run_id : undefined;
      const item = typeof runId === 'string' ? ` (run_id "${runId}")` : '';
      throw new InputError(`${file}:${line}${item}: ${formatPath(issue.path)}: ${issue.message}`, { file, line });
    }
    const r = parsed.data;
    if (r.status === 'valid' && r.text.trim() === '') {
      // An empty answer is no answer (the collector records it as `missing`); scored, it would enter
      // every table with S_KD 0.35, S_TV 1, S_CL 1 as if the tutor had said something.
      throw new InputError(
        `${file}:${line} (run_id "${r.run_id}"): text: empty, but status is "valid" (an empty response is no answer: give it status "missing", or "invalid" with a reason)`,
        { file, line, item: r.run_id },
      );
    }
    const prev = seen.get(r.run_id);
    if (prev !== undefined) {
      throw new InputError(`${file}:${line}: duplicate run_id "${r.run_id}" (first on line ${prev})`, {
        file,
        line,
        item: r.run_id,
      });
    }
    seen.set(r.run_id, line);
    if (course && !course.scenarioById.has(r.scenario)) {
      throw new InputError(`${file}:${line}: run_id "${r.run_id}" names unknown scenario "${r.scenario}"`, {
        file,
        line,
        item: r.scenario,
      });
    }
    return r;
  });
}

/** Reads and validates a PSI records JSONL file. */
export function loadPsiRecords(file: string, course?: PsiCourse): PsiRecord[] {
  return parsePsiRecords(readJsonl(file).lines, file, course);
}
