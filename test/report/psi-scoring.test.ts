import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PsiScoring } from '../../lib/psi/score';
import type { Scenario } from '../../lib/psi/schema';
import { conceptTable, explainScoring } from '../../lib/report/psi-scoring';
import { near } from './psi-fixtures';

const scenario = { target_bloom: 3, learner: { known_concepts: ['variables', 'lists'] }, objective_concepts: ['for_loop'] } as unknown as Scenario;
const scoring: PsiScoring = {
  psi: (0.98333 + 0.5 + 0.375 + 0.37093 + 0.8 + 0.8) / 6,
  subscores: { kd: 0.98333, tv: 0.5, sd: 0.375, ef: 0.37093, cl: 0.8, ra: 0.8 },
  evidence: {
    kd: { conceptsFound: ['for_loop', 'lists', 'variables'], known: ['lists', 'variables'], unknown: ['for_loop'], overlap: 2 / 3, measure: 'known-share', deltaOpt: 0.65 },
    tv: { checks: 2, violations: [['lists', 'for_loop']], relation: 'transitive' },
    sd: {
      indicators: [
        { id: 'we-code-block', category: 'worked-example', match: '```python\nfor x in y:\n```' },
        { id: 'cc-question', category: 'comprehension-check', match: 'Can you try?' },
      ],
      scaffolds: 2, propositions: 4, alpha: 0.75,
      adaptation: { knownConcepts: ['lists'], objectiveConcepts: ['for_loop'], phrases: ['you already know'], references: 3 },
    },
    ef: { mode: 'scenario', terms: [{ concept: 'lists', retention: Math.exp(-0.5), weight: 0.5 }, { concept: 'variables', retention: Math.exp(-2), weight: 0.5 }] },
    cl: { propositions: 5, extraneous: 1, markers: [{ category: 'filler', match: 'Great question', proposition: 'Great question!' }] },
    ra: { levelScores: [0, 4, 1, 0, 0, 0], detected: 2, detectedName: 'Understand', target: 3, targetName: 'Apply', pythonBlocks: 1, defaulted: false },
    mentions: [
      { id: 'lists', first: 40, count: 2, keyword: 'list' },
      { id: 'for_loop', first: 10, count: 1, keyword: 'for loop' },
    ],
  },
};

test('explainScoring fills each formula with the response’s own numbers', () => {
  const rows = explainScoring(scoring, scenario);
  assert.equal(rows.length, 7);
  assert.equal(rows[0]!.formula, 'sim = 2/3 = 0.667; 1 − |0.667 − 0.65| = 0.983');
  assert.match(rows[0]!.evidence, /new to learner: for_loop/);
  assert.equal(rows[1]!.formula, '1 − 1/2 = 0.500');
  assert.match(rows[1]!.evidence, /for_loop before lists/);
  assert.equal(rows[2]!.formula, 'min(1, 2/4 · α 0.750) = min(1, 0.375) = 0.375');
  assert.match(rows[2]!.evidence, /worked-example: we-code-block “```python for x in y: ```”/);
  assert.match(rows[2]!.evidence, /α refs 3: phrases “you already know”, known concept yes, objective concept yes/);
  assert.equal(rows[3]!.evidence, 'lists: 0.500 × 0.607 | variables: 0.500 × 0.135');
  assert.equal(rows[4]!.formula, '1 − 1/5 = 0.800');
  assert.equal(rows[4]!.evidence, 'extraneous markers: filler “Great question”');
  assert.equal(rows[5]!.formula, '1 − |2 − 3|/5 = 0.800');
  assert.match(rows[5]!.evidence, /level scores R\/U\/Ap\/An\/E\/C: 0\/4\/1\/0\/0\/0 \| executable Python blocks: 1/);
  assert.match(rows[6]!.formula, /^\(0\.983 \+ 0\.500 \+ 0\.375 \+ 0\.371 \+ 0\.800 \+ 0\.800\) \/ 6 = 0\.638$/);
  // the score column is numeric at full precision; PSI = 3.82926 / 6 = 0.63821
  const scores = rows.map((r) => r.score);
  assert.deepEqual(scores.slice(0, 6), [0.98333, 0.5, 0.375, 0.37093, 0.8, 0.8]);
  near(scores[6], 0.63821, 'PSI');
});

test('conceptTable lists concepts in order of first mention with known/objective flags', () => {
  assert.deepEqual(conceptTable(scoring, scenario), [
    { concept: 'for_loop', 'first at (char)': 10, mentions: 1, keyword: 'for loop', 'known to learner': false, objective: true },
    { concept: 'lists', 'first at (char)': 40, mentions: 2, keyword: 'list', 'known to learner': true, objective: false },
  ]);
});
