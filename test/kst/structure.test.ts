import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { bitsToIds, compileStructure, idsToBits, unknownIds } from '../../lib/kst';
import { bitIndices } from '../../lib/kst/bitset';
import { tiny } from './random-poset';

test('compileStructure: direct lists, closure rows and smallest-first topological order', () => {
  // canonical order: C, A, B ; A→B→C
  const d = tiny(['C', 'A', 'B'], [['A', 'B'], ['B', 'C']]);
  const s = compileStructure(d);
  assert.equal(s.n, 3);
  assert.equal(s.words, 1);
  assert.deepEqual([...s.directPrerequisites[0]!], [2]); // C needs B
  assert.deepEqual([...s.directSuccessors[1]!], [2]); // A is needed by B
  assert.deepEqual(bitIndices(s.prerequisiteBits[0]!), [1, 2]); // C needs A and B
  assert.deepEqual(bitIndices(s.prerequisiteBits[1]!), []);
  assert.deepEqual([...s.topologicalOrder], [1, 2, 0]);
  assert.equal(compileStructure(d), s, 'cached per Domain object');
});

test('topological order is the identity when the file order respects prerequisites', () => {
  const d = tiny(['A', 'B', 'C', 'D'], [['A', 'C'], ['B', 'D']]);
  assert.deepEqual([...compileStructure(d).topologicalOrder], [0, 1, 2, 3]);
});

test('idsToBits / bitsToIds round-trip in canonical order; unknown IDs raise InputError', () => {
  const d = tiny(['A', 'B', 'C'], []);
  const s = compileStructure(d);
  assert.deepEqual(bitsToIds(s, idsToBits(s, ['C', 'A', 'C'])), ['A', 'C']);
  assert.deepEqual(unknownIds(d, ['X', 'A', 'X', 'Y']), ['X', 'Y']);
  assert.throws(() => idsToBits(s, ['A', 'X']), (e: unknown) => e instanceof InputError && /unknown component ID\(s\) X/.test(e.message));
  assert.throws(() => idsToBits(s, ['A\ufeff']), (e: unknown) => e instanceof InputError && /unknown component ID\(s\) A\\u\{FEFF\}$/.test(e.message), 'a BOM is shown');
});
