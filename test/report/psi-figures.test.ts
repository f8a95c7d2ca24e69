import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RegenerationPair, ScoredRecord } from '../../lib/psi/aggregate';
import { bloomFigureSpec, deltaSensitivitySpec, regenerationFigureSpec } from '../../lib/report/psi-figures';

const perModel = [
  { model: 'a', level: 1, levelName: 'Remember', n: 1, psi: 0.62 },
  { model: 'a', level: 4, levelName: 'Analyze', n: 6, psi: 0.55 },
  { model: 'b', level: 4, levelName: 'Analyze', n: 6, psi: 0.57 },
];
const pooled = [
  { level: 1, levelName: 'Remember', n: 1, psi: 0.62 },
  { level: 4, levelName: 'Analyze', n: 12, psi: 0.56 },
];

test('Bloom figure: one line per model (gaps as null), the pooled mean, and the paper diamonds', () => {
  const spec = bloomFigureSpec(perModel, pooled, { names: { a: 'ChatGPT' }, published: { remember: 0.6, analyze: 0.56 } });
  assert.deepEqual(spec.data.map((t) => t['name']), ['a (≈ ChatGPT)', 'b', 'all models', 'paper: cross-model mean']);
  assert.deepEqual(spec.data[1]!['y'], [null, 0.57]);
  assert.deepEqual(spec.data[2]!['y'], [0.62, 0.56]);
  assert.deepEqual(spec.data[3]!['y'], [0.6, 0.56]);
  const noPaper = bloomFigureSpec(perModel, pooled, { published: { apply: 0.5 } });
  assert.equal(noPaper.data.length, 3);
});

function pair(model: string, scenario: string, before: number, after: number): RegenerationPair {
  const r = (round: 1 | 2, psi: number): ScoredRecord => ({
    run_id: `r${round}-${model}-${scenario}`, round, scenario, variant: 'defective', model, psi,
    subscores: { kd: psi, tv: psi, sd: psi, ef: psi, cl: psi, ra: psi }, scoreSource: 'rescored',
  });
  return { model, scenario, before: r(1, before), after: r(2, after), gain: after - before };
}

test('regeneration figure: cases grouped by model, lowest before first, rose/fell segments split', () => {
  const pairs = [pair('b', 'S1', 0.5, 0.55), pair('a', 'S2', 0.45, 0.44), pair('a', 'S1', 0.4, 0.5)];
  const spec = regenerationFigureSpec(pairs, { names: { a: 'ChatGPT' }, threshold: 0.59 });
  // Order: a/S1 (0.4), a/S2 (0.45), b/S1 (0.5).
  assert.deepEqual(spec.data[2]!['y'], [0.4, 0.45, 0.5]);
  assert.deepEqual(spec.data[3]!['y'], [0.5, 0.44, 0.55]);
  assert.equal(spec.data[0]!['name'], 'PSI rose (2)');
  assert.deepEqual(spec.data[0]!['x'], [1, 1, null, 3, 3, null]);
  assert.deepEqual(spec.data[1]!['y'], [0.45, 0.44, null]);
  const annotations = spec.layout!['annotations'] as Array<{ text: string; x: number }>;
  assert.deepEqual(annotations.slice(0, 2).map((a) => [a.text, a.x]), [['≈ ChatGPT<br>n=2', 1.5], ['b<br>n=1', 3]]);
  assert.match(annotations[2]!.text, /threshold 0.59/);
  const shapes = spec.layout!['shapes'] as Array<{ x0: number; y0: number }>;
  assert.equal(shapes[0]!.x0, 2.5); // divider between the two models
  assert.equal(shapes[1]!.y0, 0.59);
});

test('δ sensitivity figure: a line per model over the grid and a marker line at the paper δ', () => {
  const spec = deltaSensitivitySpec(
    [
      { delta: 0.5, perModel: [{ model: 'b', psi: 0.6 }, { model: 'a', psi: 0.62 }] },
      { delta: 0.65, perModel: [{ model: 'a', psi: 0.64 }] },
    ],
    {},
  );
  assert.deepEqual(spec.data.map((t) => [t['name'], t['x'], t['y']]), [['a', [0.5, 0.65], [0.62, 0.64]], ['b', [0.5, 0.65], [0.6, null]]]);
  assert.equal((spec.layout!['shapes'] as Array<{ x0: number }>)[0]!.x0, 0.65);
  const label = (s: typeof spec) => (s.layout!['annotations'] as Array<{ text: string }>)[0]!.text;
  assert.equal(label(spec), 'paper δ_opt = 0.65');
  assert.equal(label(deltaSensitivitySpec([], { paper: false })), 'baseline δ_opt = 0.65', 'a study that does not replicate the paper: no paper label');
  assert.equal(label(deltaSensitivitySpec([], { baseline: 0.7 })), 'baseline δ_opt = 0.7');
});
