import { join } from 'node:path';
import { type CollectParams } from '../collect/collect';
import { countStates, sampleStates, type Domain, type StateSample } from '../kst';
import type { Study } from './manifest';

/**
 * The study's design turned into what the collector takes: the state selection (every state, or one
 * seeded `sampleStates` draw per domain) and the `CollectParams` of `kstbench collect`.
 */

/** Per domain, the sampled states (null for `states: "all"`: the collector enumerates them). */
export function sampledStates(study: Study, domains: readonly Domain[]): StateSample[] | null {
  const states = study.manifest.design.states;
  if (states === 'all') return null;
  // One seed string per domain, derived from the manifest's seed, so adding a domain leaves the others' samples unchanged.
  return domains.map((d) => sampleStates(d, { size: states.sample, seed: `${states.seed}:${d.id}` }));
}

/** The states file the collector reads for a sampled design: `<output>/design/states.json`. */
export function statesFilePath(study: Study): string {
  return join(study.paths.output, 'design', 'states.json');
}

/** The folder of domain files the collector reads when the manifest does not name exactly one folder. */
export function builtDomainsDir(study: Study): string {
  return join(study.paths.output, 'design', 'domains');
}

/** Number of states per domain in the design. */
export function statesPerDomain(domains: readonly Domain[], samples: readonly StateSample[] | null): Map<string, number> {
  const out = new Map<string, number>();
  domains.forEach((d, i) => out.set(d.id, samples ? samples[i]!.states.length : countStates(d)));
  return out;
}

/** Cells of the design: states × conditions × orders × repeats per model. */
export function cellsPerModel(study: Study, states: ReadonlyMap<string, number>): number {
  const d = study.manifest.design;
  let total = 0;
  for (const n of states.values()) total += n;
  return total * d.conditions.length * d.orders * d.repeats;
}

/**
 * The collector parameters of the study (paths resolved against the study folder), for one collection
 * directory: with repeats, `study collect` sets each repeat's directory and seed (lib/study/repeats.ts).
 */
export function collectParams(study: Study, domainsDir: string, statesFile: string | null): CollectParams {
  const m = study.manifest;
  const d = m.design;
  return {
    domainsDir,
    models: m.models,
    outDir: study.paths.collection,
    conditions: [...d.conditions],
    orders: d.orders,
    concurrency: d.concurrency,
    maxOutputTokens: d.max_output_tokens,
    timeoutMs: d.timeout_s * 1000,
    maxRetries: d.max_retries,
    seed: d.seed,
    ...(m.models_file !== undefined ? { modelsFile: study.resolve(m.models_file) } : {}),
    ...(statesFile !== null ? { statesFile } : {}),
  };
}
