import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDomain } from '../../lib/kst';
import { table1 } from '../../lib/analysis/table1';
import { abcDomain } from './helpers';

test('table1: components, states and terminal states, domains sorted by ID', () => {
  // abc (A → B): 6 states (helpers.ts); quasi-ordinal, so only Q = {A,B,C} has an empty outer fringe.
  // b-not-qo: basis {a,b}, {b,c} over {a,b,c} → states ∅, ab, bc, abc. Outer fringes: ∅ + any single
  // task is no state → ∅ is terminal; ab + c ✓; bc + a ✓; abc terminal → 2 terminal states.
  const notQuasiOrdinal = buildDomain({
    id: 'b-not-qo', title: 'b', source: 'test',
    components: ['a', 'b', 'c'].map((id) => ({ id, description: id })),
    basis: [['a', 'b'], ['b', 'c']],
  });
  assert.deepEqual(table1([abcDomain('c-abc'), notQuasiOrdinal]), [
    { domain: 'b-not-qo', components: 3, states: 4, terminal_states: 2 },
    { domain: 'c-abc', components: 3, states: 6, terminal_states: 1 },
  ]);
});
