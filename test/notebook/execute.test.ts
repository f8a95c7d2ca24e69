import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseNotebook, type Notebook, type Output } from '../../lib/notebook/ipynb';
import type { CellFailure } from '../../lib/notebook/execute';
import { RUN_TYPESCRIPT } from '../support/typescript';

// The fixture notebook imports the built library (../../../dist/lib/...): `npm test` builds first.
const FIXTURE = 'test/fixtures/notebooks/01-fixture.ipynb';
const FAILING = 'test/fixtures/notebooks/02-fails.ipynb';
const tmp = mkdtempSync(join(tmpdir(), 'kstbench-nb-'));
// The figure cell always runs: the bundled Chromium is installed by npm ci.
const makeFigure = true;
type Result = { text: string; failure: CellFailure | null } | { thrown: { name: string; message: string } };
let results: Result[] = [];

before(() => {
  assert.ok(existsSync('dist/lib/figures/index.js'), 'dist/ is missing: run `npm run build` (npm test does it)');
  const jobs = [
    { file: FIXTURE, parameters: { greeting: 'hi', repeats: 3, makeFigure, outDir: join(tmp, 'run1') } },
    { file: FIXTURE, parameters: { greeting: 'hi', repeats: 3, makeFigure, outDir: join(tmp, 'run2') } },
    { file: FAILING },
    // Variants of the fixture with a last cell added: a type error, an asynchronous rejection.
    { file: FIXTURE, parameters: { outDir: join(tmp, 'run3') }, extraCells: ['const wrong: number = "text";'] },
    { file: FIXTURE, parameters: { nope: 1 } },
    { file: FIXTURE, parameters: { outDir: join(tmp, 'run4') }, extraCells: ['await Promise.reject(new Error("async boom"));'] },
  ];
  writeFileSync(join(tmp, 'jobs.json'), JSON.stringify(jobs));
  const r = spawnSync(process.execPath, [...RUN_TYPESCRIPT, 'test/notebook/run-jobs.ts', join(tmp, 'jobs.json'), join(tmp, 'results.json')], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(r.status, 0, `run-jobs failed: ${r.stderr}`);
  results = JSON.parse(readFileSync(join(tmp, 'results.json'), 'utf8')) as Result[];
});

function executed(i: number): { nb: Notebook; failure: CellFailure | null } {
  const r = results[i]!;
  assert.ok('text' in r, `job ${i} threw: ${JSON.stringify(r)}`);
  return { nb: parseNotebook(r.text, 'executed'), failure: r.failure };
}
function outputsOf(nb: Notebook, id: string): Output[] {
  const cell = nb.cells.find((c) => c.id === id);
  assert.ok(cell, `no cell ${id}`);
  return (cell.outputs ?? []).map((o) => ({ ...o, text: Array.isArray(o.text) ? o.text.join('') : o.text }));
}
const joinData = (o: Output, mime: string) => {
  const v = o.data?.[mime];
  return Array.isArray(v) ? v.join('') : v;
};

test('the fixture runs with injected parameters, streams, displays and a danfojs table', () => {
  const { nb, failure } = executed(0);
  assert.equal(failure, null);
  const ids = nb.cells.map((c) => c.id);
  assert.deepEqual(ids, ['intro', 'setup', 'parameters', 'injected-parameters', 'streams', 'display', 'table', 'zod-types', 'figure', 'empty']);
  // Execution counts: 1.. over executed code cells; the empty cell is not executed.
  assert.deepEqual(nb.cells.map((c) => c.execution_count ?? null), [null, 1, 2, 3, 4, 5, 6, 7, 8, null]);
  // repeats = 3 and greeting = "hi" come from the injected cell, not the defaults (2, "hello").
  assert.deepEqual(outputsOf(nb, 'streams'), [
    { output_type: 'stream', name: 'stdout', text: 'hi x3\n' },
    { output_type: 'stream', name: 'stderr', text: 'a line on stderr\n' },
    { output_type: 'stream', name: 'stdout', text: 'hi-1,hi-2,hi-3\n' },
  ]);
  const display = outputsOf(nb, 'display');
  assert.equal(display.length, 2);
  assert.equal(joinData(display[0]!, 'text/html'), '<p><b>bold</b> text</p>');
  assert.match(String(joinData(display[1]!, 'image/svg+xml')), /^<svg [^>]*><rect width="10" height="10" fill="red"\/><\/svg>$/);
  const table = outputsOf(nb, 'table');
  assert.equal(table[0]!.output_type, 'display_data');
  const html = String(joinData(table[0]!, 'text/html'));
  assert.match(html, /<caption>Fixture table<\/caption>/);
  // 4/3 shown with 2 digits in HTML; df.shape printed as the last expression.
  assert.match(html, /<td style="text-align:left">c<\/td><td style="text-align:right">1\.33<\/td>/);
  assert.deepEqual(table[1], { output_type: 'stream', name: 'stdout', text: '[ 3, 2 ]\n' });
  // The CSV keeps full precision: String(4 / 3).
  assert.equal(readFileSync(join(tmp, 'run1', 'tables', 'fixture-table.csv'), 'utf8'), `item,score\na,1\nb,2.5\nc,${String(4 / 3)}\n`);
  // A dist/lib module typed with zod 4 compiles and runs under tslab's TypeScript 5.0.
  assert.deepEqual(outputsOf(nb, 'zod-types'), [{ output_type: 'stream', name: 'stdout', text: 'cells: 0\n' }]);
  const figure = outputsOf(nb, 'figure');
  if (!makeFigure) {
    assert.deepEqual(figure, []);
    return;
  }
  // fig.show(): one bundle (the 2× PNG drawn at the figure's size, the plotly spec, a text line; no SVG),
  // then a link to the HTML.
  assert.equal(figure.length, 2);
  assert.deepEqual(Object.keys(figure[0]!.data ?? {}).sort(), ['application/vnd.plotly.v1+json', 'image/png', 'text/plain']);
  assert.equal(String(joinData(figure[0]!, 'image/png')), readFileSync(join(tmp, 'run1', 'figures', 'fixture-figure.png')).toString('base64'));
  assert.equal((figure[0]!.metadata as { kstbench?: { figure?: string } }).kstbench?.figure, 'fixture-figure');
  assert.match(String(joinData(figure[0]!, 'text/plain')), /^\[figure fixture-figure: .*\(simulated data\)\]$/);
  assert.ok(readFileSync(join(tmp, 'run1', 'figures', 'fixture-figure.svg'), 'utf8').includes('SIMULATED DATA'));
  assert.match(String(joinData(figure[1]!, 'text/markdown')), /^Interactive version: \[.*fixture-figure\.html\]\(.*fixture-figure\.html\)$/);
});

test('a second run gives a byte-identical notebook and table', () => {
  const first = results[0]! as { text: string };
  const second = results[1]! as { text: string };
  // Output paths appear absolute and also relative to the notebook (e.g. `../../kstbench-nb-x/run1/...`
  // when the checkout itself lives under the temp folder), so normalise on the run folder's last two parts.
  const runDir = (run: string) => `${basename(tmp)}/${run}`;
  assert.equal(second.text.split(runDir('run2')).join('<out>'), first.text.split(runDir('run1')).join('<out>'));
  for (const f of ['fixture-table.csv', 'fixture-table.html', 'fixture-table.csv.meta.json']) {
    assert.equal(readFileSync(join(tmp, 'run2', 'tables', f), 'utf8'), readFileSync(join(tmp, 'run1', 'tables', f), 'utf8'));
  }
  if (makeFigure) {
    for (const f of ['fixture-figure.html', 'fixture-figure.svg', 'fixture-figure.png']) {
      assert.ok(readFileSync(join(tmp, 'run2', 'figures', f)).equals(readFileSync(join(tmp, 'run1', 'figures', f))), f);
    }
  }
});

test('a failing cell stops the run and is recorded as an nbformat error', () => {
  const { nb, failure } = executed(2);
  assert.ok(failure);
  assert.equal(failure.file, FAILING);
  assert.equal(failure.cellIndex, 2);
  assert.equal(failure.cellId, 'fails');
  assert.equal(failure.ename, 'RangeError');
  assert.equal(failure.evalue, 'deliberate failure at 42'); // value = 21, explode(value * 2)
  assert.deepEqual(outputsOf(nb, 'before'), [{ output_type: 'stream', name: 'stdout', text: 'before the failure\n' }]);
  const [err] = outputsOf(nb, 'fails');
  assert.equal(err!.output_type, 'error');
  assert.equal(err!.ename, 'RangeError');
  assert.ok(err!.traceback!.some((l) => l.includes('at explode')), err!.traceback!.join('\n'));
  assert.ok(!err!.traceback!.some((l) => l.includes('node_modules/tslab')), 'runner frames are trimmed');
  // The cell after the failure did not run.
  const after = nb.cells.find((c) => c.id === 'after')!;
  assert.deepEqual(after.outputs, []);
  assert.equal(after.execution_count, null);
});

test('a type error is a CompileError naming line and column', () => {
  const { nb, failure } = executed(3);
  assert.ok(failure);
  assert.equal(failure.cellId, 'extra-0');
  assert.equal(failure.ename, 'CompileError');
  assert.equal(failure.evalue, "1:7 - Type 'string' is not assignable to type 'number'.");
  assert.equal(outputsOf(nb, 'extra-0')[0]!.output_type, 'error');
});

test('a rejected top-level await fails its cell', () => {
  const { failure } = executed(5);
  assert.ok(failure);
  assert.equal(failure.cellId, 'extra-0');
  assert.equal(failure.ename, 'Error');
  assert.equal(failure.evalue, 'async boom');
});

test('an unknown parameter is an InputError before anything runs', () => {
  const r = results[4]!;
  assert.ok('thrown' in r);
  assert.equal(r.thrown.name, 'InputError');
  assert.match(r.thrown.message, /01-fixture\.ipynb: unknown parameter\(s\) nope/);
});
