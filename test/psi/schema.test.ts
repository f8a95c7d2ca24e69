import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { loadPsiCourse, parsePsiRecords, parsePsiScenarios, parsePsiTaxonomy } from '../../lib/psi';
import { fixtureCourse, fixtureCourseAs, fixtureTaxonomy, SCENARIOS_TEXT, STATISTICS_COURSE, TAXONOMY_TEXT } from './helpers';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const taxonomyJson = (): Json => JSON.parse(TAXONOMY_TEXT);
const scenariosJson = (): Json => JSON.parse(SCENARIOS_TEXT);

/** Asserts fn throws an InputError whose message matches every pattern. */
function throwsInput(fn: () => unknown, ...patterns: RegExp[]) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof InputError, `expected InputError, got ${String(err)}`);
    for (const p of patterns) assert.match(err.message, p);
    return true;
  });
}

test('fixture course loads: 7 concepts, closure, 2 scenarios', () => {
  const c = fixtureCourse();
  assert.equal(c.taxonomy.ids.length, 7);
  assert.equal(c.scenarios.length, 2);
  assert.equal(c.taxonomy.weeks.get('functions'), 10);
  assert.deepEqual(c.taxonomy.keywords.get('functions'), ['function', 'def']);
  // 8 direct pairs plus the transitive variables ≺ list_comprehension = 9 strict pairs
  assert.equal(c.taxonomy.closure.length, 9);
  assert.ok(c.taxonomy.closure.some(([p, q]) => p === 'variables' && q === 'list_comprehension'));
});

test('taxonomy: a prerequisite cycle is an InputError naming the file and the cycle', () => {
  const t = taxonomyJson();
  t.prerequisites.push(['list_comprehension', 'variables']);
  throwsInput(() => parsePsiTaxonomy(JSON.stringify(t), 'tax.json'), /tax\.json/, /cycle/, /variables/);
});

test('taxonomy: a component without keywords or week is rejected, naming it', () => {
  const t = taxonomyJson();
  delete t.components[2].keywords;
  throwsInput(() => parsePsiTaxonomy(JSON.stringify(t), 'tax.json'), /tax\.json/, /"strings"/, /keywords/);
  const u = taxonomyJson();
  u.components[3].week = 16;
  throwsInput(() => parsePsiTaxonomy(JSON.stringify(u), 'tax.json'), /"lists"/, /week/);
});

test('taxonomy: a keyword shared by two components is rejected', () => {
  const t = taxonomyJson();
  t.components[4].keywords.push('List');
  throwsInput(() => parsePsiTaxonomy(JSON.stringify(t), 'tax.json'), /keyword "list"/, /"for_loop"/, /"lists"/);
});

test('taxonomy: unknown id in a prerequisite pair is rejected', () => {
  const t = taxonomyJson();
  t.prerequisites.push(['loops', 'functions']);
  throwsInput(() => parsePsiTaxonomy(JSON.stringify(t), 'tax.json'), /tax\.json/, /"loops"/);
});

const scenarioCases: Array<[string, (s: Json) => void, RegExp[]]> = [
  ['unknown objective concept', (s) => (s.scenarios[1].objective_concepts = ['dictionaries']), [/scenario "S02"/, /objective_concepts/, /"dictionaries"/]],
  ['unknown known concept', (s) => s.scenarios[0].learner.known_concepts.push('recursion'), [/scenario "S01"/, /"recursion"/]],
  ['unknown memory concept', (s) => (s.scenarios[0].learner.memory[0].concept = 'loops'), [/scenario "S01"/, /"loops"/]],
  [
    'importance not summing to 1',
    (s) => (s.scenarios[0].learner.memory[1].importance = 0.4),
    [/scenario "S01"/, /importance/, /sum to 1, got 0\.9/],
  ],
  ['Bloom level 7', (s) => (s.scenarios[1].target_bloom = 7), [/scenario "S02"/, /target_bloom/, /1\.\.6/]],
  ['Bloom level 0', (s) => (s.scenarios[0].target_bloom = 0), [/scenario "S01"/, /target_bloom/]],
  ['duplicate scenario id', (s) => (s.scenarios[1].id = 'S01'), [/duplicate scenario id "S01"/]],
  ['unknown defect category', (s) => s.scenarios[0].defective.categories.push('rude'), [/scenario "S01"/, /defective\.categories/]],
  [
    'known concepts not prerequisite-closed',
    (s) => (s.scenarios[0].learner.known_concepts = ['print_function', 'lists', 'strings']),
    [/scenario "S01"/, /prerequisite-closed/, /variables/],
  ],
  [
    'memory concept not known',
    (s) => (s.scenarios[0].learner.memory[1].concept = 'for_loop'),
    [/scenario "S01"/, /"for_loop" is not among learner\.known_concepts/],
  ],
];

for (const [name, mutate, patterns] of scenarioCases) {
  test(`scenarios: ${name} → InputError naming file, scenario and item`, () => {
    const s = scenariosJson();
    mutate(s);
    throwsInput(() => parsePsiScenarios(JSON.stringify(s), 'scen.json', fixtureTaxonomy()), /scen\.json/, ...patterns);
  });
}

test('scenarios: malformed JSON names the file', () => {
  throwsInput(() => parsePsiScenarios('{"scenarios": [', 'scen.json', fixtureTaxonomy()), /scen\.json(:\d+)?: not valid JSON/);
});

test('loadPsiCourse: a broken taxonomy file in a course directory is reported with its path', () => {
  const dir = mkdtempSync(join(tmpdir(), 'psi-course-'));
  const t = taxonomyJson();
  t.prerequisites.push(['functions', 'variables']);
  writeFileSync(join(dir, 'taxonomy.json'), JSON.stringify(t));
  writeFileSync(join(dir, 'scenarios.json'), SCENARIOS_TEXT);
  throwsInput(() => loadPsiCourse(dir), new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/taxonomy\\.json`), /cycle/);
  throwsInput(() => loadPsiCourse(join(dir, 'missing')), /scenarios\.json: cannot read/);
});

test('records: schema, duplicate run ids, unknown scenario and round-2 parent are checked', () => {
  const course = fixtureCourse();
  const good = { run_id: 'r1', round: 1, scenario: 'S01', variant: 'standard', model: 'simulated:a', simulated: true, text: 'x', status: 'valid' };
  assert.equal(parsePsiRecords([{ line: 1, value: good }], 'r.jsonl', course).length, 1);
  throwsInput(() => parsePsiRecords([{ line: 1, value: good }, { line: 2, value: good }], 'r.jsonl'), /r\.jsonl:2: duplicate run_id "r1"/);
  throwsInput(() => parsePsiRecords([{ line: 3, value: { ...good, scenario: 'S09' } }], 'r.jsonl', course), /r\.jsonl:3/, /"S09"/);
  throwsInput(() => parsePsiRecords([{ line: 1, value: { ...good, round: 2 } }], 'r.jsonl'), /parent_run_id/);
  throwsInput(() => parsePsiRecords([{ line: 1, value: { ...good, variant: 'noisy' } }], 'r.jsonl'), /r\.jsonl:1 \(run_id "r1"\): variant/);
  // An empty (or blank) text marked valid would be scored as an answer; the same record marked
  // missing or invalid is accepted (never scored).
  throwsInput(() => parsePsiRecords([{ line: 4, value: { ...good, text: ' \n\t' } }], 'r.jsonl'), /r\.jsonl:4 \(run_id "r1"\): text: empty, but status is "valid"/);
  assert.equal(parsePsiRecords([{ line: 1, value: { ...good, text: '', status: 'missing' } }], 'r.jsonl').length, 1);
  assert.equal(parsePsiRecords([{ line: 1, value: { ...good, text: '', status: 'invalid', reason: 'refusal' } }], 'r.jsonl').length, 1);
  throwsInput(
    () => parsePsiRecords([{ line: 1, value: { ...good, scores: { psi: 2, kd: 0, tv: 0, sd: 0, ef: 0, cl: 0, ra: 0 } } }], 'r.jsonl'),
    /scores\.psi/,
  );
});

test('course: scenarios.json states name and weeks; they reach PsiCourse.info and bound the weeks', () => {
  assert.deepEqual(fixtureCourseAs(STATISTICS_COURSE).info, STATISTICS_COURSE);
  assert.equal(fixtureCourse().info, undefined);
  // A 20-week course may hold a week-18 scenario; the default 15 weeks refuse it, saying how to state a longer course.
  const late = (s: Json) => { s.scenarios[0].week = 18; };
  assert.equal(fixtureCourseAs({ name: 'statistics', weeks: 20 }, late).scenarios[0]!.week, 18);
  throwsInput(() => fixtureCourseAs(undefined, late), /scenarios\.json: scenario "S01" \(scenarios\[0\]\): week: 18 is past the course's 15 weeks/, /"course"/);
  throwsInput(() => fixtureCourseAs({ name: 'statistics', weeks: 17 }, late), /week: 18 is past the course's 17 weeks \(course\.weeks\)/);
  // The taxonomy's weeks are bounded by the course's length too (the fixture introduces functions in week 10).
  throwsInput(() => fixtureCourseAs({ name: 'statistics', weeks: 9 }), /taxonomy\.json: component "functions".*"week" in 1\.\.9 \(the course's length: course\.weeks of scenarios\.json, 15 when it states none\), got 10/);
});

test('course: a malformed course field is an InputError naming the file and the field', () => {
  for (const [course, field] of [
    [{ name: 'statistics' }, /course\.weeks/],
    [{ name: ' ', weeks: 12 }, /course\.name/],
    [{ name: 'statistics', weeks: 0 }, /course\.weeks/],
    [{ name: 'statistics', weeks: 12.5 }, /course\.weeks/],
    [{ name: 'statistics', weeks: 12, tutor: 'x' }, /course/],
    ['statistics', /course/],
  ] as const) {
    throwsInput(() => fixtureCourseAs(course), /scenarios\.json: invalid scenarios file at /, field);
  }
});
