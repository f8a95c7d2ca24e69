import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { deltaSensitivity, weightSensitivity, type ScoredRecord } from '../../lib/psi/aggregate';
import type { PsiScoring } from '../../lib/psi/score';
import type { Scenario } from '../../lib/psi/schema';
import {
  NOT_PRINTED,
  bloomTrend,
  compareScorings,
  conceptTable,
  deltaSensitivityTable,
  explainScoring,
  figure1Table,
  paperModelMap,
  parsePublishedPsi,
  publishedRanking,
  rankingText,
  numericCell,
  percentCell,
  scorePathsTable,
  selectionComparison,
  sensitivitySpread,
  table1Comparison,
  table2Comparison,
  defectiveShiftsComparison,
  table4Comparison,
  table5Comparison,
  weightSensitivityTable,
  weightsParameter,
  simulatedBanner,
  anySimulated,
  promptParts,
  selectionVsRegenerated,
  interRaterTable,
  raterVsPsiTable,
} from '../../lib/report/psi-tables';

const PUBLISHED_FILE = join(__dirname, '..', '..', 'data', 'published', 'psi-2026.json');
const published = parsePublishedPsi(readFileSync(PUBLISHED_FILE, 'utf8'), PUBLISHED_FILE);
const A = 'simulated:sim-tutor-a';
const B = 'simulated:sim-tutor-b';
const mirrors = { [A]: 'ChatGPT', [B]: 'Gemini' };

function rec(run_id: string, model: string, psiSubs: [number, number, number, number, number, number], extra: Partial<ScoredRecord> = {}): ScoredRecord {
  const [kd, tv, sd, ef, cl, ra] = psiSubs;
  return {
    run_id, round: 1, scenario: 'S01', variant: 'standard', model,
    psi: (kd + tv + sd + ef + cl + ra) / 6, subscores: { kd, tv, sd, ef, cl, ra }, scoreSource: 'rescored', ...extra,
  };
}

test('parsePublishedPsi reads the shipped file and names the missing field', () => {
  assert.equal(published.table1.psi['ChatGPT'], 0.638);
  assert.throws(() => parsePublishedPsi('{"table1": {}}', 'p.json'), (e: unknown) => e instanceof InputError && /p\.json: .*table1\.psi/.test(e.message));
  assert.throws(() => parsePublishedPsi('{', 'p.json'), /p\.json:1: not valid JSON/);
});

/** Tolerance for values worked out by hand in decimal (the code computes them in binary floating point). */
const EPS = 1e-12;
const near = (actual: unknown, expected: number, what = 'value') =>
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < EPS, `${what}: expected ${expected}, got ${String(actual)}`);
/** Same keys; numbers within EPS of the hand values, everything else equal. */
function assertRowNear(actual: Record<string, unknown> | undefined, expected: Record<string, unknown>) {
  assert.ok(actual, 'row missing');
  assert.deepEqual(Object.keys(actual), Object.keys(expected));
  for (const [k, v] of Object.entries(expected)) {
    if (typeof v === 'number') near(actual[k], v, k);
    else assert.equal(actual[k], v, k);
  }
}

test('numericCell keeps full precision, missing or non-finite → null; percentCell scales by 100', () => {
  assert.equal(numericCell(0.66032), 0.66032);
  assert.equal(numericCell(2 / 3), 2 / 3);
  assert.equal(numericCell(NaN), null);
  assert.equal(numericCell(Infinity), null);
  assert.equal(numericCell(undefined), null);
  assert.equal(numericCell(null), null);
  near(percentCell(51 / 62), 82.25806451612903); // 5100/62 = 82.258064516129032…
  assert.equal(percentCell(0.75), 75);
  assert.equal(percentCell(NaN), null);
  assert.equal(percentCell(undefined), null);
});

test('paperModelMap maps simulated profiles to the model they mirror, paper names to themselves, extra wins', () => {
  assert.deepEqual(paperModelMap([A, 'simulated:sim-tutor-d', 'Gemini', 'foo', 'openai:x'], { 'openai:x': 'ChatGPT' }), {
    [A]: 'ChatGPT',
    'simulated:sim-tutor-d': 'Qwen 3',
    Gemini: 'Gemini',
    'openai:x': 'ChatGPT',
  });
});

test('Table I sets the paper values beside the computed means (full precision) and says "not printed" otherwise', () => {
  const rows = table1Comparison(
    [
      { model: A, n: 30, psi: 0.66032, kd: 0.8257, tv: 0.5577, sd: 0.42861, ef: 0.33309, cl: 0.9968, ra: 0.82 },
      { model: 'other', n: 2, psi: 0.5, kd: 0.5, tv: 0.5, sd: 0.5, ef: 0.5, cl: 0.5, ra: 0.5 },
    ],
    published,
    mirrors,
  );
  assert.deepEqual(rows[0], {
    model: A, 'paper model': 'ChatGPT', n: 30, PSI: 0.66032, 'PSI (paper)': 0.638,
    KD: 0.8257, 'KD (paper)': NOT_PRINTED, TV: 0.5577, 'TV (paper)': NOT_PRINTED, SD: 0.42861, 'SD (paper)': 0.492,
    EF: 0.33309, 'EF (paper)': 0.334, CL: 0.9968, 'CL (paper)': '≥ 0.996', RA: 0.82, 'RA (paper)': NOT_PRINTED,
  });
  assert.equal(rows[1]!['paper model'], null);
  assert.equal(rows[1]!['PSI (paper)'], NOT_PRINTED);
  assert.equal(rows[1]!['EF (paper)'], NOT_PRINTED);
});

test('rankings: computed and the paper’s', () => {
  assert.equal(rankingText([{ model: 'b', psi: 0.5 }, { model: 'a', psi: 0.5 }, { model: 'c', psi: 0.7 }], { c: 'C!' }), 'C! > a > b');
  assert.equal(publishedRanking(published), 'ChatGPT > Qwen 3 > Gemma 4 > Gemini');
});

test('Table II: per-model rows take the paper standard PSI from Table I; the overall Δ is −0.002', () => {
  const rows = table2Comparison(
    {
      perModel: [{ model: B, nStandard: 30, nDefective: 30, standard: 0.5791, defective: 0.5729, delta: -0.0062 }],
      overall: { nStandard: 120, nDefective: 120, standard: 0.60508, defective: 0.60698, delta: 0.0019 },
    },
    published,
    mirrors,
  );
  assert.equal(rows.length, 2);
  assert.equal(rows[0]!['standard (paper)'], 0.557);
  assert.equal(rows[0]!['Δ'], -0.0062);
  assert.equal(rows[0]!.standard, 0.5791);
  assert.equal(rows[0]!.defective, 0.5729);
  assert.equal(rows[0]!['Δ (paper)'], NOT_PRINTED);
  assert.deepEqual(rows[1], {
    model: 'all models', 'paper model': 'all models', 'n standard': 120, 'n defective': 120,
    standard: 0.60508, 'standard (paper)': NOT_PRINTED, defective: 0.60698, 'defective (paper)': NOT_PRINTED, 'Δ': 0.0019, 'Δ (paper)': -0.002,
  });
});

test('Table III and Table V carry the printed shifts and changes', () => {
  const shift = (measure: 'psi' | 'kd' | 'tv' | 'sd' | 'ef' | 'cl' | 'ra', before: number, after: number) => ({ measure, before, after, change: after - before });
  const t3 = defectiveShiftsComparison([shift('psi', 0.6, 0.598), shift('tv', 0.5, 0.559), shift('cl', 0.99, 0.99)], published);
  assert.deepEqual(t3.map((r) => [r.measure, r['shift (paper)']]), [['PSI', -0.002], ['TV', 0.059], ['CL', NOT_PRINTED]]);
  // shifts by hand: 0.598 − 0.6 = −0.002, 0.559 − 0.5 = 0.059, 0.99 − 0.99 = 0
  assertRowNear(t3[0], { measure: 'PSI', standard: 0.6, defective: 0.598, shift: -0.002, 'shift (paper)': -0.002 });
  near(t3[1]!.shift, 0.059, 'TV shift');
  assert.equal(t3[2]!.shift, 0);
  const t5 = table5Comparison([shift('psi', 0.52, 0.57), shift('sd', 0.1, 0.4), shift('ef', 0.3, 0.3), shift('cl', 0.99, 1)], published);
  assertRowNear(t5[0], { measure: 'PSI', before: 0.52, 'before (paper)': NOT_PRINTED, after: 0.57, 'after (paper)': NOT_PRINTED, change: 0.05, 'change (paper)': 0.049 });
  assertRowNear(t5[1], { measure: 'SD', before: 0.1, 'before (paper)': 0.073, after: 0.4, 'after (paper)': 0.345, change: 0.3, 'change (paper)': 0.272 });
  assert.equal(t5[2]!['change (paper)'], 0);
  assert.equal(t5[3]!['change (paper)'], NOT_PRINTED);
});

test('Figure 1 table and the declining-trend check', () => {
  const perModel = [
    { model: 'm1', level: 1, levelName: 'Remember', n: 1, psi: 0.6 },
    { model: 'm1', level: 2, levelName: 'Understand', n: 7, psi: 0.58 },
    { model: 'm1', level: 4, levelName: 'Analyze', n: 6, psi: 0.59 },
    { model: 'm2', level: 1, levelName: 'Remember', n: 1, psi: 0.7 },
    { model: 'm2', level: 4, levelName: 'Analyze', n: 6, psi: 0.5 },
  ];
  const pooled = [
    { level: 1, levelName: 'Remember', n: 2, psi: 0.65 },
    { level: 2, levelName: 'Understand', n: 7, psi: 0.58 },
    { level: 4, levelName: 'Analyze', n: 12, psi: 0.545 },
  ];
  const t = figure1Table(perModel, pooled, published);
  assert.deepEqual(t[0], { level: 1, 'target Bloom level': 'Remember', n: 2, m1: 0.6, m2: 0.7, 'all models': 0.65, 'all models (paper)': 0.6 });
  assert.equal(t[1]!['m2'], null);
  assert.equal(t[0]!['all models (paper)'], 0.6);
  assert.equal(t[1]!['all models (paper)'], NOT_PRINTED);
  assert.equal(t[2]!['all models (paper)'], 0.56);
  const trend = bloomTrend(perModel, pooled);
  assertRowNear(trend[0], { model: 'm1', levels: '1,2,4', 'PSI lowest level': 0.6, 'PSI highest level': 0.59, change: -0.01, 'declines overall': true, 'never rises': false });
  assert.equal(trend[1]!['never rises'], true);
  assert.equal(trend[2]!.model, 'all models');
  near(trend[2]!.change, -0.105, 'pooled change'); // 0.545 − 0.65
});

test('selection comparison sets the paper counts beside the selected ones', () => {
  const rows = selectionComparison({ perModel: { [B]: 3, [A]: 1 }, considered: 60, selected: [1, 2, 3, 4] }, published, mirrors);
  assert.deepEqual(rows, [
    { model: A, 'paper model': 'ChatGPT', selected: 1, 'selected (paper)': 4, considered: null },
    { model: B, 'paper model': 'Gemini', selected: 3, 'selected (paper)': 23, considered: null },
    { model: 'total', 'paper model': 'total', selected: 4, 'selected (paper)': 62, considered: 60 },
  ]);
  // with the per-model counts of selectWeakCases, each model row shows how many cases it had
  const withCounts = selectionComparison({ perModel: { [B]: 3, [A]: 1 }, considered: 60, selected: [1, 2, 3, 4], consideredPerModel: { [A]: 30, [B]: 30 } }, published, mirrors);
  assert.deepEqual(withCounts.map((r) => r.considered), [30, 30, 60]);
});

test('Table IV: overall row beside 62 / 51 / 82.3 % / +0.049, per-model cases beside the paper selection', () => {
  const rows = table4Comparison(
    {
      overall: { cases: 6, improved: 5, rate: 5 / 6, meanGain: 0.04567 },
      perModel: [{ model: A, cases: 6, improved: 5, rate: 5 / 6, meanGain: 0.04567 }],
    },
    published,
    mirrors,
  );
  // rate 5/6 = 83.333…% at full precision (the HTML shows it rounded), mean gain as given
  assertRowNear(rows[0], {
    model: 'all models', 'paper model': 'all models', cases: 6, 'cases (paper)': 62, improved: 5, 'improved (paper)': 51,
    'rate %': 83.33333333333333, 'rate % (paper)': 82.3, 'mean gain': 0.04567, 'mean gain (paper)': 0.049,
  });
  assert.equal(rows[1]!['cases (paper)'], 4);
  assert.equal(rows[1]!['improved (paper)'], NOT_PRINTED);
});

test('scorePathsTable and compareScorings', () => {
  assert.deepEqual(scorePathsTable('round 1', { recorded: 3, rescored: 1, skippedMissing: 0 }).map((r) => r.n), [3, 1, 0]);
  const a = [rec('r1', A, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5]), rec('r2', A, [0.6, 0.6, 0.6, 0.6, 0.6, 0.6])];
  const b = [rec('r2', A, [0.6, 0.6, 0.6, 0.6, 0.6, 0.9]), rec('r1', A, [0.5, 0.5, 0.5, 0.5, 0.5, 0.5])];
  const c = compareScorings(a, b);
  assert.equal(c.matched, 2);
  assert.equal(c.largestPsiDifferenceRun, 'r2');
  assert.ok(Math.abs(c.maxPsiDifference - 0.05) < 1e-12);
  assert.ok(Math.abs(c.maxSubscoreDifference - 0.3) < 1e-12);
  assert.deepEqual(compareScorings(a, a), { matched: 2, maxPsiDifference: 0, maxSubscoreDifference: 0, largestPsiDifferenceRun: null });
  assert.throws(() => compareScorings(a, [a[0]!, rec('r3', A, [0, 0, 0, 0, 0, 0])]), /r2.*first list only/);
});

test('δ sensitivity table: PSI per model, ranking and whether it changed (worked by hand)', () => {
  // Other sub-scores 0.6; overlap A 0.5, B 0.9. δ 0.65: KD 0.85 / 0.75 → PSI 3.85/6 = 0.641666… / 3.75/6 = 0.625 (A > B).
  // δ 0.9: KD 0.6 / 1.0 → PSI 3.6/6 = 0.6 / 4/6 = 0.666… (B > A). Mean S_KD (0.85 + 0.75)/2 = (0.6 + 1)/2 = 0.8.
  const mk = (id: string, model: string, overlap: number) =>
    rec(id, model, [0, 0.6, 0.6, 0.6, 0.6, 0.6], { evidence: { kd: { overlap } } as never });
  const scored = [mk('a1', A, 0.5), mk('b1', B, 0.9)];
  const result = deltaSensitivity(scored, [0.65, 0.9]);
  const table = deltaSensitivityTable(result, { names: mirrors });
  assert.equal(table.length, 2);
  assertRowNear(table[0], { 'δ_opt': 0.65, [A]: 0.6416666666666667, [B]: 0.625, 'mean S_KD': 0.8, ranking: 'ChatGPT > Gemini', 'same ranking as δ=0.65': true });
  assertRowNear(table[1], { 'δ_opt': 0.9, [A]: 0.6, [B]: 0.6666666666666666, 'mean S_KD': 0.8, ranking: 'Gemini > ChatGPT', 'same ranking as δ=0.65': false });
  assert.throws(() => deltaSensitivityTable(result, { baseline: 0.5 }), InputError);
  const spread = sensitivitySpread(result);
  // A: min 0.6, max 3.85/6, range 0.25/6 = 0.041666…
  assertRowNear(spread[0], { model: A, 'min PSI': 0.6, 'max PSI': 0.6416666666666667, range: 0.041666666666666664, 'best rank': 1, 'worst rank': 2 });
});

test('weight sensitivity table lists the weights and flags ranking changes', () => {
  // A: KD 1, rest 0 → equal 1/6; B: SD 1, rest 0 → 1/6 (tie → by name A first). Only-KD: A 1, B 0.
  const scored = [rec('a', A, [1, 0, 0, 0, 0, 0]), rec('b', B, [0, 0, 1, 0, 0, 0])];
  const vectors = [
    { name: 'equal', weights: { kd: 1 / 6, tv: 1 / 6, sd: 1 / 6, ef: 1 / 6, cl: 1 / 6, ra: 1 / 6 } },
    { name: 'sd-only', weights: { kd: 0, tv: 0, sd: 1, ef: 0, cl: 0, ra: 0 } },
  ];
  const rows = weightSensitivityTable(weightSensitivity(scored, vectors), vectors);
  assert.deepEqual(rows[1], {
    weights: 'sd-only', w_KD: 0, w_TV: 0, w_SD: 1, w_EF: 0, w_CL: 0, w_RA: 0, [A]: 0, [B]: 1, ranking: `${B} > ${A}`, 'same ranking as equal': false,
  });
  near(rows[0]![A], 1 / 6, 'equal-weight PSI of A'); // (1 + 0 + 0 + 0 + 0 + 0)/6
  near(rows[0]!.w_KD, 1 / 6, 'equal weight');
  assert.equal(rows[0]!['same ranking as equal'], true);
});

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

test('weightsParameter: "equal" or six valid weights', () => {
  assert.deepEqual(Object.values(weightsParameter('equal')), [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6]);
  assert.equal(weightsParameter({ kd: 0.5, tv: 0.5, sd: 0, ef: 0, cl: 0, ra: 0 }).kd, 0.5);
  assert.throws(() => weightsParameter({ kd: 0.5, tv: 0.4, sd: 0, ef: 0, cl: 0, ra: 0 }), /sum to 1/);
  assert.throws(() => weightsParameter('heavy'), InputError);
  assert.throws(() => weightsParameter([1]), InputError);
});

test('simulatedBanner says plainly whether the records are simulated', () => {
  const sim = { simulated: true };
  const real = { simulated: false };
  assert.match(simulatedBanner([sim, sim], 'round1.jsonl'), /^\*\*SIMULATED DATA\.\*\* All 2 records of round1\.jsonl carry `simulated: true`/);
  assert.equal(simulatedBanner([real, real], 'r.jsonl'), 'All 2 records of r.jsonl are collected responses (`simulated: false`).');
  assert.match(simulatedBanner([sim], 'run x'), /^\*\*SIMULATED DATA\.\*\* run x carries `simulated: true`: it was written/);
  assert.equal(simulatedBanner([real], 'run x'), 'run x is a collected response (`simulated: false`).');
  assert.match(simulatedBanner([sim, real, real], 'r'), /PARTLY SIMULATED DATA\.\*\* 1 of 3 records .* the other 2 are collected/);
  assert.equal(anySimulated([real, sim]), true);
  assert.equal(anySimulated([real]), false);
});

test('promptParts splits the five parts of a regeneration prompt', () => {
  const user = '## (a) Student context\nweek 3\n\n## (b) Previous\nold answer\n## (c) PSI\n- 0.5\n## (d) Diagnosis\n- SD low\n## (e) Checklist\n- [ ] add example\n';
  const parts = promptParts(user);
  assert.deepEqual(parts.map((p) => [p.part, p.heading, p.text]), [
    ['a', 'Student context', 'week 3'],
    ['b', 'Previous', 'old answer'],
    ['c', 'PSI', '- 0.5'],
    ['d', 'Diagnosis', '- SD low'],
    ['e', 'Checklist', '- [ ] add example'],
  ]);
  assert.throws(() => promptParts('## (a) x\n## (c) y'), /found "ac"/);
});

test('selectionVsRegenerated lists the differences', () => {
  assert.deepEqual(selectionVsRegenerated(['a', 'b', 'c'], [{ parent_run_id: 'c' }, { parent_run_id: 'a' }, { parent_run_id: 'z' }, {}]), {
    selected: 3, regenerated: 3, both: 2, selectedOnly: ['b'], regeneratedOnly: ['z'],
  });
});

test('ratings tables set the paper rates beside each rater and say κ was not printed', () => {
  const [k] = interRaterTable([{ criterion: 'weaknesses_resolved', raterA: 'R1', raterB: 'R2', n: 4, observedAgreement: 0.75, kappa: 0.5 }]);
  assert.deepEqual(k, { criterion: 'weaknesses_resolved', raters: 'R1 – R2', 'cases rated by both': 4, 'observed agreement %': 75, "Cohen's κ": 0.5, 'κ (paper)': NOT_PRINTED });
  const rows = raterVsPsiTable(
    [
      { rater: 'R1', criterion: 'meaningful_improvement', n: 4, humanRate: 0.5, psiRate: 0.75, bothYes: 2, humanOnly: 0, psiOnly: 1, bothNo: 1, observedAgreement: 0.75, kappa: 0.5 },
      { rater: 'R1', criterion: 'weaknesses_resolved', n: 0, humanRate: NaN, psiRate: NaN, bothYes: 0, humanOnly: 0, psiOnly: 0, bothNo: 0, observedAgreement: NaN, kappa: NaN },
    ],
    published,
  );
  assert.equal(rows[0]!['rater yes % (paper)'], 74.2);
  assert.equal(rows[0]!['PSI improved %'], 75);
  assert.equal(rows[0]!['rater yes %'], 50);
  assert.equal(rows[0]!['agreement %'], 75);
  assert.equal(rows[0]!['κ with PSI'], 0.5);
  assert.equal(rows[0]!['PSI improved % (paper)'], 82.3);
  assert.equal(rows[1]!['rater yes % (paper)'], 82.3);
  assert.equal(rows[1]!['rater yes %'], null);
  assert.equal(rows[1]!['κ with PSI'], null);
  // a share that does not terminate in decimal stays unrounded: 2/3 agreement → 66.666…%
  const [third] = interRaterTable([{ criterion: 'weaknesses_resolved', raterA: 'R1', raterB: 'R2', n: 3, observedAgreement: 2 / 3, kappa: NaN }]);
  near(third!['observed agreement %'], 66.66666666666667, 'agreement %');
  assert.equal(third!["Cohen's κ"], null);
});
