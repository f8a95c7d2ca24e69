import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat, matrixRow, parseMatrixFile } from '../../lib/kst-io';
import { load, refuses, srbtBasis } from './helpers';

test('matrix, KST and CSV files are detected; a one-item KST file is not mistaken for a matrix', () => {
  assert.equal(detectFormat('1\n2\n0\n1\n'), 'kst');
  assert.equal(detectFormat('01\n11\n'), 'matrix');
  assert.equal(detectFormat('a,b\n0,1\n'), 'csv');
  assert.equal(detectFormat('"Item","a"\n"a",1\n'), 'surmise-csv');
  assert.equal(detectFormat('#SRBT v2.0 space ASCII\n'), 'srbt');
  const kst = parseMatrixFile('1\n2\n0\n1\n', 'one.kst');
  assert.equal(kst.items, 1);
  assert.deepEqual([0, 1].map((k) => [...matrixRow(kst, k)]), [[0], [1]]);
  // A 0/1 basis file needs --kind basis: as a family it would miss unions and be refused.
  const plainBasis = '1000\n0100\n1010\n0110\n1011\n0111\n';
  assert.deepEqual(load(plainBasis, 'b.mat', { kind: 'basis' }).basis, load(srbtBasis, 'two.bas').basis);
  refuses(() => load(plainBasis, 'b.mat'), /b\.mat: the family does not contain the empty state ∅/);
});
