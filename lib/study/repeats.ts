import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import type { CollectDeps } from '../collect/collect';
import { createProvider } from '../collect/providers';
import { InputError } from '../errors';
import { parseJsonFile } from '../io/json';
import { isOsError } from '../io/os-error';
import { withPath } from '../io/target';
import { parseModelSpec } from '../provider/contract';
import type { Study } from './manifest';

/**
 * Repeats per cell (`design.repeats` > 1) without changing the collector's record format, which keeps
 * one final record per cell: each repeat is a collection directory of its own,
 * `<collection>/repeat-<k>/`, collected by the unchanged collector (so each repeat resumes on its own).
 * Repeat 1 uses the design's seed and the simulated profiles as they are, so it equals the collection
 * of the same study with one repeat; repeat k ≥ 2 uses the collector seed `<seed>:repeat-<k>` and
 * renames every simulated profile for its seed strings only (`sim-a` → `sim-a~repeat-<k>`: a different,
 * equally seeded draw of the same parameters, as lib/simulation/kst-respondent/study.ts does for
 * replicates). Real models differ between repeats by their own sampling. The plan of every repeat is
 * recorded in `<collection>/repeats.json` (RepeatsFileSchema). With one repeat nothing changes: the
 * collection is `<collection>/` itself and no repeats.json is written.
 */

export const RepeatSchema = z.strictObject({
  repeat: z.int().positive(),
  /** The repeat's collection directory, relative to the study's collection folder. */
  dir: z.string().min(1),
  /** The collector's seed (cell shuffle, retry jitter) of this repeat. */
  collector_seed: z.string().min(1),
  /** Appended to every simulated profile's name in its seed strings ('' for repeat 1). */
  simulated_seed_suffix: z.string(),
});
export type Repeat = z.infer<typeof RepeatSchema>;

export const RepeatsFileSchema = z.strictObject({ repeats_version: z.literal(1), repeats: z.array(RepeatSchema).min(2) });
export type RepeatsFile = z.infer<typeof RepeatsFileSchema>;

/** The repeats of a study that collects (an imported table has one response per cell: one repeat). */
export function repeatCount(study: Study): number {
  return study.manifest.responses ? 1 : study.manifest.design.repeats;
}

/** The plan of every repeat (see the module comment); one entry, the collection folder itself, for one repeat. */
export function studyRepeats(study: Study): Repeat[] {
  const n = repeatCount(study);
  const seed = study.manifest.design.seed;
  if (n === 1) return [{ repeat: 1, dir: '.', collector_seed: seed, simulated_seed_suffix: '' }];
  return Array.from({ length: n }, (_, i) => {
    const k = i + 1;
    return { repeat: k, dir: `repeat-${k}`, collector_seed: k === 1 ? seed : `${seed}:repeat-${k}`, simulated_seed_suffix: k === 1 ? '' : `~repeat-${k}` };
  });
}

/** The absolute collection directory of one repeat. */
export function repeatDir(study: Study, repeat: Repeat): string {
  return repeat.dir === '.' ? study.paths.collection : join(study.paths.collection, repeat.dir);
}

/** `<collection>/repeats.json`, written by `study collect` when there are two repeats or more. */
export function repeatsFilePath(study: Study): string {
  return join(study.paths.collection, 'repeats.json');
}

/** The text of repeats.json for the study's repeats (null for one repeat: nothing is written). */
export function repeatsFileText(study: Study): string | null {
  const repeats = studyRepeats(study);
  if (repeats.length === 1) return null;
  return `${JSON.stringify(RepeatsFileSchema.parse({ repeats_version: 1, repeats }), null, 2)}\n`;
}

/**
 * The repeats the collection holds, as `study analyze` reads them: repeats.json when the design has two
 * or more (InputError when it is missing or disagrees with the manifest, e.g. repeats changed after
 * collecting), the collection folder itself for one.
 */
export function readStudyRepeats(study: Study): Repeat[] {
  const planned = studyRepeats(study);
  if (planned.length === 1) return planned;
  const file = repeatsFilePath(study);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (isOsError(err) && err.code === 'ENOENT') throw new InputError(`${file}: no repeats collected yet; run: kstbench study collect ${study.dir}`, { file });
    throw withPath(err, file); // read(2) of a directory carries no path
  }
  const stored = parseJsonFile(text, file, RepeatsFileSchema, { lines: true });
  if (JSON.stringify(stored.repeats) !== JSON.stringify(planned)) {
    throw new InputError(
      `${file}: repeats: the collection holds ${stored.repeats.length} repeat(s) with other seeds than the manifest's design (${planned.length}); collect again into an empty collection folder, or restore design.repeats / design.seed`,
      { file, item: 'repeats' },
    );
  }
  return stored.repeats;
}

/**
 * The collector's provider factory for one repeat: simulated profiles renamed by the repeat's seed
 * suffix; every other model made as usual (by `base`, a test's factory, when given). Undefined for
 * repeat 1, so its collection is made exactly as with one repeat.
 */
export function repeatProviderFactory(repeat: Repeat, base: CollectDeps['createProvider']): CollectDeps['createProvider'] {
  if (repeat.simulated_seed_suffix === '') return base;
  return (spec, options) =>
    parseModelSpec(spec).provider === 'simulated'
      ? createProvider(spec, { ...options, simulatedSeedSuffix: repeat.simulated_seed_suffix })
      : (base ?? createProvider)(spec, options);
}

/** The repeat's directory as the report and messages name it (relative to the study folder). */
export function repeatLabel(study: Study, repeat: Repeat): string {
  return relative(study.dir, repeatDir(study, repeat)) || '.';
}
