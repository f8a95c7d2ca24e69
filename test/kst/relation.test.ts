import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDomain, coverRelation, surmiseRelation } from '../../lib/kst';
import { randomDomain, tiny, warshallClosure } from './random-poset';

test('surmiseRelation of a chain A→B→C lists every implied pair in canonical order', () => {
  const d = tiny(['A', 'B', 'C'], [['A', 'B'], ['B', 'C']]);
  assert.deepEqual(surmiseRelation(d), [
    ['A', 'B'],
    ['A', 'C'],
    ['B', 'C'],
  ]);
});

test('coverRelation drops the implied shortcut A→C', () => {
  const d = tiny(['A', 'B', 'C'], [['A', 'C'], ['B', 'C'], ['A', 'B']]);
  assert.deepEqual(coverRelation(d), [
    ['A', 'B'],
    ['B', 'C'],
  ]);
  assert.deepEqual(surmiseRelation(d), [
    ['A', 'B'],
    ['A', 'C'],
    ['B', 'C'],
  ]);
});

test('relations follow canonical order even when the file order is not topological', () => {
  // canonical order C, B, A with A→B→C and a diamond-free extra D independent
  const d = tiny(['C', 'D', 'B', 'A'], [['B', 'C'], ['A', 'B']]);
  assert.deepEqual(surmiseRelation(d), [
    ['B', 'C'],
    ['A', 'C'],
    ['A', 'B'],
  ]);
  assert.deepEqual(coverRelation(d), [
    ['B', 'C'],
    ['A', 'B'],
  ]);
});

test('diamond: both sides are covers, the long edge is not', () => {
  const d = tiny(['A', 'B', 'C', 'D'], [['A', 'B'], ['A', 'C'], ['B', 'D'], ['C', 'D'], ['A', 'D']]);
  assert.deepEqual(coverRelation(d), [
    ['A', 'B'],
    ['A', 'C'],
    ['B', 'D'],
    ['C', 'D'],
  ]);
  assert.equal(surmiseRelation(d).length, 5);
});

test('property: closure equals Warshall; reduction has the same closure and is minimal (200 random DAGs)', () => {
  for (let k = 0; k < 200; k++) {
    const d = randomDomain(`rel-${k}`, 2 + (k % 14), [0.1, 0.3, 0.6][k % 3]!);
    const closure = surmiseRelation(d).map(([p, q]) => `${p}<${q}`);
    assert.deepEqual([...closure].sort(), warshallClosure(d), d.id);
    const cover = coverRelation(d);
    const reduced = buildDomain({
      id: 'r',
      title: 'r',
      source: 'r',
      components: d.components,
      prerequisites: cover.map(([p, q]) => [p, q]),
    });
    assert.deepEqual(warshallClosure(reduced), warshallClosure(d), `${d.id}: reduction changes the closure`);
    // Minimal: dropping any cover pair changes the closure.
    for (let drop = 0; drop < cover.length; drop++) {
      const smaller = buildDomain({
        id: 's',
        title: 's',
        source: 's',
        components: d.components,
        prerequisites: cover.filter((_, i) => i !== drop).map(([p, q]) => [p, q]),
      });
      assert.notDeepEqual(warshallClosure(smaller), warshallClosure(d), `${d.id}: cover pair ${cover[drop]} is redundant`);
    }
  }
});

test('closure scales to thousands of components (1,200-task chain)', () => {
  const n = 1200;
  const ids = Array.from({ length: n }, (_, i) => `T${i}`);
  const d = tiny(ids, ids.slice(1).map((id, i) => [ids[i]!, id] as [string, string]), 'chain');
  assert.equal(surmiseRelation(d).length, (n * (n - 1)) / 2);
  assert.equal(coverRelation(d).length, n - 1);
});
