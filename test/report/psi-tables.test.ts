import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { beforeAfterTable, numericCell, paperModelMap, parsePublishedPsi, percentCell, weightsParameter } from '../../lib/report/psi-tables';
import { A, near, published } from './psi-fixtures';

test('parsePublishedPsi reads the shipped file and names the missing field', () => {
  assert.equal(published.table1.psi['ChatGPT'], 0.638);
  assert.throws(() => parsePublishedPsi('{"table1": {}}', 'p.json'), (e: unknown) => e instanceof InputError && /p\.json: .*table1\.psi/.test(e.message));
  assert.throws(() => parsePublishedPsi('{', 'p.json'), /p\.json:1: not valid JSON/);
});

/** Tolerance for values worked out by hand in decimal (the code computes them in binary floating point). */

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


test('weightsParameter: "equal" or six valid weights', () => {
  assert.deepEqual(Object.values(weightsParameter('equal')), [1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6]);
  assert.equal(weightsParameter({ kd: 0.5, tv: 0.5, sd: 0, ef: 0, cl: 0, ra: 0 }).kd, 0.5);
  assert.throws(() => weightsParameter({ kd: 0.5, tv: 0.4, sd: 0, ef: 0, cl: 0, ra: 0 }), /sum to 1/);
  assert.throws(() => weightsParameter('heavy'), InputError);
  assert.throws(() => weightsParameter([1]), InputError);
});

test('beforeAfterTable: one row per sub-score label then PSI, second − first, columns as named', () => {
  const first = { psi: 0.5, subscores: { kd: 0.9, tv: 1, sd: 0.1, ef: 0.3, cl: 1, ra: 0.6 } };
  const second = { psi: 0.625, subscores: { kd: 0.75, tv: 1, sd: 0.5, ef: 0.3, cl: 0.5, ra: 1 } };
  const rows = beforeAfterTable(first, second, { measure: 'sub-score', before: 'one', after: 'two', change: 'two − one' });
  assert.deepEqual(rows.map((r) => r['sub-score']), [
    'Knowledge distance', 'Temporal (prerequisite-order) violation', 'Scaffolding density', 'Ebbinghaus forgetting', 'Cognitive load', "Bloom's alignment", 'PSI',
  ]);
  assert.deepEqual(Object.keys(rows[0]!), ['sub-score', 'one', 'two', 'two − one']);
  // by hand: 0.5 − 0.1 = 0.4, 0.5 − 1 = −0.5, 1 − 0.6 = 0.4 (all exact in binary but 0.4, compared near), 0.625 − 0.5 = 0.125
  near(rows[2]!['two − one'], 0.4, 'SD change');
  assert.equal(rows[4]!['two − one'], -0.5);
  assert.equal(rows[1]!['two − one'], 0);
  assert.deepEqual(rows[6], { 'sub-score': 'PSI', one: 0.5, two: 0.625, 'two − one': 0.125 });
});
