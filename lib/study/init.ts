import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { InputError } from '../errors';
import { writeFileAtomic } from '../io/atomic';
import { StudyManifestSchema, studyFrom, studyLocation, type PaperKey, type Study } from './manifest';
import type { Condition } from '../conditions';

/**
 * `kstbench study init DIR`: writes a working `DIR/study.json` from flags. JSON has no comments, so the
 * manifest explains itself in `$comment` fields (ignored by the schema), one per part. It refuses to
 * overwrite an existing manifest, and writes nothing unless the result passes the schema.
 */

export interface InitOptions {
  title?: string;
  /** Domain files or folders, as given on the command line (relative to the current folder). */
  domains: string[];
  models: string[];
  modelsFile?: string;
  conditions?: Condition[];
  orders?: number;
  /** Responses per cell (each repeat is its own collection folder; analysis pools them per state). */
  repeats?: number;
  sample?: { size: number; seed: string };
  seed?: string;
  responses?: string;
  replicates?: PaperKey[];
}

/** A path given relative to the current folder, as the manifest stores it: relative to the study folder. */
function fromStudy(dir: string, path: string): string {
  if (isAbsolute(path)) return path;
  return relative(resolve(dir), resolve(path)).split('\\').join('/') || '.';
}

/** The manifest object `study init` writes (pure). */
export function initManifest(dir: string, o: InitOptions): Record<string, unknown> {
  return {
    $comment: [
      'A kstbench study (docs/study.md). Paths are relative to this folder. Check it with',
      `\`kstbench study check ${dir}\` (nothing is sent), run it with \`kstbench study run ${dir}\`.`,
      'Any object may carry a "$comment"; it is ignored.',
    ],
    manifest_version: 1,
    title: o.title ?? 'My kstbench study',
    domains: o.domains.map((p) => fromStudy(dir, p)),
    models: o.models,
    ...(o.modelsFile !== undefined ? { models_file: fromStudy(dir, o.modelsFile) } : {}),
    design: {
      $comment: [
        'states: "all" (every knowledge state) or {"sample": N, "seed": S} (N seeded draws per domain).',
        'Cells per model = states × conditions × orders × repeats. seed: the collector\'s cell shuffle.',
      ],
      states: o.sample ? { sample: o.sample.size, seed: o.sample.seed } : 'all',
      conditions: o.conditions ?? ['P0', 'P1', 'P2', 'P3'],
      orders: o.orders ?? 2,
      repeats: o.repeats ?? 1,
      seed: o.seed ?? '20260908',
      max_output_tokens: 16000,
      concurrency: 4,
      timeout_s: 600,
      max_retries: 5,
    },
    analysis: { $comment: 'Bootstrap resamples and sign flips of the inference, and their seed.', seed: '20260908', resamples: 10000, flips: 100000 },
    ...(o.responses !== undefined ? { responses: { $comment: 'Responses imported from this table instead of collected (lib/study/import.ts).', file: fromStudy(dir, o.responses) } } : {}),
    replicates: o.replicates ?? [],
    collection: 'collection',
    output: 'output',
    report: 'report',
  };
}

/** Writes `DIR/study.json`; InputError when one exists or the flags give an invalid manifest. */
export function initStudy(dirOrFile: string, o: InitOptions): Study {
  const { dir, file } = studyLocation(dirOrFile);
  if (existsSync(file)) throw new InputError(`${file}: a study manifest is already there; edit it, or init another folder`, { file });
  const object = initManifest(dir, o);
  const parsed = StudyManifestSchema.safeParse(object);
  if (!parsed.success) throw new InputError(`${file}: the flags do not make a valid manifest (${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`, { file });
  writeFileAtomic(file, `${JSON.stringify(object, null, 2)}\n`);
  return studyFrom(dir, file, parsed.data);
}
