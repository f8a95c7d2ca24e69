import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cellSource, parseNotebook } from '../../lib/notebook/ipynb';
import { beforeAfterTable, deltaOptParameter, numericCell, paperModelMap, parsePublishedPsi, percentCell, weightsParameter } from '../../lib/report/psi-tables';
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

test('deltaOptParameter: δ_opt in [0, 1] as given; outside it one line naming the parameter ([PSI-2026] §III: sim is a share)', () => {
  for (const ok of [0, 0.5, 0.65, 1]) assert.equal(deltaOptParameter(ok), ok);
  for (const bad of [2, -0.1, 1.0001, Number.NaN, '0.5']) {
    assert.throws(() => deltaOptParameter(bad), (e: unknown) => e instanceof InputError && e.where.item === 'deltaOpt'
      && e.message === `deltaOpt parameter: expected a number in [0, 1], the target share of the response's concepts the learner already knows ([PSI-2026] uses 0.65), got ${JSON.stringify(bad)}`, String(bad));
  }
});

test('notebooks 10-13 check deltaOpt where they first use it, before anything is scored with it', () => {
  for (const name of ['10-psi-scoring', '11-psi-round1', '12-psi-regeneration', '13-psi-sensitivity-and-ratings']) {
    const file = join(__dirname, '..', '..', 'notebooks', `${name}.ipynb`);
    const nb = parseNotebook(readFileSync(file, 'utf8'), file);
    const code = nb.cells.filter((c) => c.cell_type === 'code' && c.id !== 'parameters').map((c) => cellSource(c)).join('\n');
    const first = /\bdeltaOpt\b(?!\s*:)/.exec(code);
    assert.ok(first, `${name} uses its deltaOpt parameter`);
    assert.equal(code.slice(first.index - 'tables.deltaOptParameter('.length, first.index), 'tables.deltaOptParameter(', `${name}: the first use of deltaOpt is checked`);
  }
});
