import { join } from 'node:path';
import { collectKst, type CollectDeps, type CollectOutcome } from '../collect/collect';
import { writeFilesAtomic } from '../io/atomic';
import { builtDomainsDir, collectParams, sampledStates, statesFilePath } from './design';
import { importStudyResponses } from './import';
import { loadStudyDomainSources, singleDomainDir, type Study } from './manifest';
import { checkStudy } from './check';
import { repeatDir, repeatProviderFactory, repeatsFilePath, repeatsFileText, studyRepeats, type Repeat } from './repeats';

/**
 * `kstbench study collect`: the collector (lib/collect's `collectKst`, resumable as `kstbench collect`)
 * on the study's design, or — for a study that brings its responses — the import. What the collector
 * needs besides the manifest is written under `<output>/design/` first: the domain files when the
 * manifest does not name exactly one folder of them, and the seeded state sample.
 */

/** One repeat's collection (its directory and the collector's outcome). */
export interface RepeatOutcome {
  repeat: Repeat;
  dir: string;
  outcome: CollectOutcome;
}

/**
 * `outcome` is the last repeat collected: the first one that did not complete (later repeats are not
 * started), or the last repeat. `repeats` has every repeat collected by this run, in order.
 */
export type CollectStepResult = { kind: 'collected'; outcome: CollectOutcome; repeats: RepeatOutcome[] } | { kind: 'imported'; file: string; rows: number; models: string[] };

/** Writes the collector's inputs (domain folder, states file) and returns their paths. */
export function prepareCollectorInputs(study: Study): { domainsDir: string; statesFile: string | null } {
  const sources = loadStudyDomainSources(study);
  const domains = sources.map((s) => s.domain);
  const samples = sampledStates(study, domains);
  const files: Array<{ path: string; data: string }> = [];
  let domainsDir = singleDomainDir(study);
  if (domainsDir === null) {
    domainsDir = builtDomainsDir(study);
    for (const s of sources) files.push({ path: join(domainsDir, `${s.domain.id}.json`), data: s.text });
  }
  const statesFile = samples ? statesFilePath(study) : null;
  if (samples && statesFile) files.push({ path: statesFile, data: `${JSON.stringify(samples, null, 2)}\n` });
  if (files.length > 0) writeFilesAtomic(files);
  return { domainsDir, statesFile };
}

/** How this collection run treats cells already recorded. */
export interface CollectStudyOptions {
  /** `--retry-missing`: cells whose final record is `missing` are requested again (as `kstbench collect`). */
  retryMissing?: boolean;
}

/**
 * The fix the collector names when a collection folder holds another design: a study has no --out
 * (its folder is fixed by study.json), so the user either undoes the change or moves the folder aside.
 */
export function studyOtherDesignFix(study: Study): string {
  return `undo the change to ${study.file}'s design, or move ${study.paths.collection} aside to collect the changed design afresh`;
}

/**
 * What a study's user can do when the pre-flight's answer is still cut off: the allowance is the
 * manifest's (design.max_output_tokens, or max_output_tokens in its models file), not a flag, and the
 * study has no --out or --no-preflight; the allowance is part of the design, so the collection is moved aside.
 */
export function studyCutOffFix(study: Study): string {
  const file = study.manifest.models_file === undefined ? undefined : study.resolve(study.manifest.models_file);
  const where = file === undefined ? ' (or lower the model\'s reasoning effort in a models_file)' : ` (or max_output_tokens for this model in ${file}), or lower its reasoning effort there`;
  return `raise design.max_output_tokens in ${study.file}${where}, then move ${study.paths.collection} aside to collect afresh, since the allowance is part of the design`;
}

/**
 * Runs the check, then collects (or imports). The check throws before anything is written. With
 * repeats, each repeat is collected in turn into its own directory (lib/study/repeats.ts), after
 * `<collection>/repeats.json` records their seeds; a repeat that does not complete stops the run (the
 * same command resumes it, and the repeats already complete are not requested again).
 */
export async function collectStudy(
  study: Study,
  deps: CollectDeps = {},
  onRepeat?: (repeat: Repeat, of: number) => void,
  options: CollectStudyOptions = {},
): Promise<CollectStepResult> {
  const check = checkStudy(study, deps.env ?? process.env);
  if (study.manifest.responses) return { kind: 'imported', ...importStudyResponses(study, check.domainObjects) };
  const { domainsDir, statesFile } = prepareCollectorInputs(study);
  const repeatsText = repeatsFileText(study);
  if (repeatsText !== null) writeFilesAtomic([{ path: repeatsFilePath(study), data: repeatsText }]);
  const repeats = studyRepeats(study);
  const done: RepeatOutcome[] = [];
  for (const repeat of repeats) {
    onRepeat?.(repeat, repeats.length);
    const dir = repeatDir(study, repeat);
    const factory = repeatProviderFactory(repeat, deps.createProvider);
    const params = { ...collectParams(study, domainsDir, statesFile), outDir: dir, seed: repeat.collector_seed, ...(options.retryMissing ? { retryMissing: true } : {}) };
    const outcome = await collectKst(params, { otherDesignFix: studyOtherDesignFix(study), cutOffFix: studyCutOffFix(study), ...deps, ...(factory ? { createProvider: factory } : {}) });
    done.push({ repeat, dir, outcome });
    if (outcome.status !== 'complete') break;
  }
  return { kind: 'collected', outcome: done[done.length - 1]!.outcome, repeats: done };
}
