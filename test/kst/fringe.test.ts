import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import {
  checkState,
  compileStructure,
  idsToBits,
  innerFringe,
  innerFringeBits,
  isStateBits,
  outerFringe,
  outerFringeBits,
} from '../../lib/kst';
import { bitIndices } from '../../lib/kst/bitset';
import { bruteForceStates, maskIds, randomDomain, randomSparseDomain, tiny } from './random-poset';

// A→B, A→C, {B, C}→D, E independent
const diamond = tiny(['A', 'B', 'C', 'D', 'E'], [['A', 'B'], ['A', 'C'], ['B', 'D'], ['C', 'D']], 'diamond');

test('outer fringe: hand-worked diamond', () => {
  assert.deepEqual(outerFringe(diamond, []), ['A', 'E']);
  assert.deepEqual(outerFringe(diamond, ['A']), ['B', 'C', 'E']);
  assert.deepEqual(outerFringe(diamond, ['C', 'A', 'B']), ['D', 'E']);
  assert.deepEqual(outerFringe(diamond, ['A', 'B', 'C', 'D', 'E']), []);
});

test('inner fringe: hand-worked diamond', () => {
  assert.deepEqual(innerFringe(diamond, []), []);
  assert.deepEqual(innerFringe(diamond, ['A']), ['A']);
  assert.deepEqual(innerFringe(diamond, ['A', 'B', 'E']), ['B', 'E']);
  assert.deepEqual(innerFringe(diamond, ['A', 'B', 'C', 'D']), ['D']);
});

test('checkState names the first offending component and its missing prerequisites', () => {
  assert.deepEqual(checkState(diamond, ['A', 'B']), { ok: true });
  assert.deepEqual(checkState(diamond, ['B']), {
    ok: false,
    reason: 'not a knowledge state: B is in the state but its prerequisite A is not',
    component: 'B',
    missing: ['A'],
  });
  const r = checkState(diamond, ['D', 'A']);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.reason, 'not a knowledge state: D is in the state but its prerequisites B, C are not');
  assert.deepEqual(checkState(diamond, ['A', 'Q', 'Q']), {
    ok: false,
    reason: 'unknown component ID(s) Q for domain diamond',
    unknown: ['Q'],
  });
  assert.deepEqual(checkState(diamond, ['A', 'A']), { ok: true }, 'duplicates are set semantics');
  const hidden = checkState(diamond, ['A\u00a0', 'B\u200b']);
  assert.equal(!hidden.ok && hidden.reason, 'unknown component ID(s) A\\u{00A0}, B\\u{200B} for domain diamond', 'invisible characters are shown');
});

test('outer/inner fringe raise InputError for unknown IDs and non-states', () => {
  for (const fn of [outerFringe, innerFringe]) {
    assert.throws(() => fn(diamond, ['B']), (e: unknown) => e instanceof InputError && /B is in the state but its prerequisite A is not/.test(e.message));
    assert.throws(() => fn(diamond, ['X']), (e: unknown) => e instanceof InputError && /X/.test(e.message) && e.where.item === 'X');
  }
});

test('bitset fast path agrees with the string API', () => {
  const s = compileStructure(diamond);
  const state = idsToBits(s, ['A', 'C']);
  assert.equal(isStateBits(s, state), true);
  assert.equal(isStateBits(s, idsToBits(s, ['C'])), false);
  assert.deepEqual(bitIndices(outerFringeBits(s, state)), [1, 4]);
  const out = new Uint32Array(1).fill(0xff);
  assert.equal(innerFringeBits(s, state, out), out, 'writes into the given buffer');
  assert.deepEqual(bitIndices(out), [2]);
});

test('property: fringes from prerequisites equal fringes from the enumerated family (200 random DAGs)', () => {
  for (let k = 0; k < 200; k++) {
    const d = randomDomain(`fringe-${k}`, 1 + (k % 10), [0.1, 0.3, 0.6][k % 3]!);
    const family = new Set(bruteForceStates(d));
    const n = d.ids.length;
    for (let mask = 0; mask < 1 << n; mask++) {
      const ids = maskIds(d, mask);
      const isState = family.has(mask);
      assert.equal(checkState(d, ids).ok, isState, `${d.id} ${ids}`);
      if (!isState) continue;
      const outer: string[] = [];
      const inner: string[] = [];
      for (let q = 0; q < n; q++) {
        const bit = 1 << q;
        if (!(mask & bit) && family.has(mask | bit)) outer.push(d.ids[q]!);
        if (mask & bit && family.has(mask & ~bit)) inner.push(d.ids[q]!);
      }
      assert.deepEqual(outerFringe(d, ids), outer, `${d.id} outer ${ids}`);
      assert.deepEqual(innerFringe(d, ids), inner, `${d.id} inner ${ids}`);
    }
  }
});

test('fringes work on a 5,000-task DAG without enumeration', () => {
  const d = randomSparseDomain('big', 5000, 4);
  const s = compileStructure(d);
  // A state: everything with all prerequisites in the first half of a topological order.
  const topo = [...s.topologicalOrder];
  const state = topo.slice(0, 2500).map((i) => d.ids[i]!);
  assert.equal(checkState(d, state).ok, true);
  const outer = outerFringe(d, state);
  const members = new Set(state);
  const prerequisitesOf = new Map<string, string[]>();
  for (const [p, q] of d.prerequisites) prerequisitesOf.set(q, [...(prerequisitesOf.get(q) ?? []), p]);
  const expected = d.ids.filter((q) => !members.has(q) && (prerequisitesOf.get(q) ?? []).every((p) => members.has(p)));
  assert.deepEqual(outer, expected);
  assert.ok(outer.includes(d.ids[topo[2500]!]!), 'the next task in the topological order is always learnable');
  assert.ok(innerFringe(d, state).includes(d.ids[topo[2499]!]!), 'the last added task is always removable');
});
