import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPsiCourse, parsePsiTaxonomy } from '../../lib/psi';

/** The hand-made fixture under test/fixtures/psi (7 concepts, scenarios S01 and S02). */
export const FIXTURE_DIR = join(__dirname, '..', 'fixtures', 'psi');
export const TAXONOMY_TEXT = readFileSync(join(FIXTURE_DIR, 'taxonomy.json'), 'utf8');
export const SCENARIOS_TEXT = readFileSync(join(FIXTURE_DIR, 'scenarios.json'), 'utf8');
export const fixtureCourse = () => loadPsiCourse(FIXTURE_DIR);
export const fixtureTaxonomy = () => parsePsiTaxonomy(TAXONOMY_TEXT, 'taxonomy.json');

/** A short tutoring answer to fixture scenario S01 (target Apply; knows variables, print_function, strings, lists). */
export const T1 = [
  'Great question! Think of a for loop as a conveyor belt.',
  'Step 1: make a list of names.',
  '```python',
  'names = ["Ana", "Bo"]',
  'for name in names:',
  '    print(name)',
  '```',
  'Output: Ana and Bo on separate lines.',
  'Can you change the list to hold three names?',
].join('\n');
