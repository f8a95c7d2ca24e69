import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Domain } from '../kst';

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * The provenance block `kstbench analyze` adds to analysis.json: the responses file and every domain
 * file with their SHA-256, paths as given (so run both from the same folder to compare outputs).
 */
export function analysisProvenance(responsesFile: string, domains: readonly Domain[]): Record<string, unknown> {
  return {
    inputs: {
      responses: { file: responsesFile, sha256: sha256(responsesFile) },
      domains: domains.map((d) => ({ id: d.id, file: d.file ?? null, sha256: d.file ? sha256(d.file) : null })),
    },
  };
}
