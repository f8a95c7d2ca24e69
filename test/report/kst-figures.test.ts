import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figure1Spec, figure2Spec, figure3Spec } from '../../lib/report/kst-figures';
import type { ScoredRecord } from '../../lib/analysis';

const row = (condition: 'P0' | 'P1', exact: number, f1: number) => ({ condition, n: 10, exact, precision: 0, recall: 0, f1, jaccard: 0 });

test('figure 1 has exact and F1 bars in percent, published markers, and says when simulated', () => {
  const spec = figure1Spec([row('P0', 0.613, 0.822), row('P1', 0.5, 0.25)], { simulated: true, published: { P0: { exact: 61.3, f1: 82.2 } } });
  assert.equal(spec.data.length, 4);
  assert.deepEqual(spec.data[0]!.y, [61.3, 50]);
  assert.deepEqual(spec.data[1]!.text, ['82.2', '25.0']);
  assert.deepEqual(spec.data[2]!.y, [61.3, null]);
  assert.match(String((spec.layout!.title as { text: string }).text), /SIMULATED/);
  assert.doesNotMatch(String((figure1Spec([row('P0', 1, 1)], { simulated: false }).layout!.title as { text: string }).text), /SIMULATED/);
});

test('figure 2 lays domains out in the given order with n in each cell', () => {
  const spec = figure2Spec(
    [
      { domain: 'b', condition: 'P0', n: 4, exact: 0.25 },
      { domain: 'a', condition: 'P0', n: 2, exact: 1 },
    ],
    { simulated: false, domainOrder: ['a', 'b'], domainLabels: { a: 'Alpha' } },
  );
  assert.deepEqual(spec.data[0]!.y, ['Alpha', 'b']);
  assert.deepEqual(spec.data[0]!.z, [[100], [25]]);
  assert.deepEqual(spec.data[0]!.text, [['100.0<br>n=2'], ['25.0<br>n=4']]);
});

test('figure 3 labels each model\'s correct responses k/n, best on top', () => {
  const comparison = [
    { model: 'm2', correct: 2, n: 2 },
    { model: 'm1', correct: 1, n: 2 },
  ];
  const spec = figure3Spec(comparison, { simulated: false, title: 'G | P1' });
  assert.deepEqual(spec.data[0]!.y, ['m1', 'm2']);
  assert.deepEqual(spec.data[0]!.text, ['50.0% (1/2)', '100.0% (2/2)']);
});

test('a bar at 0 keeps its value label: figure 1 puts it outside in dark text, figure 3 right of the axis', () => {
  const spec = figure1Spec([row('P0', 0, 0.4), row('P1', 0.5, 0)], { simulated: false });
  assert.deepEqual(spec.data[0]!['text'], ['0.0', '50.0']);
  assert.deepEqual(spec.data[0]!['textposition'], ['outside', 'inside']);
  assert.deepEqual(spec.data[1]!['textposition'], ['inside', 'outside']);
  assert.deepEqual(spec.data[0]!['outsidetextfont'], { color: '#222222' });
  // With no bar at 0 the spec is as before: one position for the whole trace, no outside font.
  const plain = figure1Spec([row('P0', 0.2, 0.4)], { simulated: false });
  assert.equal(plain.data[0]!['textposition'], 'inside');
  assert.equal('outsidetextfont' in plain.data[0]!, false);
  const spec3 = figure3Spec([{ model: 'm1', correct: 0, n: 2 }, { model: 'm2', correct: 1, n: 2 }], { simulated: false, title: 't' });
  assert.deepEqual(spec3.data[0]!['text'], ['50.0% (1/2)', '0.0% (0/2)']);
  assert.deepEqual(spec3.data[0]!['textposition'], ['auto', 'outside']);
});
