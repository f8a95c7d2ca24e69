import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDomain, countStates, loadDomain, loadDomainDir } from '../../lib/kst';
import { InputError } from '../../lib/errors';
import { table1 } from '../../lib/analysis';
import { componentRows, describeState, outerFringeComparison, stateRows, table1Comparison, withPrerequisites } from '../../lib/report/kst-foundations';

const ROOT = join(__dirname, '..', '..');
const slope = loadDomain(join(ROOT, 'data', 'raw', 'domains', 'slope.json'));

test('component rows: direct and all prerequisites (SL5 needs SL3, SL4 directly; SL1..SL4 in all)', () => {
  const rows = componentRows(slope);
  const sl5 = rows.find((r) => r.id === 'SL5')!;
  assert.equal(sl5['direct prerequisites'], 'SL3, SL4');
  assert.equal(sl5['all prerequisites'], 'SL1, SL2, SL3, SL4');
  assert.equal(rows[0]!['direct prerequisites'], '');
});

test('state rows: the 11 slope states with outer and inner fringes, worked by hand', () => {
  const rows = stateRows(slope);
  assert.equal(rows.length, 11);
  assert.deepEqual(rows[0], { state: '∅', size: 0, 'outer fringe': '{SL1}', 'inner fringe': '∅' });
  assert.deepEqual(rows[1], { state: '{SL1}', size: 1, 'outer fringe': '{SL2,SL4}', 'inner fringe': '{SL1}' });
  const r124 = rows.find((r) => r.state === '{SL1,SL2,SL4}')!;
  assert.deepEqual(r124, { state: '{SL1,SL2,SL4}', size: 3, 'outer fringe': '{SL3}', 'inner fringe': '{SL2,SL4}' });
  assert.deepEqual(rows[10], { state: '{SL1,SL2,SL3,SL4,SL5,SL6,SL7}', size: 7, 'outer fringe': '∅', 'inner fringe': '{SL6,SL7}' });
});

test('Table 1 comparison: computed counts beside the published ones, paper order, total row', () => {
  const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8')).table1;
  const rows = table1Comparison(table1(loadDomainDir(join(ROOT, 'data', 'raw', 'domains'))), published);
  assert.deepEqual(rows.map((r) => r.domain), ['linear-modelling', 'slope', 'graph-to-equation', 'equation-to-graph', 'Total']);
  assert.deepEqual(rows[4], {
    domain: 'Total',
    components: 23,
    'components (paper)': 23,
    states: 50,
    'states (paper)': 50,
    'terminal states': 4,
    'terminal states (paper)': 4,
  });
  assert.equal(rows[0]!.states, 23);
  assert.equal(rows[0]!['states (paper)'], 23);
  // A computed domain the paper lacks comes last; a paper domain not computed has empty computed cells.
  const extra = table1Comparison([{ domain: 'extra', components: 2, states: 3, terminal_states: 1 }], published);
  assert.deepEqual(extra.map((r) => r.domain), ['linear-modelling', 'slope', 'graph-to-equation', 'equation-to-graph', 'extra', 'Total']);
  assert.equal(extra[0]!.states, null);
  assert.equal(extra[4]!['states (paper)'], null);
  assert.equal(extra[5]!.states, 3);
});

test('adding a prerequisite shrinks the space; a cycle or unknown ID is an InputError; the original is unchanged', () => {
  // SL2 now also needs SL4: states ∅,{1},{1,4},{1,2,4},{1,2,3,4},{1..5},{1..5,6},{1..5,7},Q.
  const more = withPrerequisites(slope, [['SL4', 'SL2']]);
  assert.equal(countStates(more), 9);
  assert.equal(countStates(slope), 11);
  assert.equal(slope.prerequisites.length, 7);
  assert.throws(() => withPrerequisites(slope, [['SL5', 'SL1']]), (e: unknown) => e instanceof InputError && /cycle/i.test(e.message));
  assert.throws(() => withPrerequisites(slope, [['SL9', 'SL1']]), InputError);
});

test('describeState explains states and non-states without throwing', () => {
  assert.equal(describeState(slope, ['SL4', 'SL1']), '{SL1,SL4} is a knowledge state of slope; admissible next steps (outer fringe): {SL2}');
  assert.equal(
    describeState(slope, ['SL1', 'SL3']),
    '{SL1,SL3} is not a knowledge state of slope: SL3 is in the state but its prerequisite SL2 is not',
  );
  assert.match(describeState(slope, ['XX']), /unknown component ID\(s\) XX/);
  assert.match(describeState(slope, slope.ids), /full domain/);
  assert.match(describeState(slope, ['SL1', 'SL1']), /twice/);
});

test('outerFringeComparison: notebook 01\'s two routes against their prerequisite hull, worked by hand', () => {
  const components = ['a', 'b', 'c', 'd'].map((id) => ({ id, description: id }));
  const twoRoutes = buildDomain({ id: 'two-routes', title: 'Two routes', source: 't', components, surmise: { c: [['a'], ['b']], d: [['a', 'c'], ['b', 'c']] } });
  // The only pair every route shares is c before d: in the hull, c needs nothing, so it is learnable from ∅.
  const hull = buildDomain({ id: 'hull', title: 'Hull', source: 't', components, prerequisites: [['c', 'd']] });
  assert.equal(
    outerFringeComparison({ label: 'two routes', domain: twoRoutes }, { label: 'prerequisite hull', domain: hull }, [[], ['a'], ['a', 'c']]),
    [
      '∅        outer fringe, two routes: {a,b}    prerequisite hull: {a,b,c}',
      '{a}      outer fringe, two routes: {b,c}    prerequisite hull: {b,c}',
      '{a,c}    outer fringe, two routes: {b,d}    prerequisite hull: {b,d}',
    ].join('\n'),
  );
  // {c} is a state of the hull but not of the two routes (c needs a or b): one InputError line, as outerFringe gives.
  assert.throws(() => outerFringeComparison({ label: 'r', domain: twoRoutes }, { label: 'h', domain: hull }, [['c']]), InputError);
});
