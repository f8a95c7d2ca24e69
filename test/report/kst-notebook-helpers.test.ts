/**
 * Report helpers used by notebooks 04–08: contrast wording, the bootstrap distribution behind an
 * interval, model mirrors, simulated notices, terminal states, figures with the paper's numbers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { contrasts, loadResponses, scoreKstResponses, type ContrastRow } from '../../lib/analysis';
import { percentileLinear } from '../../lib/stats';
import {
  agreementTable,
  bootstrapDistribution,
  bootstrapHistogramSpec,
  contrastDifferences,
  describeContrast,
  figure2WithPaper,
  figure3Comparison,
  figure3WithPaper,
  formatP,
  inferenceSeeds,
  markSimulated,
  modelLabel,
  paperDomainOrder,
  paperRowFor,
  paperRows,
  simulatedNotice,
  terminalComparison,
  terminalSummary,
} from '../../lib/report';

const ROOT = join(__dirname, '..', '..');
const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));
const fixture = join(ROOT, 'test', 'fixtures', 'analyze');
const records = loadResponses(join(fixture, 'responses.jsonl'), loadDomainDir(join(fixture, 'domains')));
const { scored } = scoreKstResponses(records);

const row = (fields: Partial<ContrastRow>): ContrastRow => ({
  contrast: 'P1-P0',
  metric: 'exact',
  states: 50,
  estimate: 0.015,
  ci_low: -0.032,
  ci_high: 0.063,
  p: 0.2,
  p_holm: 0.6022,
  seed: 's',
  ...fields,
});

test('formatP prints four decimals without the leading zero, and "< .0001" below', () => {
  assert.equal(formatP(0.60221), '= .6022');
  assert.equal(formatP(0.0505), '= .0505');
  assert.equal(formatP(0.00001), '< .0001');
  assert.equal(formatP(1), '= 1.0000');
});

test('describeContrast: a small difference whose interval includes zero', () => {
  const text = describeContrast(row({}));
  assert.match(text, /^P1 was 1\.5 percentage points higher than P0 in exact-set accuracy, averaged over 50 knowledge states\./);
  assert.match(text, /interval \[-3\.2, 6\.3\] includes zero/);
  assert.match(text, /p = \.6022 is not below \.05: no clear evidence/);
  assert.doesNotMatch(text, /different ways/);
});

test('describeContrast: a large difference, interval above zero, p below .05', () => {
  const text = describeContrast(row({ contrast: 'P2-P1', estimate: 0.335, ci_low: 0.227, ci_high: 0.447, p_holm: 0.00003 }));
  assert.match(text, /^P2 was 33\.5 percentage points higher than P1/);
  assert.match(text, /\[22\.7, 44\.7\] lies entirely above zero/);
  assert.match(text, /p < \.0001 is below \.05: evidence of a difference/);
});

test('describeContrast: interval and test pointing different ways are flagged (the paper\'s P3−P2)', () => {
  const text = describeContrast(row({ contrast: 'P3-P2', estimate: 0.018, ci_low: 0.005, ci_high: 0.032, p_holm: 0.0505 }));
  assert.match(text, /lies entirely above zero/);
  assert.match(text, /is not below \.05/);
  assert.match(text, /point different ways/);
});

test('describeContrast: negative F1 contrast is descriptive; null and zero estimates', () => {
  const f1 = describeContrast(row({ metric: 'f1', estimate: -0.012, ci_low: -0.03, ci_high: -0.001, p_holm: null }));
  assert.match(f1, /^P1 was 1\.2 percentage points lower than P0 in macro F1/);
  assert.match(f1, /lies entirely below zero/);
  assert.match(f1, /descriptive: no adjusted test/);
  assert.match(describeContrast(row({ estimate: null, ci_low: null, ci_high: null, states: 0 })), /nothing to compare/);
  assert.match(describeContrast(row({ estimate: 0, ci_low: 0, ci_high: 0, states: 1 })), /P1 and P0 had the same exact-set accuracy, averaged over 1 knowledge state\./);
  assert.match(describeContrast(row({ estimate: -0.0001 })), /less than 0\.05 percentage points .*\(P1 lower\)/);
});

test('contrastDifferences reproduces the fixture\'s hand-worked state-level differences', () => {
  const { states, differences } = contrastDifferences(scored, 'P1-P0', 'exact');
  const expected: Record<string, number> = {
    'tiny:{}': 0.5,
    'tiny:{A}': 0.25,
    'tiny:{C}': -0.25,
    'tiny:{A,B}': 0,
    'tiny:{A,C}': 0.25,
    'tiny:{A,B,C}': 0.25,
    'pair:{}': 0.25,
    'pair:{X}': 0,
    'pair:{X,Y}': 0,
  };
  assert.deepEqual(Object.fromEntries(states.map((s, i) => [s, differences[i]])), expected);
  assert.deepEqual(contrastDifferences(scored, 'P2-P1', 'exact'), { states: [], differences: [] });
  assert.throws(() => contrastDifferences(scored, 'P3-P0', 'exact'), RangeError);
});

test('bootstrapDistribution re-draws the analysis\'s resamples: its percentiles are the reported interval', () => {
  const options = { resamples: 2000, flips: 1000, seed: '7' };
  const rows = contrasts(scored, options);
  const exact = rows.find((r) => r.contrast === 'P1-P0' && r.metric === 'exact')!;
  const means = bootstrapDistribution(scored, exact, options.resamples);
  assert.equal(means.length, 2000);
  const sorted = Float64Array.from(means).sort();
  assert.equal(percentileLinear(sorted, 0.025), exact.ci_low);
  assert.equal(percentileLinear(sorted, 0.975), exact.ci_high);
  const seeds = inferenceSeeds(rows, options);
  assert.equal(seeds[0]!['bootstrap seed'], '7:P1-P0:exact:bootstrap');
  assert.equal(seeds[0]!['sign-flip seed'], '7:P1-P0:exact:signflip');
  const spec = bootstrapHistogramSpec(means, exact, { published: { estimate: 1.5, ci_low: -3.2, ci_high: 6.3 } });
  assert.equal((spec.data[0]!['x'] as number[]).length, 2000);
  assert.equal((spec.layout!['shapes'] as unknown[]).length, 6);
  assert.match((spec.layout!['title'] as { text: string }).text, /^Bootstrap distribution of P1-P0 \(exact-set accuracy\), 2,000 resamples$/);
  // Estimate line at the estimate in percentage points.
  assert.equal((spec.layout!['shapes'] as Array<{ x0: number }>)[0]!.x0, exact.estimate! * 100);
});

test('mirrors: simulated profiles name their paper row; real names match by letters and digits', () => {
  const names = published.table4.rows.map((r: { model: string }) => r.model);
  assert.equal(paperRowFor('simulated:sim-a', names), 'Claude Fable 5');
  assert.equal(paperRowFor('simulated:sim-f', names), 'Gemini 3.7 Flash');
  assert.equal(paperRowFor('openai:gpt-5.6-sol', names), 'GPT-5.6 Sol');
  assert.equal(paperRowFor('simulated:sim-zz', names), undefined);
  assert.deepEqual(paperRows(['simulated:sim-b', 'x:y'], names), { 'simulated:sim-b': 'Claude Sonnet 5' });
  assert.equal(modelLabel('simulated:sim-b', { 'simulated:sim-b': 'Claude Sonnet 5' }), 'sim-b ≈ Claude Sonnet 5');
  assert.equal(modelLabel('openai:gpt-5.6-sol', { 'openai:gpt-5.6-sol': 'GPT-5.6 Sol' }), 'gpt-5.6-sol');
});

test('simulated notices say how much of the input is simulated', () => {
  assert.equal(simulatedNotice([{ simulated: false }]), '');
  assert.match(simulatedNotice([{ simulated: true }, { simulated: true }]), /^\*\*Simulated data\.\*\* All 2 responses/);
  assert.match(simulatedNotice([{ simulated: true }, { simulated: false }]), /1 of 2 responses/);
  assert.equal(markSimulated('Table 3', true), 'Table 3 — SIMULATED data');
  assert.equal(markSimulated('Table 3', false), 'Table 3');
});

test('terminal states: the fixture\'s six terminal groups (tiny ABC, pair XY) hand-counted', () => {
  // tiny ABC and pair XY × 2 models × 2 conditions × 2 orders = 16 responses; d3 (m2 P0 tiny ABC o1)
  // recommends {C} → 15 correct; none invalid.
  const s = terminalSummary(scored);
  assert.deepEqual(s, { responses: 16, correct: 15, invalid: 0 });
  assert.deepEqual(terminalComparison(s, published)[1], { measure: 'correct (empty recommendation)', computed: 15, paper: 192 });
});

test('agreement table in percent with two decimals', () => {
  assert.deepEqual(agreementTable([{ group: 'P0', pairs: 17, exact_agreement: 13 / 17, mean_jaccard: 14.5 / 17 }], 'condition'), [
    { condition: 'P0', pairs: 17, 'exact agreement (%)': 76.47, 'mean pairwise Jaccard (%)': 85.29 },
  ]);
});

test('paper domain order and figures 2/3 with the published numbers', () => {
  const domains = [
    { id: 'slope', title: 'Slope' },
    { id: 'equation-to-graph', title: 'Equation to Graph' },
    { id: 'linear-modelling', title: 'Linear Modelling' },
    { id: 'graph-to-equation', title: 'Graph to Equation' },
  ];
  const { order, labels } = paperDomainOrder(published, domains);
  assert.deepEqual(order, ['linear-modelling', 'slope', 'graph-to-equation', 'equation-to-graph']);
  assert.equal(labels['graph-to-equation'], 'Graph to Equation');

  const rows = [
    { domain: 'slope', condition: 'P0' as const, n: 132, exact: 0.5 },
    { domain: 'equation-to-graph', condition: 'P0' as const, n: 84, exact: 1 },
  ];
  const spec2 = figure2WithPaper(rows, published, { simulated: false, domainOrder: ['slope', 'equation-to-graph'], domainLabels: labels });
  assert.deepEqual(spec2.data[0]!['text'], [['50.0<br>n=132<br>paper 36.4'], ['100.0<br>n=84']]);
  assert.deepEqual(spec2.data[0]!['y'], ['Slope<br>(paper overall 65.0)', 'Equation to Graph<br>(paper overall 97.0)']);

  const mirrors = { 'simulated:sim-a': 'Claude Fable 5', 'simulated:sim-f': 'Gemini 3.7 Flash' };
  const comparison = [
    { model: 'simulated:sim-a', correct: 18, n: 18 },
    { model: 'simulated:sim-f', correct: 9, n: 18 },
  ];
  const spec3 = figure3WithPaper(comparison, mirrors, { simulated: true, title: 'G→E × P1', paper: published.figure3 });
  assert.equal(spec3.data.length, 2);
  // Bars bottom-up (worst first), the paper's markers on the same rows: Flash 14/18, Fable 17/18.
  assert.deepEqual(spec3.data[1]!['y'], ['sim-f ≈ Gemini 3.7 Flash', 'sim-a ≈ Claude Fable 5']);
  assert.deepEqual(spec3.data[1]!['x'], [77.8, 94.4]);
  assert.deepEqual(figure3Comparison(comparison, mirrors, published.figure3)[1], {
    model: 'simulated:sim-f',
    'paper row': 'Gemini 3.7 Flash',
    correct: 9,
    n: 18,
    'exact %': 50,
    'correct (paper)': 14,
    'n (paper)': 18,
    'exact % (paper)': 77.8,
  });
  assert.equal(figure3WithPaper(comparison, mirrors, { simulated: false, title: 't', paper: null }).data.length, 1);
});

test('overall line: macro averages over every scored response (fixture: 71 scored, 64 exact)', async () => {
  const { overallComparison } = await import('../../lib/report');
  const rows = overallComparison(scored, published);
  // P0 30/36 exact + P1 34/35 exact = 64/71.
  assert.deepEqual(rows[0], { measure: 'n', computed: 71, paper: 2400 });
  assert.deepEqual(rows[1], { measure: 'exact (%)', computed: Math.round((64 / 71) * 1000) / 10, paper: 79.7 });
  // precision: P0 33/36 + P1 34/35 → (33 + 34)/71.
  assert.equal(rows[2]!.computed, Math.round((67 / 71) * 1000) / 10);
});

test('paper Figure 3 counts only for the paper\'s domain × condition; agreement labels', async () => {
  const { paperFigure3For } = await import('../../lib/report');
  assert.equal(paperFigure3For(published, 'graph-to-equation', 'P1')!.correct['GPT-5.6 Sol'], 17);
  assert.equal(paperFigure3For(published, 'slope', 'P1'), null);
  assert.equal(paperFigure3For(published, 'graph-to-equation', 'P0'), null);
  assert.equal(agreementTable([{ group: 'simulated:sim-a', pairs: 1, exact_agreement: 1, mean_jaccard: 1 }], 'model', { 'simulated:sim-a': 'sim-a ≈ Claude Fable 5' })[0]!['model'], 'sim-a ≈ Claude Fable 5');
});

test('graph tables: flat per-response rows and the summary in percent', async () => {
  const { graphRowsTable, graphSummaryTable, graphVerdictSpec } = await import('../../lib/report');
  const { analyzeGraph, graphSummaryBy } = await import('../../lib/analysis/graphs');
  const [domain] = loadDomainDir(join(fixture, 'domains')).filter((d) => d.id === 'tiny');
  // tiny: A→B, C free. State ∅, reference {A, C}; graph C→A→B implies {C}; recommendation {C}: (b).
  // direct {A>B, C>A} vs cover {A>B}: P 1/2, R 1; closure {A>B, C>A, C>B} vs surmise {A>B}: P 1/3, R 1.
  const row = analyzeGraph(domain!, { runId: 'r', model: 'm', order: 1, state: [], recommended: ['C'], reference: ['A', 'C'], pairs: [['C', 'A'], ['A', 'B']] });
  assert.deepEqual(graphRowsTable([row])[0], {
    run_id: 'r',
    model: 'm',
    domain: 'tiny',
    order: 1,
    state: '∅',
    returned_pairs: 'A>B C>A',
    self_pairs: 0,
    cyclic: false,
    recommended: 'C',
    reference_fringe: 'A C',
    own_graph_fringe: 'C',
    verdict: 'wrong-structure',
    follows_own_graph: true,
    direct_precision: 1 / 2,
    direct_recall: 1,
    closure_precision: 1 / 3,
    closure_recall: 1,
  });
  const summary = graphSummaryBy([row, { ...row, verdict: 'correct', consistent: false }], 'model');
  const table = graphSummaryTable(summary, 'model', { m: 'model m' })[0]!;
  assert.deepEqual([table['model'], table['(a) %'], table['(b) %'], table['(c) %'], table['follows own graph %']], ['model m', 50, 50, 0, 50]);
  const spec = graphVerdictSpec(summary, { title: 'P1' });
  assert.deepEqual(spec.data.map((t) => t['x']), [[50], [50], [0]]);
  assert.equal(graphRowsTable([{ ...row, pairs: [], recommended: [] }])[0]!.returned_pairs, '∅');
});

test('figure 1 with paper markers: each marker shares its bar\'s offset group', async () => {
  const { figure1WithPaper } = await import('../../lib/report');
  const spec = figure1WithPaper([{ condition: 'P0', n: 600, exact: 0.6, precision: 0.8, recall: 0.9, f1: 0.82, jaccard: 0.77 }], published, { simulated: true });
  assert.deepEqual(spec.data.map((t) => [t['name'], t['offsetgroup']]), [
    ['Exact set', 'exact'],
    ['Macro F1', 'f1'],
    ['Paper: exact', 'exact'],
    ['Paper: F1', 'f1'],
  ]);
  assert.deepEqual(spec.data[2]!['y'], [61.3]);
  assert.equal(spec.layout!['scattermode'], 'group');
});

test('contrast display table prints p values as the paper does', async () => {
  const { contrastTable } = await import('../../lib/report');
  const [r] = contrastTable([row({ contrast: 'P2-P1', p: 0.00001, p_holm: 0.00003 })], published);
  assert.deepEqual([r!.p, r!.p_holm, r!['p_holm (paper)'], r!.estimate], ['< .0001', '< .0001', '< .0001', 1.5]);
  const [e] = contrastTable([row({})], published);
  assert.equal(e!['p_holm (paper)'], '.6022');
  const [f] = contrastTable([row({ metric: 'f1', p: 0.60221, p_holm: null })], published);
  assert.deepEqual([f!.p, f!.p_holm, f!['p_holm (paper)']], ['.6022', null, null]);
});
