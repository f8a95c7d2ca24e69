import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cellSource, parseNotebook, type Notebook } from '../../lib/notebook/ipynb';
import {
  declaredParameters,
  effectiveParameters,
  injectParameters,
  checkGlobalParameters,
  parametersFor,
  parseParameterArgs,
  parseParameterValue,
  coerceParameters,
  readParametersCell,
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
  // Kept as typed: the type comes from each notebook's declared default (coerceParameters).
  assert.deepEqual(params.all, { resamples: '2000', dataDir: 'data/x=y', flag: 'false' });
  assert.deepEqual(params.byNotebook, { '03-fig': { seed: '"7"' } });
  assert.deepEqual(parametersFor(params, '03-fig'), { resamples: '2000', dataDir: 'data/x=y', flag: 'false', seed: '"7"' });
  assert.deepEqual(parametersFor(params, '01-a'), { resamples: '2000', dataDir: 'data/x=y', flag: 'false' });
  // A global parameter reaches only the notebooks that declare it; a notebook-specific one always applies.
  assert.deepEqual(parametersFor(params, '03-fig', ['resamples']), { resamples: '2000', seed: '"7"' });
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
    '// Parameters injected by the runner (papermill convention).\nlet resamples: number = 50;\nconst seed = "other";\n', // the declaration's annotation kept
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

/** A notebook whose parameters cell declares one parameter of every kind the convention allows. */
const typedNb = (): Notebook => ({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [
    code(
      'p',
      [
        'const seed = "20260908";',
        'const resamples = 10000; // B',
        'const quick = false;',
        'const domains = ["slope", "graph-to-equation"];',
        'const grid = [0.4, 0.65];',
        'const threshold: number | null = 0.59;',
        'const weights: unknown = "equal";',
        "const label = 'single quoted';",
        'const models = {};',
      ].join('\n'),
      ['parameters'],
    ),
  ],
});

test('command-line texts are coerced to the type of the declared default', () => {
  const given = {
    seed: '7', // docs/parameters.md's `-p seed 7`: a string parameter gets the string "7", not the number 7
    resamples: '2000',
    quick: 'true',
    domains: 'slope,graph-to-equation',
    grid: '[0.5, 0.9]',
    threshold: 'null',
    weights: '[1,2,3,4,5,6]',
    label: 'x y',
    models: '{"a":"b"}',
  };
  assert.deepEqual(coerceParameters(typedNb(), given, 'nb/t.ipynb'), {
    seed: '7',
    resamples: 2000,
    quick: true,
    domains: ['slope', 'graph-to-equation'],
    grid: [0.5, 0.9],
    threshold: null,
    weights: [1, 2, 3, 4, 5, 6],
    label: 'x y',
    models: { a: 'b' },
  });
  // A JSON string literal is its content; an array may also be written as JSON; a number with null allowed.
  assert.deepEqual(coerceParameters(typedNb(), { seed: '"s2"', domains: '["slope"]', threshold: '0.7', grid: '1,2' }, 't'), {
    seed: 's2',
    domains: ['slope'],
    threshold: 0.7,
    grid: [1, 2],
  });
  // The injected cell then declares values of the right type, so tslab compiles it.
  const injected = injectParameters(typedNb(), coerceParameters(typedNb(), { seed: '7', resamples: '2000' }, 't'), 't');
  assert.match(cellSource(injected.cells[1]!), /^const seed = "7";\nconst resamples = 2000;\n$/m);
});

test('a text that cannot be coerced names the notebook, the parameter, its type and a working example', () => {
  const bad = (name: string, text: string, pattern: RegExp) =>
    assert.throws(
      () => coerceParameters(typedNb(), { [name]: text }, 'notebooks/03-score.ipynb'),
      (e: unknown) => e instanceof InputError && pattern.test(e.message),
    );
  bad('resamples', 'abc', /^notebooks\/03-score\.ipynb: parameter resamples is a number \(default 10000\); cannot read "abc" as one\. Example: -p resamples 10000$/);
  bad('resamples', '', /is a number .* Example: -p resamples 10000$/);
  bad('quick', 'yes', /parameter quick is a boolean \(default false\); cannot read "yes" as one\. Example: -p quick true$/);
  bad('grid', '0.5,abc', /parameter grid is an array of numbers \(default \[0\.4, 0\.65\]\).*Example: -p grid '\[0\.4,0\.65\]'$/);
  bad('grid', '[0.5, "x"]', /parameter grid is an array of numbers/);
  bad('threshold', 'high', /parameter threshold is a number or null \(default 0\.59\).*Example: -p threshold 0\.59$/);
  bad('models', '[1]', /parameter models is an object \(default \{\}\).*Example: -p models '\{\}'$/);
  bad('resampels', '5', /unknown parameter\(s\) resampels/);
});

test('a number parameter refuses Infinity, however it is written, and so does every JSON-read value', () => {
  const bad = (name: string, text: string) =>
    assert.throws(
      () => coerceParameters(typedNb(), { [name]: text }, 't'),
      (e: unknown) => e instanceof InputError && e.message.includes(`parameter ${name} is `) && e.message.includes(`cannot read ${JSON.stringify(text)} as one`),
      `${name} = ${text}`,
    );
  for (const text of ['Infinity', '-Infinity', '1e999', '-1e999']) bad('resamples', text);
  bad('threshold', 'Infinity'); // number or null
  bad('grid', '[0.5, 1e999]'); // array of numbers, as JSON
  bad('grid', '0.5,Infinity'); // array of numbers, comma-separated
  bad('models', '{"a": 1e999}'); // an object: JSON reads 1e999 as Infinity, which JSON.stringify would write as null
  // The largest finite numbers are still numbers.
  assert.deepEqual(coerceParameters(typedNb(), { resamples: '1e308', grid: '[-1e308]' }, 't'), { resamples: 1e308, grid: [-1e308] });
});

test('names every object already has (__proto__, constructor, ...) are refused as parameter and notebook names', () => {
  for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', '__proto__:seed', 'constructor:seed', '03-fig:__proto__']) {
    assert.throws(
      () => parseParameterArgs(['-p', key, '{"polluted": true}']),
      (e: unknown) => e instanceof InputError && /is a name every JavaScript object has/.test(e.message) && e.message.includes(JSON.stringify(key)),
      key,
    );
  }
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype untouched');
  // An ordinary name that merely contains one of them is fine.
  assert.deepEqual(parseParameterArgs(['-p', 'constructorName', 'x']).params.all, { constructorName: 'x' });
});

test('the injected cell keeps each declaration\'s type annotation, so a const string parameter is not narrowed to its literal', () => {
  const annotated: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [code('p', 'const domainId: string = "";\nconst resamples: number | null = null;\nconst seed = "";', ['parameters']), code('b', 'domainId === "" ? 1 : 2;')],
  };
  const injected = injectParameters(annotated, { domainId: 'linear-modelling', resamples: 500, seed: '7' }, 'n.ipynb');
  // Without `: string`, `const domainId = "linear-modelling"` has the literal type and `domainId === ""` is TS2367.
  assert.equal(
    cellSource(injected.cells[1]!),
    '// Parameters injected by the runner (papermill convention).\nconst domainId: string = "linear-modelling";\nconst resamples: number | null = 500;\nconst seed = "7";\n',
  );
});

test('a string parameter that a notebook compares is declared `: string` (else a value written there does not compile: TS2367, no overlap)', () => {
  const dir = join(__dirname, '..', '..', 'notebooks');
  const found: string[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.ipynb')).sort()) {
    const nb = parseNotebook(readFileSync(join(dir, name), 'utf8'), name);
    const cell = readParametersCell(nb, name);
    if (cell === undefined) continue;
    const later = nb.cells.filter((c, i) => c.cell_type === 'code' && i !== cell.at).map((c) => cellSource(c)).join('\n');
    for (const d of cell.declarations) {
      if (d.keyword !== 'const' || d.annotation !== undefined || !/^["'`]/.test(d.literal)) continue;
      // Compared with a literal (`domainId === ""`) or with a field of a literal union type (`r.metric === histogramMetric`).
      if (new RegExp(`\\b${d.name}\\s*[!=]==?\\s*["'\`]|[!=]==?\\s*${d.name}\\b`).test(later)) found.push(`${name}: ${d.name}`);
    }
  }
  assert.deepEqual(found, []);
});
