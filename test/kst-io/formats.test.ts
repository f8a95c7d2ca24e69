import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat, matrixRow, parseMatrixFile, shown } from '../../lib/kst-io';
import { load, refuses, SPACE_ROWS, srbtBasis } from './helpers';

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

test('a matrix file with one bad row is read as a matrix and that row is named, not taken for KST counts', () => {
  // The rows "0000" and "1000" are numbers too; they are not counts when the third line is as long as
  // they are and line 1 does not announce that length.
  const space = `${SPACE_ROWS.join('\n')}\n`;
  const withNbsp = space.replace('0110\n', '0110\u00a0\n');
  assert.equal(detectFormat(withNbsp), 'matrix');
  refuses(() => load(withNbsp, 'x.matrix'), /^x\.matrix:6: symbol "\\u\{00A0\}" in column 5 \(allowed: 0, 1, 2\)$/);
  const withBlank = space.replace('0110\n', '\n0110\n');
  assert.equal(detectFormat(withBlank), 'matrix');
  refuses(() => load(withBlank, 'x.matrix'), /^x\.matrix:6: blank line where a row of 4 symbol\(s\) is expected$/);
  refuses(() => load(space.replace('1110\n', '111\n'), 'x.matrix'), /^x\.matrix:7: ragged row: 3 symbol\(s\) where the file has 4 item\(s\)$/);
  // KST files stay KST: counts that are not rows, or a line 1 that announces the rows' length.
  assert.equal(detectFormat('4\n10\n0000\n1\n'), 'kst');
  assert.equal(detectFormat('1\n2\n0\nx\n'), 'kst', 'one item: line 1 announces the rows\' length');
});

test('a ragged row names the invisible symbol that makes it ragged', () => {
  refuses(() => parseMatrixFile('#SRBT v2.0 space ASCII\n2\n2\n00\n1\u200b1\n', 'x'), /^x:5: symbol "\\u\{200B\}" in column 2 \(allowed: 0, 1\)$/);
  refuses(() => parseMatrixFile('2\n2\n00\n11\u00a0\n', 'x', 'kst'), /^x:4: symbol "\\u\{00A0\}" in column 3 \(allowed: 0, 1, 2\)$/);
  // A row that is only too short or too long, of 0/1 symbols, stays a ragged row.
  refuses(() => parseMatrixFile('#SRBT v2.0 space ASCII\n2\n2\n00\n111\n', 'x'), /^x:5: ragged row: 3 symbol\(s\) where the file has 2 item\(s\)$/);
});
