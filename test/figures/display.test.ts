/**
 * lib/figures/display.ts: showing in a notebook cell goes through tslab's display hook when a cell is
 * running (the hook is set), and does nothing in a plain script (no hook).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { inNotebook, showBundle, showHtml, showMarkdown, showSvg } from '../../lib/figures/display';
import { SHOWN_UNTRUSTED } from '../support/classic-notebook';

type Message = { data: Record<string, unknown>; metadata: Record<string, unknown> };
const jupyter = require('tslab/dist/jupyter') as { lastWriteDisplayData: ((msg: Message, update: boolean) => void) | null };

/** Runs `f` as if inside a notebook cell, returning every display message it sent. */
function inCell(f: () => void): Message[] {
  const sent: Message[] = [];
  const saved = jupyter.lastWriteDisplayData;
  jupyter.lastWriteDisplayData = (msg) => sent.push({ data: msg.data, metadata: msg.metadata });
  try {
    f();
  } finally {
    jupyter.lastWriteDisplayData = saved;
  }
  return sent;
}

test('outside a notebook nothing is shown and nothing throws', () => {
  assert.equal(jupyter.lastWriteDisplayData, null);
  assert.equal(inNotebook(), false);
  showHtml('<p>x</p>');
  showSvg('<svg/>');
  showMarkdown('*x*');
  showBundle({ data: { 'text/plain': 'x' }, metadata: {} });
});

test('inside a cell each helper sends one output of its MIME type; a bundle is one output with every type', () => {
  let seen: boolean | undefined;
  const sent = inCell(() => {
    seen = inNotebook();
    showHtml('<p>x</p>');
    showSvg('<svg/>');
    showMarkdown('*x*');
    showBundle({ data: { 'image/svg+xml': '<svg/>', 'image/png': 'iVBOR' }, metadata: { 'image/png': { width: 10 } } });
  });
  assert.equal(seen, true);
  assert.deepEqual(sent, [
    { data: { 'text/html': '<p>x</p>' }, metadata: {} },
    { data: { 'image/svg+xml': '<svg/>' }, metadata: {} },
    { data: { 'text/markdown': '*x*', 'text/plain': '*x*' }, metadata: {} },
    { data: { 'image/svg+xml': '<svg/>', 'image/png': 'iVBOR' }, metadata: { 'image/png': { width: 10 } } },
  ]);
});

test('Markdown carries its text as text/plain, so the classic Notebook shows it in an untrusted notebook', () => {
  const notice = '**Simulated data.** All 2,400 responses in this input come from the seeded simulated respondent.';
  const [shown] = inCell(() => showMarkdown(notice));
  assert.equal(shown!.data['text/markdown'], notice);
  assert.ok(
    SHOWN_UNTRUSTED.some((type) => shown!.data[type] === notice),
    `the bundle ${JSON.stringify(Object.keys(shown!.data))} has no type an untrusted classic Notebook shows`,
  );
});

const OUTPUTAREA_JS = '/usr/lib/python3/dist-packages/notebook/static/notebook/js/outputarea.js';

test('SHOWN_UNTRUSTED is what the installed classic Notebook trusts (its safe_outputs, plus sanitised HTML)', { skip: !existsSync(OUTPUTAREA_JS) && 'Debian\'s jupyter-notebook is not installed' }, () => {
  const js = readFileSync(OUTPUTAREA_JS, 'utf8');
  const mime = new Map([...js.matchAll(/var (MIME_[A-Z]+) = '([^']+)';/g)].map((m) => [m[1]!, m[2]!]));
  const safe = [...js.matchAll(/OutputArea\.safe_outputs\[(MIME_[A-Z]+)\] = true;/g)].map((m) => mime.get(m[1]!));
  assert.ok(/type===MIME_HTML \|\| type==='text\/svg'/.test(js), 'untrusted HTML is still sanitised and shown');
  assert.deepEqual([...safe, 'text/html'].sort(), [...SHOWN_UNTRUSTED].sort());
});
