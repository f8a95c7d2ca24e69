import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { buildDesign, cellKey, runIdFor, type DomainStates } from '../../lib/collect/design';

/** Four synthetic domains with the study's state counts 23 + 11 + 9 + 7 = 50. */
function studyLikeDomains(): DomainStates[] {
  const make = (id: string, count: number): DomainStates => ({
    domain: id,
    states: Array.from({ length: count }, (_, i) => (i === 0 ? [] : Array.from({ length: i }, (_, j) => `${id}-${j + 1}`))),
  });
  return [make('linear-modelling', 23), make('slope', 11), make('graph-to-equation', 9), make('equation-to-graph', 7)];
}

const models = ['openai:model-a', 'anthropic:model-b', 'simulated:sim-c'];
const conditions = ['P0', 'P1', 'P2', 'P3'];

test('design size is 50 states x 4 conditions x models x 2 orders, with unique run IDs', () => {
  const design = buildDesign(studyLikeDomains(), { models, conditions, orders: 2, seed: '7' });
  assert.equal(design.length, 50 * 4 * 3 * 2);
  assert.equal(new Set(design.map((c) => c.runId)).size, design.length);
  for (const m of models) assert.equal(design.filter((c) => c.model === m).length, 400);
  // models come in blocks in the given order
  assert.deepEqual(design.slice(0, 400).map((c) => c.model), Array(400).fill(models[0]));
});

test('design is deterministic for a seed and reshuffles for another seed', () => {
  const a = buildDesign(studyLikeDomains(), { models, conditions, orders: 2, seed: '7' });
  const b = buildDesign(studyLikeDomains(), { models, conditions, orders: 2, seed: '7' });
  const c = buildDesign(studyLikeDomains(), { models, conditions, orders: 2, seed: '8' });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.map((x) => x.runId), c.map((x) => x.runId));
  assert.deepEqual(new Set(a.map((x) => x.runId)), new Set(c.map((x) => x.runId)));
});

test('adding a model does not reshuffle the other models', () => {
  const one = buildDesign(studyLikeDomains(), { models: ['openai:model-a'], conditions, orders: 2, seed: '7' });
  const two = buildDesign(studyLikeDomains(), { models: ['openai:model-a', 'anthropic:model-b'], conditions, orders: 2, seed: '7' });
  assert.deepEqual(two.slice(0, 400), one);
});

test('run ID = domain.condition.o<order>.<12 hex of sha256 of the cell key>, independent of position', () => {
  const cell = { model: 'openai:gpt-x', domain: 'slope', state: ['S1', 'S2'], condition: 'P2', order: 1 };
  const key = 'kst|slope|S1,S2|P2|o1|openai:gpt-x';
  assert.equal(cellKey(cell), key);
  const expected = `slope.P2.o1.${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
  assert.equal(runIdFor(cell), expected);
  assert.equal(cellKey({ ...cell, state: [] }), 'kst|slope|∅|P2|o1|openai:gpt-x');
  const design = buildDesign([{ domain: 'slope', states: [[], ['S1'], ['S1', 'S2']] }], {
    models: ['openai:gpt-x'],
    conditions,
    orders: 2,
    seed: '99',
  });
  const found = design.find((c) => c.condition === 'P2' && c.order === 1 && c.state.join() === 'S1,S2');
  assert.equal(found?.runId, expected);
});

test('shuffle interleaves conditions, orders and domains over time', () => {
  const design = buildDesign(studyLikeDomains(), { models: ['openai:model-a'], conditions, orders: 2, seed: '20260908' });
  const first40 = design.slice(0, 40);
  assert.equal(new Set(first40.map((c) => c.condition)).size, 4);
  assert.equal(new Set(first40.map((c) => c.order)).size, 2);
  assert.ok(new Set(first40.map((c) => c.domain)).size >= 3);
  // Unshuffled, the condition would change only every 2 cells at most 200 times; shuffled, about 3/4 of 399 pairs differ.
  let changes = 0;
  for (let i = 1; i < design.length; i++) if (design[i]!.condition !== design[i - 1]!.condition) changes++;
  assert.ok(changes > 250, `condition changed only ${changes} times`);
  // Each quarter of the collection time holds every condition in roughly equal numbers (100 ± 35 per quarter).
  for (let q = 0; q < 4; q++) {
    const quarter = design.slice(q * 100, (q + 1) * 100);
    for (const c of conditions) {
      const n = quarter.filter((x) => x.condition === c).length;
      assert.ok(n >= 10 && n <= 45, `quarter ${q} has ${n} ${c} cells`);
    }
  }
});

test('a state listed twice is an input error naming the cell', () => {
  assert.throws(
    () => buildDesign([{ domain: 'd', states: [['a'], ['a']] }], { models: ['openai:m'], conditions: ['P0'], orders: 1, seed: '1' }),
    (err: Error) => err.name === 'InputError' && /duplicate design cell kst\|d\|a\|P0\|o1/.test(err.message),
  );
});

test('a design of 250,000 cells for one model is built (spreading them as push arguments overflowed the stack from about 125,000)', () => {
  // 62,500 states × 4 conditions × 1 order; the states need not form a space, buildDesign only crosses them.
  const states = Array.from({ length: 62_500 }, (_, i) => [`t${i}`]);
  const design = buildDesign([{ domain: 'big', states }], { models: ['simulated:sim-a'], conditions, orders: 1, seed: '7' });
  assert.equal(design.length, 250_000);
  assert.equal(design[0]!.model, 'simulated:sim-a');
});
