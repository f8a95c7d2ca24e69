import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileComparison } from './kst-collection';
import { z } from 'zod';
import { readJsonFile } from '../io/json';

/**
 * What notebook 02 says after comparing its simulated re-run with the shipped corpus. The simulated
 * collection is a function of the seed (it orders the design cells and drives the simulated answers),
 * so a different seed is expected to give different files — that is not a reproducibility failure and
 * must not read like one. Only with the corpus's own seed is a difference reported as DIFFERENT.
 */

/** The seed the shipped corpus was collected with (its run.json `params.seed`), or undefined when not recorded. */
export function collectionSeed(dir: string): string | undefined {
  const file = join(dir, 'run.json');
  if (!existsSync(file)) return undefined;
  try {
    const seed = readJsonFile(file, z.object({ params: z.object({ seed: z.unknown() }).optional() })).params?.seed;
    return typeof seed === 'string' ? seed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line on the comparison. Examples: all identical → "The re-run is byte-identical …"; seed "7"
 * against a corpus of "20260908" → "Seed 7 is not the shipped corpus's seed 20260908: … expected to
 * differ …"; same seed, a file differs → "DIFFERENT: responses.jsonl …".
 */
export function collectionCheckMessage(comparison: readonly FileComparison[], seed: string, referenceSeed: string | undefined): string {
  const differing = comparison.filter((c) => !c.identical).map((c) => c.file);
  const seedChanged = referenceSeed !== undefined && referenceSeed !== seed;
  if (differing.length === 0) {
    return seedChanged
      ? `The re-run is byte-identical to the shipped simulated corpus, although seed ${seed} is not its seed ${referenceSeed}.`
      : 'The re-run is byte-identical to the shipped simulated corpus.';
  }
  if (seedChanged) {
    return (
      `Seed ${seed} is not the shipped corpus's seed ${referenceSeed}: the seed orders the design cells and drives the simulated ` +
      `answers, so the collection files are expected to differ (${differing.length} of ${comparison.length} do: ${differing.join(', ')}). ` +
      `This is not a reproducibility failure; run with seed ${referenceSeed} to check the corpus byte for byte.`
    );
  }
  return `DIFFERENT: ${differing.join(', ')} (same seed ${seed} as the shipped corpus${referenceSeed === undefined ? ' — not recorded in its run.json' : ''}): the simulated collection did not reproduce.`;
}
