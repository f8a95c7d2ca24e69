import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { countStates, coverRelation, enumerateStates, isClosedUnderUnionAndIntersection, loadDomainDir, outerFringe } from '../../lib/kst';

const DIR = join(__dirname, '..', '..', 'data', 'raw', 'domains');

// Table 1 of the paper: components / states / terminal states.
const TABLE_1: Record<string, { title: string; components: number; states: number }> = {
  'linear-modelling': { title: 'Linear Modelling', components: 7, states: 23 },
  slope: { title: 'Slope', components: 7, states: 11 },
  'graph-to-equation': { title: 'Graph to Equation', components: 5, states: 9 },
  'equation-to-graph': { title: 'Equation to Graph', components: 4, states: 7 },
};

test('the four study domains match Table 1 (23 components, 50 states, one terminal state each)', () => {
  const domains = loadDomainDir(DIR);
  assert.deepEqual(
    domains.map((d) => d.id),
    ['equation-to-graph', 'graph-to-equation', 'linear-modelling', 'slope'],
  );
  let components = 0;
  let states = 0;
  for (const d of domains) {
    const expected = TABLE_1[d.id]!;
    assert.equal(d.title, expected.title);
    assert.equal(d.ids.length, expected.components, d.id);
    const all = enumerateStates(d);
    assert.equal(all.length, expected.states, d.id);
    assert.equal(countStates(d), expected.states, d.id);
    assert.equal(isClosedUnderUnionAndIntersection(all), true);
    const terminal = all.filter((s) => outerFringe(d, s).length === 0);
    assert.deepEqual(terminal, [d.ids], `${d.id}: the only terminal state is the full domain`);
    if (d.id === 'linear-modelling') {
      for (const fact of ['kstMatrix 2.3-4', 'phsg', 'GPL-3', 'Table 1', 'believed, not confirmed']) assert.ok(d.source.includes(fact), fact);
    } else assert.match(d.source, /not the authors' original SaTiM/);
    // The file lists only cover pairs (no redundant implied pairs).
    assert.equal(coverRelation(d).length, d.prerequisites.length, d.id);
    components += d.ids.length;
    states += all.length;
  }
  assert.equal(components, 23);
  assert.equal(states, 50);
});

test('equation-to-graph states worked out by hand', () => {
  // EG1→EG2→EG4, EG3→EG4
  const d = loadDomainDir(DIR).find((x) => x.id === 'equation-to-graph')!;
  assert.deepEqual(enumerateStates(d), [
    [],
    ['EG1'],
    ['EG3'],
    ['EG1', 'EG2'],
    ['EG1', 'EG3'],
    ['EG1', 'EG2', 'EG3'],
    ['EG1', 'EG2', 'EG3', 'EG4'],
  ]);
});

test("linear-modelling is kstMatrix's phsg: derived prerequisites and outer-fringe sizes worked out by hand", () => {
  const d = loadDomainDir(DIR).find((x) => x.id === 'linear-modelling')!;
  assert.equal(d.form, 'basis');
  assert.equal(d.quasiOrdinal, true);
  // Atoms: LM4 = {1,2,3,4}, LM5 = {2,5}, LM6 = {3,6}, LM7 = Q; LM1-LM3 alone. Cover pairs: 1,2,3 < 4;
  // 2 < 5; 3 < 6; 4,5,6 < 7 (1,2,3 < 7 implied through 4): 8 pairs.
  assert.deepEqual(d.prerequisites, [
    ['LM1', 'LM4'], ['LM2', 'LM4'], ['LM2', 'LM5'], ['LM3', 'LM4'], ['LM3', 'LM6'], ['LM4', 'LM7'], ['LM5', 'LM7'], ['LM6', 'LM7'],
  ]);
  // States: subsets S of {1,2,3} (8) extended by 5 when 2 ∈ S, by 6 when 3 ∈ S, by 4 when S = {1,2,3}:
  // S=∅:1, {1}:1, {2}:2, {3}:2, {1,2}:2, {1,3}:2, {2,3}:4, {1,2,3}: 4 without LM4 + 4 with LM4 = 8 → 22,
  // plus Q (LM7 needs 4, 5, 6): 23.
  const all = enumerateStates(d);
  assert.equal(all.length, 23);
  const sizes: Record<number, number> = {};
  for (const s of all) sizes[outerFringe(d, s).length] = (sizes[outerFringe(d, s).length] ?? 0) + 1;
  assert.deepEqual(sizes, { 0: 1, 1: 7, 2: 10, 3: 5 });
});
