/**
 * lib/report/notebook-header.ts: the notebooks' one header: the project root as working directory, the
 * notebook folder and `showRows`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { projectRoot } from '../../lib/notebook/project';
import { notebookHeader } from '../../lib/report/notebook-header';

const jupyter = require('tslab/dist/jupyter') as { lastWriteDisplayData: ((msg: { data: Record<string, unknown> }, update: boolean) => void) | null };

test('notebookHeader makes the project root the working directory; notebookDir from the kernel, else notebooks/', () => {
  const before = process.cwd();
  const saved = process.env['KSTBENCH_NOTEBOOK_DIR'];
  try {
    process.chdir(tmpdir());
    delete process.env['KSTBENCH_NOTEBOOK_DIR'];
    const h = notebookHeader();
    assert.equal(h.root, projectRoot());
    assert.equal(process.cwd(), h.root);
    assert.equal(h.notebookDir, `${h.root}/notebooks`);
    process.env['KSTBENCH_NOTEBOOK_DIR'] = '/somewhere/else';
    assert.equal(notebookHeader().notebookDir, '/somewhere/else');
  } finally {
    if (saved === undefined) delete process.env['KSTBENCH_NOTEBOOK_DIR'];
    else process.env['KSTBENCH_NOTEBOOK_DIR'] = saved;
    process.chdir(before);
  }
});

test('showRows shows the rows as one HTML table with its caption and digits', () => {
  const sent: Array<Record<string, unknown>> = [];
  const saved = jupyter.lastWriteDisplayData;
  jupyter.lastWriteDisplayData = (msg) => sent.push(msg.data);
  try {
    notebookHeader().showRows([{ x: 0.123456, name: 'a' }], 'My caption', 2);
  } finally {
    jupyter.lastWriteDisplayData = saved;
  }
  assert.equal(sent.length, 1);
  const html = sent[0]!['text/html'] as string;
  assert.match(html, /<caption>My caption<\/caption>/);
  assert.match(html, />0\.12</); // two digits
  assert.doesNotMatch(html, /0\.123/);
  assert.match(html, />a</);
});
