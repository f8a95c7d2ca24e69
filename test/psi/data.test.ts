import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDomain } from '../../lib/kst/domain';
import { loadPsiCourse } from '../../lib/psi/schema';

/**
 * Validates the shipped PSI course data (data/raw/psi) against the counts the paper publishes for its
 * design: 85 concepts, 30 scenarios (2 per week over 15 weeks), Bloom targets 1/7/16/6, defect
 * categories 7/7/12/12/5/8/6/3, and coherent learner profiles.
 */
const dir = join(__dirname, '..', '..', 'data', 'raw', 'psi');
const taxonomyText = readFileSync(join(dir, 'taxonomy.json'), 'utf8');
const taxonomy = parseDomain(taxonomyText, 'taxonomy.json');
const scenariosFile = JSON.parse(readFileSync(join(dir, 'scenarios.json'), 'utf8')) as {
  source: string;
  taxonomy: string;
  scenarios: Array<{
    id: string;
    week: number;
    title: string;
    target_bloom: number;
    learning_objective: string;
    objective_concepts: string[];
    learner: {
      known_concepts: string[];
      memory: Array<{ concept: string; days_since_exposure: number; strength_days: number; importance: number }>;
    };
    question: string;
    defective: { question: string; categories: string[] };
  }>;
};
const scenarios = scenariosFile.scenarios;
const week = new Map(taxonomy.components.map((c) => [c.id, c.week]));

test('taxonomy: 85 concepts, each with a week 1-15 and lower-case keywords', () => {
  assert.equal(taxonomy.ids.length, 85);
  for (const c of taxonomy.components) {
    assert.ok(Number.isInteger(c.week) && c.week! >= 1 && c.week! <= 15, `${c.id} week ${c.week}`);
    assert.ok(c.keywords && c.keywords.length > 0, `${c.id} has keywords`);
    for (const k of c.keywords!) assert.equal(k, k.toLowerCase(), `${c.id} keyword ${k} is lower-case`);
    assert.match(c.id, /^[a-z][a-z0-9_]*$/);
  }
  // every week introduces at least one concept
  for (let w = 1; w <= 15; w++) assert.ok(taxonomy.components.some((c) => c.week === w), `week ${w}`);
});

test('taxonomy: prerequisites are taught no later than the concepts that need them', () => {
  for (const [p, q] of taxonomy.prerequisites) assert.ok(week.get(p)! <= week.get(q)!, `${p} (week ${week.get(p)}) before ${q}`);
  // the paper's own example: list_comprehension requires lists and for_loop
  const direct = new Set(taxonomy.prerequisites.map(([p, q]) => `${p}>${q}`));
  assert.ok(direct.has('lists>list_comprehension') && direct.has('for_loop>list_comprehension'));
});

test('scenarios: 30, two per week, ids S01..S30 in order, marked as a reconstruction', () => {
  assert.equal(scenarios.length, 30);
  assert.deepEqual(
    scenarios.map((s) => s.id),
    Array.from({ length: 30 }, (_, i) => `S${String(i + 1).padStart(2, '0')}`),
  );
  for (let w = 1; w <= 15; w++) assert.equal(scenarios.filter((s) => s.week === w).length, 2, `week ${w}`);
  assert.match(scenariosFile.source, /reconstruction/i);
  assert.match(taxonomy.source, /reconstruction/i);
  assert.equal(scenariosFile.taxonomy, 'taxonomy.json');
  for (const s of scenarios) {
    assert.ok(s.question.length > 60, `${s.id} standard question is a real question`);
    assert.ok(s.defective.question.length < s.question.length, `${s.id} defective question is shorter`);
    assert.ok(s.title && s.learning_objective, `${s.id} has title and objective`);
  }
});

test('scenarios: Bloom distribution Remember 1, Understand 7, Apply 16, Analyze 6', () => {
  const counts: Record<number, number> = {};
  for (const s of scenarios) counts[s.target_bloom] = (counts[s.target_bloom] ?? 0) + 1;
  assert.deepEqual(counts, { 1: 1, 2: 7, 3: 16, 4: 6 });
});

test('scenarios: defect categories match the paper counts exactly', () => {
  const counts: Record<string, number> = {};
  for (const s of scenarios) {
    assert.ok(s.defective.categories.length >= 1, s.id);
    assert.equal(new Set(s.defective.categories).size, s.defective.categories.length, `${s.id} no duplicates`);
    for (const c of s.defective.categories) counts[c] = (counts[c] ?? 0) + 1;
    if (s.defective.categories.includes('multi_issue')) assert.ok(s.defective.categories.length >= 3, s.id);
  }
  assert.deepEqual(counts, {
    too_short: 7,
    keyword_only: 7,
    missing_context: 12,
    unclear_goal: 12,
    code_dump: 5,
    vague_error: 8,
    wrong_terminology: 6,
    multi_issue: 3,
  });
});

test('learner profiles: known concepts exist, are prerequisite-closed and already taught', () => {
  for (const s of scenarios) {
    const known = new Set(s.learner.known_concepts);
    assert.equal(known.size, s.learner.known_concepts.length, `${s.id} no duplicate known concepts`);
    for (const id of [...known, ...s.objective_concepts]) {
      assert.ok(taxonomy.index.has(id), `${s.id}: unknown concept ${id}`);
      assert.ok(week.get(id)! <= s.week, `${s.id}: ${id} (week ${week.get(id)}) not taught by week ${s.week}`);
    }
    for (const [p, q] of taxonomy.prerequisites) {
      if (known.has(q)) assert.ok(known.has(p), `${s.id}: knows ${q} but not its prerequisite ${p}`);
    }
    assert.ok(s.objective_concepts.length >= 1, s.id);
    assert.ok(
      s.objective_concepts.some((id) => !known.has(id)),
      `${s.id}: the question must be about something not yet mastered`,
    );
  }
});

test('learner memory: concepts known, positive times, importance sums to 1', () => {
  let efSum = 0;
  for (const s of scenarios) {
    assert.ok(s.learner.memory.length >= 1, s.id);
    let total = 0;
    let ef = 0;
    for (const m of s.learner.memory) {
      assert.ok(s.learner.known_concepts.includes(m.concept), `${s.id}: memory concept ${m.concept} is known`);
      assert.ok(m.days_since_exposure > 0 && m.strength_days > 0 && m.importance > 0, `${s.id} ${m.concept}`);
      total += m.importance;
      ef += m.importance * Math.exp(-m.days_since_exposure / m.strength_days);
    }
    assert.ok(Math.abs(total - 1) <= 1e-9, `${s.id}: importance sums to ${total}`);
    efSum += ef;
  }
  // The memory parameters were chosen so the metadata-only forgetting score averages near the paper's 0.334.
  assert.ok(Math.abs(efSum / scenarios.length - 0.334) < 0.01, `mean EF ${efSum / scenarios.length}`);
});

test('the PSI course loader (lib/psi schema) accepts the shipped data', () => {
  const course = loadPsiCourse(dir);
  assert.equal(course.taxonomy.ids.length, 85);
  assert.equal(course.scenarios.length, 30);
  assert.match(course.source, /reconstruction/i);
});
