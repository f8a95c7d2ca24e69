import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { cellSource, type Notebook } from '../../lib/notebook/ipynb';
import {
  declaredParameters,
  effectiveParameters,
  injectParameters,
  checkGlobalParameters,
  parametersFor,
  parseParameterArgs,
  parseParameterValue,
} from '../../lib/notebook/parameters';

const code = (id: string, source: string, tags?: string[]) => ({
  cell_type: 'code' as const,
  id,
  metadata: tags ? { tags } : {},
  source,
  outputs: [],
  execution_count: null,
});
const nb = (): Notebook => ({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [code('a', 'import x from "y";'), code('p', 'const seed = "s1";\nlet resamples: number = 1000; // B\nconst dataDir = \'data/raw\';', ['parameters']), code('b', 'resamples')],
});

test('values are JSON when they parse, strings otherwise', () => {
  assert.equal(parseParameterValue('2000'), 2000);
  assert.equal(parseParameterValue('true'), true);
  assert.deepEqual(parseParameterValue('["a",1]'), ['a', 1]);
  assert.equal(parseParameterValue('data/raw'), 'data/raw');
  assert.equal(parseParameterValue('"123"'), '123');
});

test('-p, --param and notebook-specific names are split out of argv', () => {
  const { params, rest } = parseParameterArgs(['01', '-p', 'resamples', '2000', '--param', 'dataDir=data/x=y', '--param=flag=false', '-p', '03-fig:seed', '"7"', '--other']);
  assert.deepEqual(rest, ['01', '--other']);
  assert.deepEqual(params.all, { resamples: 2000, dataDir: 'data/x=y', flag: false });
  assert.deepEqual(params.byNotebook, { '03-fig': { seed: '7' } });
  assert.deepEqual(parametersFor(params, '03-fig'), { resamples: 2000, dataDir: 'data/x=y', flag: false, seed: '7' });
  assert.deepEqual(parametersFor(params, '01-a'), { resamples: 2000, dataDir: 'data/x=y', flag: false });
  // A global parameter reaches only the notebooks that declare it; a notebook-specific one always applies.
  assert.deepEqual(parametersFor(params, '03-fig', ['resamples']), { resamples: 2000, seed: '7' });
  assert.deepEqual(parametersFor(params, '01-a', []), {});
  checkGlobalParameters(params, new Map([['01-a', ['resamples']], ['03-fig', ['dataDir', 'flag']]]));
  assert.throws(() => checkGlobalParameters(params, new Map([['01-a', ['resamples', 'dataDir']]])), /no notebook being run declares a parameter "flag"/);
  assert.throws(() => parseParameterArgs(['-p', 'x']), InputError);
  assert.throws(() => parseParameterArgs(['-p', 'not-a-name', '1']), /expected NAME or NOTEBOOK:NAME/);
  assert.throws(() => parseParameterArgs(['--param', 'novalue']), /--param needs name=value/);
});

test('declaredParameters finds top-level declarations with their keyword', () => {
  assert.deepEqual(declaredParameters('const a = 1;\nlet b: string[] = [];\n  const nested = 2;\nvar c=3'), [
    { keyword: 'const', name: 'a' },
    { keyword: 'let', name: 'b' },
    { keyword: 'var', name: 'c' },
  ]);
});

test('injection puts an injected-parameters cell right after the parameters cell, replacing an old one', () => {
  const once = injectParameters(nb(), { resamples: 50, seed: 'other' }, 'n.ipynb');
  assert.deepEqual(once.cells.map((c) => c.id), ['a', 'p', 'injected-parameters', 'b']);
  const injected = once.cells[2]!;
  assert.deepEqual(injected.metadata, { tags: ['injected-parameters'] });
  assert.equal(
    cellSource(injected),
    '// Parameters injected by the runner (papermill convention).\nlet resamples = 50;\nconst seed = "other";\n',
  );
  const twice = injectParameters(once, { seed: 'third' }, 'n.ipynb');
  assert.deepEqual(twice.cells.map((c) => c.id), ['a', 'p', 'injected-parameters', 'b']);
  assert.match(cellSource(twice.cells[2]!), /const seed = "third";\n$/);
  assert.deepEqual(injectParameters(once, {}, 'n.ipynb').cells.map((c) => c.id), ['a', 'p', 'b']);
});

test('injection rejects unknown names and notebooks without a parameters cell', () => {
  assert.throws(
    () => injectParameters(nb(), { resampels: 5 }, 'nb/n.ipynb'),
    (e: unknown) => e instanceof InputError && /nb\/n\.ipynb: unknown parameter\(s\) resampels; the parameters cell declares seed, resamples, dataDir/.test(e.message),
  );
  const plain = { ...nb(), cells: [code('a', '1')] };
  assert.throws(() => injectParameters(plain, { x: 1 }, 'p.ipynb'), /p\.ipynb: parameters x given but no cell is tagged "parameters"/);
  const two = { ...nb(), cells: [code('a', 'const x = 1;', ['parameters']), code('b', 'const y = 1;', ['parameters'])] };
  assert.throws(() => injectParameters(two, { x: 2 }, 't.ipynb'), /cells 0 and 1 are both tagged "parameters"/);
});

test('effective parameters: defaults read from the parameters cell, overridden by given values', () => {
  assert.deepEqual(effectiveParameters(nb(), { resamples: 5 }, 'n'), { seed: 's1', resamples: 5, dataDir: 'data/raw' });
});
