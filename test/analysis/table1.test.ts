import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetError, buildDomain, workBudget } from '../../lib/kst';
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

test('Table 1 counts exactly (a digit string above 2^53) and stops at the work budget naming --max-states', () => {
  const comp = (id: string) => ({ id, description: id });
  const wide = buildDomain({ id: 'wide', title: 'w', source: 't', components: Array.from({ length: 64 }, (_, i) => comp(`t${i}`)), prerequisites: [] });
  assert.deepEqual(table1([wide]), [{ domain: 'wide', components: 64, states: '18446744073709551616', terminal_states: 1 }]);
  // Not quasi-ordinal and connected (x has 40 atoms): its count walk, then the terminal walk, would take hours.
  const items = Array.from({ length: 40 }, (_, i) => `i${i}`);
  const routes = buildDomain({ id: 'routes', title: 'r', source: 't', components: [...items, 'x'].map(comp), basis: [...items.map((i) => [i]), ...items.map((i) => [i, 'x'])] });
  assert.throws(() => table1([routes], workBudget(10_000)), (err: unknown) => err instanceof BudgetError && /--max-states 10000/.test((err as Error).message));
});
