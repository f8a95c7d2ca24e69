/**
 * lib/report/notebook-header.ts: the notebooks' one header: the project root as working directory, the
 * notebook folder, `showRows`, and the two readers of published numbers with their one-line errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { projectRoot } from '../../lib/notebook/project';
import { notebookHeader } from '../../lib/report/notebook-header';

const jupyter = require('tslab/dist/jupyter') as { lastWriteDisplayData: ((msg: { data: Record<string, unknown> }, update: boolean) => void) | null };
const ROOT = join(__dirname, '..', '..');

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

test('readPublishedKst / readPublishedPsi: the shipped files read; a missing or broken file is one InputError naming it', () => {
  const h = notebookHeader();
  assert.equal(h.readPublishedKst(join(ROOT, 'data/published/kst-benchmark-2026.json')).overall.n, 2400);
  assert.deepEqual(Object.keys(h.readPublishedPsi(join(ROOT, 'data/published/psi-2026.json')).table1.psi).sort(), ['ChatGPT', 'Gemini', 'Gemma 4', 'Qwen 3']);
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-header-'));
  const missing = join(dir, 'nope.json');
  assert.throws(() => h.readPublishedKst(missing), (e: unknown) => e instanceof InputError && e.message === `${missing}: cannot read the published numbers (ENOENT)`);
  assert.throws(() => h.readPublishedPsi(missing), (e: unknown) => e instanceof InputError && e.message === `${missing}: cannot read the published numbers (ENOENT)`);
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{ "overall": ');
  assert.throws(() => h.readPublishedKst(broken), (e: unknown) => e instanceof InputError && e.message.startsWith(`${broken}: not valid JSON (`) && !e.message.includes('\n'));
  assert.throws(() => h.readPublishedPsi(broken), (e: unknown) => e instanceof InputError && e.message.startsWith(broken));
});
