import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPsiCourse, parsePsiTaxonomy, type PsiCourse } from '../../lib/psi';
import type { RegenerationPair, ScoredRecord } from '../../lib/psi/aggregate';

/** The hand-made fixture under test/fixtures/psi (7 concepts, scenarios S01 and S02). */
export const FIXTURE_DIR = join(__dirname, '..', 'fixtures', 'psi');
export const TAXONOMY_TEXT = readFileSync(join(FIXTURE_DIR, 'taxonomy.json'), 'utf8');
export const SCENARIOS_TEXT = readFileSync(join(FIXTURE_DIR, 'scenarios.json'), 'utf8');
export const fixtureCourse = () => loadPsiCourse(FIXTURE_DIR);
export const fixtureTaxonomy = () => parsePsiTaxonomy(TAXONOMY_TEXT, 'taxonomy.json');

/** Another subject and length than the shipped course's (introductory Python, 15 weeks). */
export const STATISTICS_COURSE = { name: 'introductory statistics', weeks: 12, tutor_for: 'a first-year statistics course' };

/**
 * The fixture course with scenarios.json's `course` set to `course` (and `edit` applied to the file's
 * JSON), loaded by loadPsiCourse from a temporary folder as a user's own course would be.
 */
export function fixtureCourseAs(course: unknown, edit: (scenariosFile: any) => void = () => {}): PsiCourse { // eslint-disable-line @typescript-eslint/no-explicit-any
  const dir = mkdtempSync(join(tmpdir(), 'psi-course-'));
  try {
    const scenarios = JSON.parse(SCENARIOS_TEXT);
    scenarios.course = course;
    edit(scenarios);
    writeFileSync(join(dir, 'scenarios.json'), JSON.stringify(scenarios));
    writeFileSync(join(dir, 'taxonomy.json'), TAXONOMY_TEXT);
    return loadPsiCourse(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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

/** Asserts |actual − expected| ≤ eps, naming both values (hand-worked expected values carry rounding). */
export function close(actual: number, expected: number, eps = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= eps, `expected ${expected}, got ${actual}`);
}

/** A round-1/round-2 pair of scenario `id` with the given PSI and SD before and after (other sub-scores 0.5). */
export function regenerationPair(id: string, before: number, after: number, sdBefore = 0.1, sdAfter = 0.1): RegenerationPair {
  const r = (round: 1 | 2, psi: number, sd: number): ScoredRecord => ({
    run_id: `${round === 2 ? 'r2' : 'r1'}-${id}`, round, scenario: id, variant: 'defective', model: 'm', psi,
    subscores: { kd: 0.5, tv: 0.5, sd, ef: 0.5, cl: 0.5, ra: 0.5 }, scoreSource: 'rescored',
  });
  return { model: 'm', scenario: id, before: r(1, before, sdBefore), after: r(2, after, sdAfter), gain: after - before };
}
