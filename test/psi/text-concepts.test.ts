import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findConcepts, isPythonBlock, propositions, segment } from '../../lib/psi';
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

test('propositions: sentences + list items + one per code block (or per code line)', () => {
  const text = 'Use a loop.\n- Step 1: set x. Then print it.\n```python\nx=1\nprint(x)\n```';
  // "Use a loop." | "Step 1: set x." | "Then print it." | code block  = 4 ; per line: 3 + 2 = 5
  assert.equal(propositions(text).length, 4);
  assert.equal(propositions(text, 'lines').length, 5);
  // heading, rule and table separator are not propositions: "One." "Two." + 2 table rows = 4
  assert.equal(propositions('# Title\nOne. Two.\n---\n| a | b |\n|---|---|\n| 1 | 2 |').length, 4);
  // "e.g. the" (lower-case next word) and "3.14" (no space) do not split
  assert.deepEqual(
    propositions('Use e.g. the list. Pi is 3.14 here.').map((p) => p.text),
    ['Use e.g. the list.', 'Pi is 3.14 here.'],
  );
  // an unclosed fence runs to the end: one sentence + one code block
  assert.deepEqual(propositions('Text.\n```\ncode\nmore').map((p) => p.kind), ['sentence', 'code']);
  assert.equal(propositions('').length, 0);
});

test('segment / isPythonBlock: tagged, untagged with Python cues, and output blocks', () => {
  const { blocks } = segment('```python\nx\n```\n```text\nAna\n```\n```\nx = 1\n```\n```\nAna\nBo\n```\n~~~py\ny\n~~~');
  assert.deepEqual(blocks.map((b) => [b.lang, isPythonBlock(b)]), [
    ['python', true],
    ['text', false],
    ['', true],
    ['', false],
    ['py', true],
  ]);
});
