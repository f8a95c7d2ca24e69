/** lib/report/kst-paper-figures.ts: the paper's domain order and Figures 1–3 with the published numbers beside the computed ones. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { figure1WithPaper, figure2WithPaper, figure3Comparison, figure3WithPaper, paperDomainOrder, paperFigure3For } from '../../lib/report/kst-paper-figures';

const ROOT = join(__dirname, '..', '..');
const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));

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
  // A model with no correct response: its bar is 0 wide, so its label goes outside in dark text.
  const zero = figure3WithPaper([{ model: 'simulated:sim-a', correct: 18, n: 18 }, { model: 'simulated:sim-f', correct: 0, n: 18 }], mirrors, { simulated: false, title: 't', paper: null });
  assert.deepEqual(zero.data[0]!['text'], ['0.0% (0/18)', '100.0% (18/18)']);
  assert.deepEqual(zero.data[0]!['textposition'], ['outside', 'inside']);
  assert.deepEqual(zero.data[0]!['outsidetextfont'], { color: '#222222' });
  assert.equal(spec3.data[0]!['textposition'], 'inside');
});

test('paper Figure 3 counts only for the paper\'s domain × condition', () => {
  assert.equal(paperFigure3For(published, 'graph-to-equation', 'P1')!.correct['GPT-5.6 Sol'], 17);
  assert.equal(paperFigure3For(published, 'slope', 'P1'), null);
  assert.equal(paperFigure3For(published, 'graph-to-equation', 'P0'), null);
});
test('figure 1 with paper markers: each marker shares its bar\'s offset group', () => {
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
