/**
 * Where the stored replicate statistics live (written by scripts/replicates.ts): data/replicates/kst.json
 * and data/replicates/psi.json under the project root. Read once per process and paper.
 */
import { join } from 'node:path';
import { projectRoot } from '../notebook/project';
import { loadClaimReplicates, type ClaimReplicates } from '../records/claim-replicates';

const cache = new Map<string, ClaimReplicates>();

/** The stored file of a paper's replicate statistics, relative to the project root. */
export function replicatesFile(paper: 'kst' | 'psi'): string {
  return `data/replicates/${paper}.json`;
}

/** The stored replicate statistics of a paper (InputError naming the file when it is missing or malformed). */
export function defaultReplicates(paper: 'kst' | 'psi'): ClaimReplicates {
  const file = join(projectRoot(), replicatesFile(paper));
  if (!cache.has(file)) cache.set(file, loadClaimReplicates(file));
  return cache.get(file)!;
}
