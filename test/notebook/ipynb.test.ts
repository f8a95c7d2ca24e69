import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { kernelSpec } from '../../scripts/kernel';
import { InputError } from '../../lib/errors';
import { SHOWN_UNTRUSTED } from '../support/classic-notebook';
import { interactiveLinks } from '../support/notebook-links';
import { cellSource, cellTags, parseNotebook, serializeNotebook, splitLinesKeepEnds, type Notebook } from '../../lib/notebook/ipynb';

test('splitLinesKeepEnds behaves like Python str.splitlines(True)', () => {
  assert.deepEqual(splitLinesKeepEnds(''), []);
  assert.deepEqual(splitLinesKeepEnds('a'), ['a']);
  assert.deepEqual(splitLinesKeepEnds('a\nb'), ['a\n', 'b']);
  assert.deepEqual(splitLinesKeepEnds('x\n'), ['x\n']);
  assert.deepEqual(splitLinesKeepEnds('a\r\nb\rc\n\nd'), ['a\r\n', 'b\r', 'c\n', '\n', 'd']);
  assert.deepEqual(splitLinesKeepEnds('p\u2028q'), ['p\u2028', 'q']);
});

test('serializeNotebook writes Jupyter formatting: sorted keys, 1-space indent, split lines, final newline', () => {
  const nb: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { zeta: 1, alpha: { b: 2, a: 1 } },
    cells: [
      {
        cell_type: 'code',
        id: 'c1',
        metadata: {},
        source: 'x\ny',
        execution_count: 1,
        outputs: [
          { output_type: 'stream', name: 'stdout', text: 'one\ntwo\n' },
          { output_type: 'display_data', data: { 'text/html': '<b>\n</b>', 'image/png': 'AAAA' }, metadata: {} },
        ],
      },
    ],
  };
  // Worked out by hand from nbformat's writer (json.dumps(indent=1, sort_keys=True) + split_lines).
  const expected = `{
 "cells": [
  {
   "cell_type": "code",
   "execution_count": 1,
   "id": "c1",
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "one\\n",
      "two\\n"
     ]
    },
    {
     "data": {
      "image/png": "AAAA",
      "text/html": [
       "<b>\\n",
       "</b>"
      ]
     },
     "metadata": {},
     "output_type": "display_data"
    }
   ],
   "source": [
    "x\\n",
    "y"
   ]
  }
 ],
 "metadata": {
  "alpha": {
   "a": 1,
   "b": 2
  },
  "zeta": 1
 },
 "nbformat": 4,
 "nbformat_minor": 5
}
`;
  assert.equal(serializeNotebook(nb), expected);
});

test('a notebook saved by Jupyter round-trips byte for byte (fixture checked against nbformat)', () => {
  for (const file of ['test/fixtures/notebooks/01-fixture.ipynb', 'test/fixtures/notebooks/02-fails.ipynb']) {
    const text = readFileSync(file, 'utf8');
    assert.equal(serializeNotebook(parseNotebook(text, file)), text, file);
  }
});

test('cellSource and cellTags read both on-disk shapes', () => {
  assert.equal(cellSource({ source: ['a\n', 'b'] }), 'a\nb');
  assert.equal(cellSource({ source: 'a' }), 'a');
  assert.deepEqual(cellTags({ metadata: { tags: ['parameters', 3] } }), ['parameters']);
  assert.deepEqual(cellTags({ metadata: {} }), []);
});

test('parseNotebook names the file and the offending field', () => {
  assert.throws(() => parseNotebook('{', 'nb/bad.ipynb'), (e: unknown) => e instanceof InputError && /^nb\/bad\.ipynb:1: not valid JSON/.test(e.message));
  const wrong = JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [{ cell_type: 'code', source: 1 }] });
  assert.throws(
    () => parseNotebook(wrong, 'nb/x.ipynb'),
    (e: unknown) => e instanceof InputError && e.message.startsWith('nb/x.ipynb: not a version-4 Jupyter notebook: cells.0.source'),
  );
  const v3 = JSON.stringify({ nbformat: 3, nbformat_minor: 0, metadata: {}, cells: [] });
  assert.throws(() => parseNotebook(v3, 'old.ipynb'), /old\.ipynb: not a version-4 Jupyter notebook: nbformat/);
});

test('every notebook asks for the kernel `npm run kernel` installs and records the language_info tslab reports, so the classic Notebook 6.4 opens it without "unsaved changes"', () => {
  // Notebook 6.4 marks a notebook dirty on load when its kernelspec differs from the kernel's spec
  // (spec_changed.Kernel) or its language_info from the kernel's info_reply (kernel_ready.Kernel).
  const spec = kernelSpec('/x');
  const wantSpec = { display_name: spec['display_name'], language: spec['language'], name: 'tslab' };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const tslab = require('tslab/dist/jupyter') as { JupyterHandlerImpl: new (executor: unknown, isJs: boolean) => { handleKernel(): { language_info: unknown } } };
  const wantInfo = new tslab.JupyterHandlerImpl({}, false).handleKernel().language_info;
  const dir = join(__dirname, '..', '..', 'notebooks');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ipynb'));
  assert.ok(files.length >= 10);
  const wrong = files.flatMap((f) => {
    const meta = (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { metadata: { kernelspec?: unknown; language_info?: unknown } }).metadata;
    return isDeepStrictEqual(meta.kernelspec, wantSpec) && isDeepStrictEqual(meta.language_info, wantInfo) ? [] : [f];
  });
  assert.deepEqual(wrong, []);
  assert.ok(!isDeepStrictEqual({ ...wantSpec, display_name: 'TypeScript' }, wantSpec), 'the old display name would be caught');
});

/** The exercise check cells and solution cells of a notebook, each solution checked collapsed and running its check. */
function exerciseCells(file: string): { checks: number; solutions: number } {
  const nb = parseNotebook(readFileSync(join(__dirname, '..', '..', 'notebooks', file), 'utf8'), file);
  const checks = nb.cells.filter((c) => c.cell_type === 'code' && /exerciseFeedback\(check\w+\(.*answer\d/.test(cellSource(c)));
  const solutions = nb.cells.filter((c) => cellTags(c).includes('solution'));
  for (const s of solutions) {
    assert.deepEqual((s.metadata['jupyter'] as { source_hidden?: boolean } | undefined)?.source_hidden, true, `${file}: solution ${s.id} is not collapsed`);
    assert.match(cellSource(s), /exerciseFeedback\(check\w+\(/, `${file}: solution ${s.id} does not run the check on the solution`);
  }
  return { checks: checks.length, solutions: solutions.length };
}

test('notebook 01 has at least five predict-then-check exercises, each with a check cell and a collapsed solution', () => {
  const { checks, solutions } = exerciseCells('01-kst-foundations.ipynb');
  assert.ok(checks >= 5, `${checks} exercise check cells`);
  assert.equal(solutions, checks, 'one solution per exercise');
});

test('notebooks 04, 06 and 10 each have predict-then-check exercises with collapsed solutions', () => {
  for (const file of ['04-table3-figure1.ipynb', '06-inference.ipynb', '10-psi-scoring.ipynb']) {
    const { checks, solutions } = exerciseCells(file);
    assert.ok(checks >= 1, `${file}: ${checks} exercise check cells`);
    assert.equal(solutions, checks, `${file}: one solution per exercise`);
  }
});

/** `file#cell-index:output-index` of every rich output the classic Notebook would drop from an untrusted notebook. */
function hiddenWhenUntrusted(nb: Notebook, file: string): string[] {
  return nb.cells.flatMap((cell, c) =>
    (cell.cell_type === 'code' ? (cell.outputs ?? []) : []).flatMap((o, k) =>
      (o.output_type === 'display_data' || o.output_type === 'execute_result') && !SHOWN_UNTRUSTED.some((t) => o.data?.[t] !== undefined)
        ? [`${file}#${c}:${k} (${Object.keys(o.data ?? {}).join(', ')})`]
        : [],
    ),
  );
}

test('every rich output of the executed notebooks has a type the classic Notebook shows in an untrusted notebook', () => {
  const dir = join(__dirname, '..', '..', 'notebooks');
  const hidden = readdirSync(dir)
    .filter((f) => f.endsWith('.ipynb'))
    .flatMap((f) => hiddenWhenUntrusted(parseNotebook(readFileSync(join(dir, f), 'utf8'), f), f));
  assert.deepEqual(hidden, [], 'simulated-data notices and claims summaries must not vanish in Notebook 6.4 (npm run reproduce regenerates the notebooks)');
  const markdownOnly: Notebook = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [
    { cell_type: 'code', id: 'x', metadata: {}, source: '', execution_count: 1, outputs: [{ output_type: 'display_data', data: { 'text/markdown': '**Simulated data.**' }, metadata: {} }] },
  ] };
  assert.deepEqual(hiddenWhenUntrusted(markdownOnly, 'x.ipynb'), ['x.ipynb#0:0 (text/markdown)'], 'a Markdown-only output is caught');
});

/**
 * Every `lib/...` or `docs/...` path a notebook's cell names (in its prose, its comments or a
 * `../dist/lib/...` import) that is neither a file, a `.ts` module, nor a folder: a reader told to look
 * in a file that is not there. Data paths are left out: outputs and optional inputs are absent by design.
 */
function missingReferences(source: string, where: string, root: string): string[] {
  return [...source.matchAll(/(?<![\w.-])(?:\.\.\/dist\/)?((?:lib|docs)\/[\w./-]*\w)/g)]
    .map((m) => m[1]!)
    .filter((p) => !['', '.ts', '/index.ts'].some((ext) => existsSync(join(root, p + ext))))
    .map((p) => `${where}: ${p}`);
}

test('every lib/ and docs/ path a notebook names exists', () => {
  const root = join(__dirname, '..', '..');
  const dir = join(root, 'notebooks');
  const missing = readdirSync(dir)
    .filter((f) => f.endsWith('.ipynb'))
    .flatMap((f) => parseNotebook(readFileSync(join(dir, f), 'utf8'), f).cells.flatMap((c, i) => missingReferences(cellSource(c), `${f} cell ${i}`, root)));
  assert.deepEqual(missing, []);
  assert.deepEqual(
    missingReferences('see `lib/psi/no-such-file.ts`, docs/cli.md and "../dist/lib/kst"', 'x', root),
    ['x: lib/psi/no-such-file.ts'],
    'a path that is not there is caught, one that is passes',
  );
});

test('every "Interactive version" link of the executed notebooks opens a committed page', () => {
  // figures/*.html are git-ignored (each inlines plotly): a link there is dead in a clone, in Jupyter,
  // nbconvert's HTML or GitHub. report/ is committed and has a page for every figure.
  const root = join(__dirname, '..', '..');
  const dir = join(root, 'notebooks');
  const links = interactiveLinks(dir);
  assert.ok(links.length >= 10, `only ${links.length} interactive links found`);
  const dead = links.filter(({ href }) => {
    const target = join(dir, href);
    return !target.startsWith(join(root, 'report') + '/') || !existsSync(target);
  });
  assert.deepEqual(dead.map(({ file, href }) => `${file}: ${href}`), []);
});
