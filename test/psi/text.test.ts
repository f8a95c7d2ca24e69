import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPythonBlock, propositions, segment } from '../../lib/psi';

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
