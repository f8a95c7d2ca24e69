import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findConcepts } from '../../lib/psi';
import { fixtureTaxonomy } from './helpers';

const tax = fixtureTaxonomy();
const found = (text: string, plurals = true) => findConcepts(text, tax, plurals).map((m) => [m.id, m.first, m.count]);

test('findConcepts: leftmost-longest — "list comprehension" does not also count as "list"', () => {
  // "A list comprehension builds a new list." : "list comprehension" at offset 2 covers "list" at 2;
  // the second "list" at offset 34 counts for lists.
  assert.deepEqual(found('A list comprehension builds a new list.'), [
    ['list_comprehension', 2, 1],
    ['lists', 34, 1],
  ]);
  // "print function" (offset 8) covers "function", so functions is not found.
  assert.deepEqual(found('Use the print function.'), [['print_function', 8, 1]]);
});

test('findConcepts: word boundaries, case-insensitivity, plurals, code tokens', () => {
  assert.deepEqual(found('enlist and listen; define it'), []);
  assert.deepEqual(found('LISTS of Variables'), [
    ['lists', 0, 1],
    ['variables', 9, 1],
  ]);
  assert.deepEqual(found('LISTS of Variables', false), []);
  // "str(" at offset 4 and "print(" at offset 11 match although "(" is not a word character
  assert.deepEqual(found('x = str(5)\nprint(x)'), [
    ['strings', 4, 1],
    ['print_function', 11, 1],
  ]);
  assert.deepEqual(found('def greet():'), [['functions', 0, 1]]);
});
