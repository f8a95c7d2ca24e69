import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { MAX_FLIPS, MAX_RESAMPLES } from '../analysis/caps';
import { MAX_CONCURRENCY, MAX_ORDERS, MAX_OUTPUT_TOKENS, MAX_RETRIES } from '../collect/caps';
import { MAX_TIMER_MS } from '../collect/providers/attempt';
import { CONDITIONS } from '../conditions';
import { InputError } from '../errors';
import { parseJsonFile } from '../io/json';
import { isOsError } from '../io/os-error';
import { readInputText, readUtf8File } from '../io/read';
import { buildDomain, parseDomain, type Domain } from '../kst';
import { importStructure, MATRIX_FORMATS, readItemDescriptions, STRUCTURE_KINDS } from '../kst-io';

/**
 * The study manifest: one JSON file, `<study dir>/study.json`, that names everything a study needs —
 * its domains, its models, its design, optionally a PSI part, and (only for a replication) the paper it
 * replicates. Every path in it is relative to the study folder (or absolute). `kstbench study init`
 * writes one, `study check` validates it and everything it names, `study run` runs it; notebooks read
 * it through `loadStudy`. The shipped replication is such a study: `data/raw/study.json`.
 *
 * JSON has no comments: any object may carry a `$comment` (a string or an array of lines), which is
 * ignored. The schema is documented field by field in docs/study.md.
 */

/** The manifest's file name inside a study folder. */
export const MANIFEST_FILE = 'study.json';
/** The folder of the shipped replication study (relative to the project root). */
export const SHIPPED_STUDY_DIR = join('data', 'raw');
/** The papers a study may declare it replicates (the project's citation keys). */
export const PAPER_KEYS = ['KST-2026', 'PSI-2026'] as const;
export type PaperKey = (typeof PAPER_KEYS)[number];

const Comment = z.union([z.string(), z.array(z.string())]).optional();
const RelPath = z.string().trim().min(1, 'must be a non-empty path');
/** Largest `design.repeats` and `design.states.sample` (the bounds of `study init`'s flags). */
export const MAX_REPEATS = 1000;
export const MAX_SAMPLE = 10_000_000;

const Seed = z.union([z.string().min(1), z.number().int().nonnegative()]).transform((s) => String(s));

/**
 * One domain entry: a path to a domain file (`*.json`, any of the four structure forms) or to a
 * folder of them, or `{ "import": FILE, "id": … }` for a kstIO structure file (matrix, KST Tools,
 * SRBT, CSV, surmise CSV) imported as `kstbench import` does.
 */
export const DomainEntrySchema = z.union([
  RelPath,
  z.strictObject({
    $comment: Comment,
    import: RelPath,
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be a domain ID of letters, digits, "_", "." or "-"'),
    title: z.string().trim().min(1).optional(),
    format: z.enum(MATRIX_FORMATS).optional(),
    kind: z.enum(STRUCTURE_KINDS).optional(),
    /** An `id,description` CSV naming the items. */
    items: RelPath.optional(),
    reduce_notions: z.boolean().optional(),
  }),
]);
export type DomainEntry = z.infer<typeof DomainEntrySchema>;

/** Which knowledge states each (domain, condition, model, order) cell set covers. */
export const StatesDesignSchema = z.union([
  z.literal('all'),
  z.strictObject({
    $comment: Comment,
    /** Draws of `sampleStates` per domain (distinct states are collected once each). */
    sample: z.int().positive().max(MAX_SAMPLE),
    seed: Seed,
  }),
]);

export const DesignSchema = z.strictObject({
  $comment: Comment,
  states: StatesDesignSchema.default('all'),
  conditions: z.array(z.enum(CONDITIONS)).default([...CONDITIONS]),
  // The bounds of `kstbench collect`'s flags (lib/collect/caps.ts): a value the CLI refuses would
  // otherwise reach the dispatcher (a billion-slot pool, a timer Node cannot set).
  orders: z.int().positive().max(MAX_ORDERS).default(2),
  /** Responses per cell (model, domain, state, condition, order). */
  repeats: z.int().positive().max(MAX_REPEATS).default(1),
  /** Seed of the collector's cell shuffle and retry jitter. */
  seed: Seed.default('20260908'),
  max_output_tokens: z.int().positive().max(MAX_OUTPUT_TOKENS).default(16000),
  concurrency: z.int().positive().max(MAX_CONCURRENCY).default(4),
  timeout_s: z.int().positive().max(Math.floor(MAX_TIMER_MS / 1000)).default(600),
  max_retries: z.int().nonnegative().max(MAX_RETRIES).default(5),
});
export type StudyDesign = z.infer<typeof DesignSchema>;

export const AnalysisSchema = z.strictObject({
  $comment: Comment,
  seed: Seed.default('20260908'),
  resamples: z.int().positive().max(MAX_RESAMPLES).default(10_000),
  flips: z.int().positive().max(MAX_FLIPS).default(100_000),
});

export const PsiPartSchema = z.strictObject({
  $comment: Comment,
  scenarios: RelPath,
  taxonomy: RelPath.optional(),
  /** Human ratings (lib/psi/ratings.ts form): Table VI-style agreement is rebuilt from them. */
  ratings: RelPath.optional(),
  /** Folder of round1.jsonl / round2.jsonl (default: psi). */
  collection: RelPath.default('psi'),
  models: z.array(z.string().min(1)).default([]),
});

export const ResponsesImportSchema = z.strictObject({
  $comment: Comment,
  /** An external response table (CSV or JSONL, see lib/study/import.ts) used instead of collecting. */
  file: RelPath,
  format: z.enum(['csv', 'jsonl']).optional(),
});

export const StudyManifestSchema = z
  .strictObject({
    $comment: Comment,
    manifest_version: z.literal(1),
    title: z.string().trim().min(1),
    domains: z.array(DomainEntrySchema).min(1, 'name at least one domain file, folder or import'),
    /** Model specs `provider:model`, each optionally `spec@URL`. */
    models: z.array(z.string().trim().min(1)).default([]),
    /** A models file (lib/collect/providers/README.md: per-model base URL, key variable, caps, …). */
    models_file: RelPath.optional(),
    design: DesignSchema.default(DesignSchema.parse({})),
    analysis: AnalysisSchema.default(AnalysisSchema.parse({})),
    psi: PsiPartSchema.optional(),
    /** Bring your responses: analyse this table instead of collecting. */
    responses: ResponsesImportSchema.optional(),
    /** Only for a replication: the paper(s) whose published numbers are set beside the computed ones. */
    replicates: z.array(z.enum(PAPER_KEYS)).default([]),
    /** Folders of the study, relative to the study folder. */
    collection: RelPath.default('collection'),
    output: RelPath.default('output'),
    report: RelPath.default('report'),
  })
  .superRefine((m, ctx) => {
    if (m.models.length === 0 && m.models_file === undefined && m.responses === undefined) {
      ctx.addIssue({ code: 'custom', path: ['models'], message: 'name at least one model (or a models_file, or responses to import)' });
    }
    if (new Set(m.models).size !== m.models.length) ctx.addIssue({ code: 'custom', path: ['models'], message: 'lists a model twice' });
    if (new Set(m.design.conditions).size !== m.design.conditions.length) {
      ctx.addIssue({ code: 'custom', path: ['design', 'conditions'], message: 'lists a condition twice' });
    }
  });
export type StudyManifest = z.infer<typeof StudyManifestSchema>;
/** What a writer gives (defaults may be left out). */
export type StudyManifestInput = z.input<typeof StudyManifestSchema>;

/** A loaded study: its folder, manifest file, the parsed manifest and every folder resolved. */
export interface Study {
  dir: string;
  file: string;
  manifest: StudyManifest;
  /** Resolves a manifest path against the study folder (absolute paths stay as they are). */
  resolve(path: string): string;
  paths: { collection: string; output: string; report: string; psiCollection: string | null };
}

/** Parses the text of a manifest (pure); InputError `file: field.path: problem`. */
export function parseStudyManifest(text: string, file: string): StudyManifest {
  return parseJsonFile(text, file, StudyManifestSchema);
}

/** `DIR` or `DIR/study.json` → the study folder and the manifest file. */
export function studyLocation(dirOrFile: string): { dir: string; file: string } {
  if (basename(dirOrFile) === MANIFEST_FILE) return { dir: join(dirOrFile, '..'), file: dirOrFile };
  return { dir: dirOrFile, file: join(dirOrFile, MANIFEST_FILE) };
}

/** Reads and validates a study's manifest; InputError naming the file when it is missing or bad. */
export function loadStudy(dirOrFile: string): Study {
  const { dir, file } = studyLocation(dirOrFile);
  if (!existsSync(file)) throw new InputError(`${file}: no study manifest here (create one with: kstbench study init ${dir})`, { file });
  // lib/io's reader names the file for every failure: a folder where study.json should be gave
  // "cannot read (unknown path): EISDIR" through readFileSync, whose EISDIR carries no path.
  return studyFrom(dir, file, parseStudyManifest(readInputText(file, 'study manifest'), file));
}

/** A Study from an already parsed manifest (used by `study init` before it writes). */
export function studyFrom(dir: string, file: string, manifest: StudyManifest): Study {
  const resolve = (path: string) => (isAbsolute(path) ? path : join(dir, path));
  return {
    dir,
    file,
    manifest,
    resolve,
    paths: {
      collection: resolve(manifest.collection),
      output: resolve(manifest.output),
      report: resolve(manifest.report),
      psiCollection: manifest.psi ? resolve(manifest.psi.collection) : null,
    },
  };
}

/** True when the study declares it replicates `paper` (only then are the paper's numbers shown). */
export function replicatesPaper(study: Pick<Study, 'manifest'>, paper: PaperKey): boolean {
  return study.manifest.replicates.includes(paper);
}

/** The manifest field of domain entry i, for error messages (`study.json: domains[2]`). */
function domainField(study: Study, i: number): string {
  return `${study.file}: domains[${i}]`;
}

function readText(path: string, field: string): string {
  return readUtf8File(path, (reason) => `${field}: cannot read ${path} (${reason})`);
}

/** One domain of the study with the domain-file JSON it was built from (written for the collector). */
export interface DomainSource {
  domain: Domain;
  text: string;
}

function listJson(dir: string, field: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.json')).sort().map((n) => join(dir, n));
  } catch (err) {
    throw new InputError(`${field}: cannot read the folder ${dir} (${isOsError(err) ? err.code : String(err)})`, { file: dir });
  }
}

/** Loads one domain entry (a file, a folder of files, or a kstIO import). */
function loadDomainEntry(study: Study, entry: DomainEntry, i: number): DomainSource[] {
  const field = domainField(study, i);
  if (typeof entry === 'string') {
    const path = study.resolve(entry);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch (err) {
      throw new InputError(`${field}: ${path} does not exist (${isOsError(err) ? err.code : String(err)})`, { file: path });
    }
    const files = isDir ? listJson(path, field) : [path];
    if (isDir && files.length === 0) throw new InputError(`${field}: the folder ${path} has no domain files (*.json)`, { file: path });
    return files.map((file) => {
      const text = readText(file, field);
      return { domain: parseDomain(text, file), text };
    });
  }
  const path = study.resolve(entry.import);
  const itemsFile = entry.items === undefined ? undefined : study.resolve(entry.items);
  const items = itemsFile === undefined ? undefined : readItemDescriptions(readText(itemsFile, `${field}.items`), itemsFile);
  const file = importStructure(readText(path, `${field}.import`), path, {
    id: entry.id,
    ...(entry.title !== undefined ? { title: entry.title } : {}),
    ...(entry.format !== undefined ? { format: entry.format } : {}),
    ...(entry.kind !== undefined ? { kind: entry.kind } : {}),
    ...(items !== undefined ? { items } : {}),
    ...(entry.reduce_notions ? { reduceNotions: true } : {}),
  });
  return [{ domain: buildDomain(file, path), text: `${JSON.stringify(file, null, 2)}\n` }];
}

/**
 * Every domain of the study with its source text, sorted by id (as the collector orders them).
 * InputError naming the manifest entry or the domain file: unreadable path, bad structure (cycle,
 * unknown ID, …), two domains with the same id.
 */
export function loadStudyDomainSources(study: Study): DomainSource[] {
  const all = study.manifest.domains.flatMap((entry, i) => loadDomainEntry(study, entry, i));
  const seen = new Map<string, string>();
  for (const { domain: d } of all) {
    const other = seen.get(d.id);
    if (other !== undefined) throw new InputError(`${study.file}: domains: domain id "${d.id}" is given twice (${other} and ${d.file ?? '?'})`, { file: study.file, item: d.id });
    seen.set(d.id, d.file ?? '?');
  }
  return all.sort((a, b) => (a.domain.id < b.domain.id ? -1 : a.domain.id > b.domain.id ? 1 : 0));
}

/** Every domain of the study, sorted by id (see loadStudyDomainSources). */
export function loadStudyDomains(study: Study): Domain[] {
  return loadStudyDomainSources(study).map((s) => s.domain);
}

/**
 * The folder of domain files the collector reads (`collect --domains`): the manifest's folder when it
 * names exactly one folder, else null (then `study run` writes the loaded domains to
 * `<output>/domains/` first).
 */
export function singleDomainDir(study: Study): string | null {
  const [only, ...rest] = study.manifest.domains;
  if (rest.length > 0 || typeof only !== 'string') return null;
  const path = study.resolve(only);
  try {
    return statSync(path).isDirectory() ? path : null;
  } catch {
    return null;
  }
}
