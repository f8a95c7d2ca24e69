/**
 * Prototype names as ordinary names (lib/io/keys.ts), through every input format: the four domain
 * forms, the kstIO formats (surmise CSV, CSV with a header, and the unnamed matrix formats round-trip),
 * and notebook parameters, where they are refused by name. The domain has the chain
 * a → constructor → toString and a free task valueOf: 4 · 2 = 8 states. `__proto__` is no valid
 * task ID (IDs start with a letter or digit); where it appears as a key it is refused by name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { checkJson, isPrototypeName, keyedObject, refuseProtoKey } from '../../lib/io';
import { buildDomain, countStates, DomainFileSchema, enumerateStates, parseDomain, surmiseFunction } from '../../lib/kst';
import { exportStructure, importStructure, type ExportWhat, type MatrixFormat } from '../../lib/kst-io';
import { parseParameterArgs } from '../../lib/notebook/parameters';
import { exported } from '../kst-io/helpers';

const NAMES = ['a', 'constructor', 'toString', 'valueOf'];
const components = NAMES.map((id) => ({ id, description: `task ${id}` }));
const header = { id: 'proto', title: 'proto', source: 'test', components };
const chainStates = [[], ['a'], ['a', 'constructor'], ['a', 'constructor', 'toString']];
const states = chainStates.flatMap((s) => [s, [...s, 'valueOf']]);

test('keyedObject defines own keys (constructor shadows the inherited one, __proto__ stays a key); refuseProtoKey names __proto__', () => {
  const o = keyedObject<number>([['constructor', 1], ['__proto__', 2]]);
  assert.equal(o['constructor'], 1);
  assert.deepEqual(Object.keys(o), ['constructor', '__proto__']);
  assert.equal(Object.getPrototypeOf(o), Object.prototype, 'the prototype was not replaced');
  const assigned: Record<string, number> = {};
  assigned['__proto__'] = 2;
  assert.deepEqual(Object.keys(assigned), [], 'control: plain assignment loses the key');
  assert.throws(() => refuseProtoKey(JSON.parse('{"__proto__": 1}'), 'x.json: surmise'), /x\.json: surmise names "__proto__", which is not a valid ID/);
  refuseProtoKey({ constructor: 1 }, 'fine');
  assert.ok(isPrototypeName('__proto__') && isPrototypeName('hasOwnProperty') && !isPrototypeName('slope'));
});

test('every domain form reads constructor, toString and valueOf as ordinary task names; a __proto__ key is refused by name', () => {
  const forms: Record<string, unknown> = {
    prerequisites: { prerequisites: [['a', 'constructor'], ['constructor', 'toString']] },
    surmise: { surmise: { constructor: [['a']], toString: [['a', 'constructor']], valueOf: [[]] } },
    basis: { basis: [['a'], ['a', 'constructor'], ['a', 'constructor', 'toString'], ['valueOf']] },
    states: { states },
  };
  for (const [form, structure] of Object.entries(forms)) {
    const d = parseDomain(JSON.stringify({ ...header, ...(structure as object) }), `${form}.json`);
    assert.equal(countStates(d), 8, form);
    assert.deepEqual(new Set(enumerateStates(d).map((s) => s.join(','))), new Set(states.map((s) => s.join(','))), form);
  }
  const surmise = surmiseFunction(parseDomain(JSON.stringify({ ...header, states }), 's.json'));
  assert.deepEqual(surmise['constructor'], [['a']]);
  assert.deepEqual(surmise['toString'], [['a', 'constructor']]);
  // JSON.parse keeps "__proto__" as an own key; zod's record used to drop it silently (the surmise was misread).
  const text = JSON.stringify({ ...header, surmise: { constructor: [['a']] } }).replace('"surmise":{', '"surmise":{"__proto__":[["a"]],');
  assert.throws(() => parseDomain(text, 'p.json'), (err: unknown) => err instanceof InputError && err.message === 'p.json: surmise names "__proto__", which is not a valid ID (IDs start with a letter or digit)');
  const component = JSON.stringify({ ...header, components: [...components, { id: '__proto__', description: 'x' }], prerequisites: [] });
  assert.throws(() => parseDomain(component, 'c.json'), /components\[4\]\.id: must be a non-empty ID/);
});

test('kstIO formats: surmise CSV and CSV carry the names; every format round-trips the space', () => {
  const d = buildDomain({ ...header, prerequisites: [['a', 'constructor'], ['constructor', 'toString']] });
  const cases: Array<[ExportWhat, MatrixFormat]> = [
    ['surmise', 'surmise-csv'],
    ['basis', 'csv'],
    ['space', 'csv'],
    ['basis', 'srbt'],
    ['space', 'matrix'],
  ];
  for (const [what, format] of cases) {
    const text = exported(d, what, format);
    const named = format.includes('csv');
    const back = buildDomain(importStructure(text, `x.${format}`, { id: 'back', ...(what === 'basis' ? { kind: 'basis' as const } : {}) }));
    if (named) assert.deepEqual(back.ids, NAMES, `${what} ${format}`);
    assert.equal(countStates(back), 8, `${what} ${format}`);
  }
  // A surmise CSV naming constructor used to crash (surmise[item].push is not a function). __proto__
  // is no valid ID: the import maps it by its one rule (lib/kst-io/README.md) and keeps the name as the
  // label, so what it writes passes the domain file's schema and nothing reaches a prototype.
  const csv = (name: string) => `"Item","a","${name}"\n"a",1,0\n"${name}",1,1\n`;
  assert.deepEqual(buildDomain(importStructure(csv('constructor'), 'c.csv', { id: 'c' })).ids, ['a', 'constructor']);
  const proto = importStructure(csv('__proto__'), 'p.csv', { id: 'p' });
  assert.deepEqual(Object.keys(proto.surmise!), ['a', 'proto__']);
  assert.equal(proto.components[1]!.label, '__proto__');
  assert.deepEqual(checkJson(proto, 'p.csv', DomainFileSchema).surmise, { a: [[]], proto__: [['a']] });
});

test('notebook parameters named __proto__, constructor or toString are refused by name (global and per notebook)', () => {
  for (const argv of [['-p', '__proto__', '1'], ['--param', 'constructor=1'], ['-p', '01:toString', '1'], ['-p', '__proto__:seed', '1']]) {
    assert.throws(
      () => parseParameterArgs(argv),
      (err: unknown) => err instanceof InputError && /is a name every JavaScript object has/.test(err.message),
      argv.join(' '),
    );
  }
  assert.deepEqual(parseParameterArgs(['-p', 'seed', '1']).params.all, { seed: '1' });
});
