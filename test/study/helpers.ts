import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadStudy, type Study } from '../../lib/study/manifest';
import { tempDir } from '../support/files';

/** A 6-task fractions curriculum (9 knowledge states). */
export function writeCurriculum(file: string): void {
  writeFileSync(
    file,
    JSON.stringify({
      id: 'fractions',
      title: 'Fractions',
      source: 'test curriculum',
      components: [
        { id: 'F1', description: 'Name the numerator and denominator of a fraction.' },
        { id: 'F2', description: 'Compare fractions with the same denominator.' },
        { id: 'F3', description: 'Find an equivalent fraction.' },
        { id: 'F4', description: 'Add fractions with the same denominator.' },
        { id: 'F5', description: 'Add fractions with different denominators.' },
        { id: 'F6', description: 'Subtract fractions with different denominators.' },
      ],
      prerequisites: [['F1', 'F2'], ['F1', 'F3'], ['F2', 'F4'], ['F3', 'F5'], ['F4', 'F5'], ['F5', 'F6']],
    }),
  );
}


/** A study folder in a new temporary directory: the fractions curriculum and a manifest (title T, domains fractions.json, then `manifest`). */
export function fractionsStudy(prefix: string, manifest: Record<string, unknown>): Study {
  const dir = tempDir(prefix);
  writeCurriculum(join(dir, 'fractions.json'));
  writeFileSync(join(dir, 'study.json'), JSON.stringify({ manifest_version: 1, title: 'T', domains: ['fractions.json'], ...manifest }));
  return loadStudy(dir);
}
