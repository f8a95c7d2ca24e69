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
    assert.match(d.source, /not the authors' original SaTiM/);
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
