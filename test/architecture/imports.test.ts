/**
 * Enforces the import direction of ARCHITECTURE.md: every lib/ module may import its own folder and
 * the layers below it, never a layer above; no import cycle between modules; no runtime `require` of
 * project code (lib/, cli/, scripts/; third-party packages such as the model SDKs may be required lazily), and
 * an `import()` of it only in a file ARCHITECTURE.md names as doing so; the simulators reach the collector only
 * through the provider registry and the report layer only through the paper-model correspondence.
 * Imports are read from the source text (static `import`/`export … from`, `import('…')`, `require('…')`),
 * type-only imports included: a type is a dependency too.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(__dirname, '..', '..');
const LIB = join(ROOT, 'lib');

/** Lowest first. A module may import from its own unit or any unit of a lower layer. */
export const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'conditions.ts'],
  ['stats', 'metrics', 'io', 'records', 'provider'],
  ['kst'],
  ['prompting', 'psi', 'kst-io'],
  ['analysis', 'simulation'],
  ['collect'],
  ['audit', 'notebook'],
  ['figures'],
  ['report'],
  ['claims'],
  ['site'],
  ['study'],
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

interface Edge {
  from: string;
  to: string;
  kind: 'static' | 'require';
}

/** The module a relative specifier names (lib-relative path), or undefined when it is not in lib/. */
function resolveModule(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return relative(LIB, candidate).startsWith('..') ? `../${relative(ROOT, candidate)}` : relative(LIB, candidate);
    } catch {
      // not this candidate
    }
  }
  return undefined;
}

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function edgesOf(file: string): Edge[] {
  const text = stripComments(readFileSync(file, 'utf8'));
  const from = relative(LIB, file);
  const out: Edge[] = [];
  const patterns: Array<[RegExp, Edge['kind']]> = [
    [/\b(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s+'(\.[^']*)'/g, 'static'],
    [/\bimport\s+'(\.[^']*)'/g, 'static'],
    [/\bimport\(\s*'(\.[^']*)'\s*\)/g, 'static'],
    [/\brequire\(\s*'(\.[^']*)'\s*\)/g, 'require'],
  ];
  for (const [pattern, kind] of patterns) {
    for (const m of text.matchAll(pattern)) {
      const to = resolveModule(file, m[1]!);
      assert.ok(to !== undefined, `lib/${from}: import '${m[1]}' names no file`);
      out.push({ from, to, kind });
    }
  }
  return out;
}

/** The architectural unit of a lib-relative module path: its top folder, or the file for lib/*.ts. */
function unitOf(module: string): string {
  return module.includes('/') ? module.slice(0, module.indexOf('/')) : module;
}

function layerOf(unit: string): number {
  const layer = LAYERS.findIndex((units) => units.includes(unit));
  assert.ok(layer >= 0, `lib/${unit} is in no layer of ARCHITECTURE.md (add it to LAYERS and to the page)`);
  return layer;
}

const EDGES = tsFiles(LIB).flatMap(edgesOf);

test('every lib/ folder has a layer, and the layers are the ones ARCHITECTURE.md lists', () => {
  for (const name of readdirSync(LIB)) {
    if (name.endsWith('.md')) continue;
    layerOf(name);
  }
  const page = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8').split('## Which way imports run')[1] ?? '';
  for (const [i, units] of LAYERS.entries()) {
    const line = page.split('\n').find((l) => l.startsWith(`| ${i} |`));
    assert.ok(line, `ARCHITECTURE.md has no row for layer ${i}`);
    for (const unit of units) assert.ok(line.includes(`\`${unit.replace(/\.ts$/, '')}`), `ARCHITECTURE.md layer ${i} row does not name ${unit}`);
  }
});

test('imports run one way: own folder or a lower layer, with no exception', () => {
  const upward = EDGES.filter((e) => {
    if (e.to.startsWith('../')) return true; // lib/ never imports cli/ or scripts/
    const a = unitOf(e.from);
    const b = unitOf(e.to);
    if (a === b) return false;
    return layerOf(b) > layerOf(a);
  });
  assert.deepEqual(upward.map((e) => `lib/${e.from} -> lib/${e.to}`), []);
});

test('no module cycle that passes through two lib/ folders', () => {
  const graph = new Map<string, string[]>();
  for (const e of EDGES) graph.set(e.from, [...(graph.get(e.from) ?? []), e.to]);
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      const cycle = [...path.slice(path.indexOf(node)), node];
      // A cycle inside one folder is that folder's business; one through two folders is a package cycle.
      if (new Set(cycle.map(unitOf)).size > 1) cycles.push(cycle.join(' -> '));
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) visit(node, []);
  assert.deepEqual(cycles, []);
});

/** The folders (units) that import one another in a circle, even through different files. */
export function folderCycles(edges: readonly { from: string; to: string }[]): string[] {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    if (e.to.startsWith('../')) continue;
    const a = unitOf(e.from);
    const b = unitOf(e.to);
    if (a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b));
  }
  const cycles: string[] = [];
  for (const start of [...graph.keys()].sort()) {
    // Depth-first search for a path back to `start` (an explicit stack: no recursion depth).
    const stack: Array<[string, string[]]> = [[start, [start]]];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const [node, path] = stack.pop()!;
      for (const next of graph.get(node) ?? []) {
        if (next === start) cycles.push([...path, start].join(' -> '));
        else if (!seen.has(next)) {
          seen.add(next);
          stack.push([next, [...path, next]]);
        }
      }
    }
  }
  return cycles;
}

test('no folder cycle: no two lib/ folders import each other, directly or through others', () => {
  assert.deepEqual(folderCycles(EDGES), []);
});

test('the folder-cycle check fails on a planted cycle between two folders', () => {
  const planted = [
    { from: 'simulation/kst-respondent/provider.ts', to: 'collect/providers/types.ts' },
    { from: 'collect/providers/index.ts', to: 'simulation/kst-respondent/provider.ts' },
  ];
  assert.equal(folderCycles(planted).length > 0, true);
});

test('no runtime require of project code: lib/ and cli/ and scripts/ import it statically', () => {
  const requires = EDGES.filter((e) => e.kind === 'require');
  assert.deepEqual(requires.map((e) => `lib/${e.from} requires lib/${e.to}`), []);
  // cli/ and scripts/ too. A computed path (scripts/bench/notebooks.ts loading another checkout's
  // dist/) is not a relative literal and is not project code of this tree.
  const outside = ['cli', 'scripts'].flatMap((dir) => tsFiles(join(ROOT, dir)));
  const found = outside.flatMap((file) =>
    [...stripComments(readFileSync(file, 'utf8')).matchAll(/\brequire\(\s*['"`](\.[^'"`]*)['"`]\s*\)/g)].map((m) => `${relative(ROOT, file)} requires ${m[1]}`),
  );
  assert.deepEqual(found, []);
});

test('simulators: only the provider registry builds them as providers, only the claims replicates run their in-memory studies, only paper-models.ts is read by the report layer', () => {
  const intoSimulation = EDGES.filter((e) => unitOf(e.to) === 'simulation' && unitOf(e.from) !== 'simulation');
  const wrong = intoSimulation.filter(
    (e) =>
      !(e.from === 'collect/providers/index.ts' && /^simulation\/(kst-respondent|psi-tutor)\/provider\.ts$/.test(e.to)) &&
      !(unitOf(e.from) === 'report' && e.to === 'simulation/paper-models.ts') &&
      // The replicate corpora of the claims ledger: the whole study in memory, and the parameters for the fingerprint.
      !(e.from === 'claims/replicates.ts' && /^simulation\/(kst-respondent|psi-tutor)\/(study|profiles)\.ts$/.test(e.to)),
  );
  assert.deepEqual(wrong.map((e) => `lib/${e.from} -> lib/${e.to}`), []);
});

test('lib/psi is pure: no random numbers, no simulator', () => {
  const impure = tsFiles(join(LIB, 'psi')).filter((f) => /from 'seedrandom'|require\('seedrandom'\)/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(impure.map((f) => relative(ROOT, f)), []);
});

test("every file that import()s project code is one ARCHITECTURE.md names as doing so", () => {
  const page = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const bullet = page.slice(page.indexOf('- **No `require` of project code**')).split('\n- ')[0]!;
  const files = ['lib', 'cli', 'scripts'].flatMap((dir) => tsFiles(join(ROOT, dir)));
  // `typeof import('…')` is a type, not a load.
  const importing = files.filter((file) => /(?<!typeof )\bimport\(\s*['"`]\.{1,2}\//.test(stripComments(readFileSync(file, 'utf8')))).map((file) => relative(ROOT, file));
  assert.ok(importing.includes('cli/kstbench.ts'), 'the dispatcher import()s its commands (the scan finds them)');
  assert.deepEqual(importing.filter((file) => !bullet.includes(`\`${file}\``)), [], 'name these in ARCHITECTURE.md');
});
