import { writeFileSync } from 'node:fs';

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

