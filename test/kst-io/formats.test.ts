import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat, matrixRow, parseMatrixFile, shown } from '../../lib/kst-io';
import { load, refuses, srbtBasis } from './helpers';

test('matrix, KST and CSV files are detected; a one-item KST file is not mistaken for a matrix', () => {
  assert.equal(detectFormat('1\n2\n0\n1\n'), 'kst');
  assert.equal(detectFormat('01\n11\n'), 'matrix');
  assert.equal(detectFormat('a,b\n0,1\n'), 'csv');
  assert.equal(detectFormat('"Item","a"\n"a",1\n'), 'surmise-csv');
  assert.equal(detectFormat('#SRBT v2.0 space ASCII\n'), 'srbt');
  assert.equal(detectFormat('\ufeff#SRBT v2.0 space ASCII\n'), 'srbt', 'a BOM is ignored');
  // Two number lines over rows that do not fit them: a KST file with a wrong count, not a matrix.
  assert.equal(detectFormat('3\n7\n000\n111\n'), 'kst');
  // One item, every line 0 or 1, the counts do not fit: a matrix.
  assert.equal(detectFormat('1\n0\n1\n'), 'matrix');
  assert.equal(detectFormat('01\n11'), 'matrix', 'no final newline');
  const kst = parseMatrixFile('1\n2\n0\n1\n', 'one.kst');
  assert.equal(kst.items, 1);
  assert.deepEqual([0, 1].map((k) => [...matrixRow(kst, k)]), [[0], [1]]);
  // A 0/1 basis file needs --kind basis: as a family it would miss unions and be refused.
  const plainBasis = '1000\n0100\n1010\n0110\n1011\n0111\n';
  assert.deepEqual(load(plainBasis, 'b.mat', { kind: 'basis' }).basis, load(srbtBasis, 'two.bas').basis);
  refuses(() => load(plainBasis, 'b.mat'), /b\.mat: the family does not contain the empty state ∅/);
});

test('shown quotes found text with every invisible or control character escaped', () => {
  assert.equal(shown('a b'), '"a b"');
  assert.equal(shown('\ufeff#SRBT'), '"\\u{FEFF}#SRBT"');
  assert.equal(shown('1\u00a0\u200b'), '"1\\u{00A0}\\u{200B}"');
  assert.equal(shown('x\ty'), '"x\\u{0009}y"'.replace('\\u{0009}', '\\t'));
});
