import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { DomainFileSchema, loadDomain, loadDomainDir, parseDomain } from '../../lib/kst';

const FILE = 'domains/demo.json';

function text(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 'demo',
    title: 'Demo',
    source: 'hand-made',
    components: [
      { id: 'A', description: 'first' },
      { id: 'B', description: 'second', keywords: ['slope'], week: 3 },
      { id: 'C', description: 'third' },
    ],
    prerequisites: [
      ['A', 'B'],
      ['B', 'C'],
    ],
    ...overrides,
  });
}

/** Asserts an InputError whose message contains every fragment. */
function rejects(fn: () => unknown, ...fragments: string[]): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof InputError, `expected InputError, got ${String(err)}`);
    for (const f of fragments) assert.ok(err.message.includes(f), `message "${err.message}" lacks "${f}"`);
    return true;
  });
}

test('parseDomain builds ids, index and keeps canonical order and optional fields', () => {
  const d = parseDomain(text(), FILE);
  assert.equal(d.id, 'demo');
  assert.equal(d.title, 'Demo');
  assert.equal(d.file, FILE);
  assert.deepEqual(d.ids, ['A', 'B', 'C']);
  assert.equal(d.index.get('C'), 2);
  assert.deepEqual(d.components[1], { id: 'B', description: 'second', keywords: ['slope'], week: 3 });
  assert.deepEqual(d.components[0], { id: 'A', description: 'first' });
  assert.deepEqual(d.prerequisites, [
    ['A', 'B'],
    ['B', 'C'],
  ]);
});

test('duplicate prerequisite pairs are kept once, in first-occurrence order', () => {
  const d = parseDomain(text({ prerequisites: [['A', 'B'], ['B', 'C'], ['A', 'B']] }), FILE);
  assert.deepEqual(d.prerequisites, [
    ['A', 'B'],
    ['B', 'C'],
  ]);
});

test('malformed JSON names the file, the line and the parser position (lib/io wording)', () => {
  rejects(() => parseDomain('{"id": "demo",', FILE), `${FILE}:1: not valid JSON`);
  rejects(() => parseDomain('{"id": "demo",, }', FILE), `${FILE}:1: not valid JSON`, 'position 14');
  rejects(() => parseDomain('{\n  "id": "demo",\n  ]', FILE), `${FILE}:3: not valid JSON`);
  assert.throws(() => parseDomain('{\n  "id": "demo",\n  ]', FILE), (err: unknown) => err instanceof InputError && err.where.file === FILE && err.where.line === 3);
});

test('schema errors name the JSON path', () => {
  rejects(() => parseDomain(text({ title: 7 }), FILE), `${FILE}: title: `);
  rejects(
    () => parseDomain(text({ components: [{ id: 'A', description: '' }] }), FILE),
    FILE,
    'components[0].description',
  );
  rejects(() => parseDomain(text({ prerequisites: [['A']] }), FILE), FILE, 'prerequisites[0]');
  rejects(() => parseDomain(text({ components: [{ id: 'has space', description: 'x' }] }), FILE), 'components[0].id');
  rejects(
    () => parseDomain(text({ components: [{ id: 'A', description: 'x', week: 1.5 }] }), FILE),
    'components[0].week',
  );
});

test('unknown keys are rejected (typo protection), at top level and in components', () => {
  rejects(() => parseDomain(text({ prerequisite: [] }), FILE), FILE, 'prerequisite');
  rejects(
    () => parseDomain(text({ components: [{ id: 'A', descripton: 'x', description: 'y' }], prerequisites: [] }), FILE),
    'components[0]',
    'descripton',
  );
});

test('empty domain, duplicate IDs, unknown IDs and self-loops are rejected naming the item', () => {
  rejects(() => parseDomain(text({ components: [], prerequisites: [] }), FILE), FILE, 'no components');
  rejects(
    () => parseDomain(text({ components: [{ id: 'A', description: 'x' }, { id: 'A', description: 'y' }], prerequisites: [] }), FILE),
    FILE,
    'duplicate component ID "A"',
    'components[1]',
  );
  rejects(() => parseDomain(text({ prerequisites: [['A', 'Z']] }), FILE), FILE, 'prerequisites[0]', 'unknown component "Z"');
  rejects(() => parseDomain(text({ prerequisites: [['A', 'B'], ['C', 'C']] }), FILE), FILE, 'prerequisites[1]', 'self-loop', '"C"');
});

test('a cycle is printed as a closed path', () => {
  rejects(
    () => parseDomain(text({ prerequisites: [['A', 'B'], ['B', 'C'], ['C', 'A']] }), FILE),
    FILE,
    'cycle A -> B -> C -> A',
  );
  // Cycle B -> C -> B behind an acyclic prefix; D hangs off the cycle.
  const four = text({
    components: ['A', 'B', 'C', 'D'].map((id) => ({ id, description: id })),
    prerequisites: [['A', 'B'], ['B', 'C'], ['C', 'B'], ['C', 'D']],
  });
  rejects(() => parseDomain(four, FILE), 'cycle B -> C -> B');
});

test('DomainFileSchema exports a JSON schema', () => {
  const schema = DomainFileSchema.toJSONSchema() as { required?: string[] };
  assert.deepEqual([...(schema.required ?? [])].sort(), ['components', 'id', 'source', 'title']);
});

test('a domain file gives exactly one of prerequisites, basis, states, surmise', () => {
  rejects(() => parseDomain(text({ prerequisites: undefined }), FILE), 'exactly one of prerequisites, basis, states or surmise (none given)');
  rejects(() => parseDomain(text({ basis: [['A']] }), FILE), `${FILE}: basis: `, 'found prerequisites and basis');
  const d = parseDomain(text({ prerequisites: undefined, basis: [['A'], ['A', 'B'], ['A', 'B', 'C']] }), FILE);
  assert.equal(d.form, 'basis');
  assert.equal(d.quasiOrdinal, true);
  assert.deepEqual(d.prerequisites, [
    ['A', 'B'],
    ['B', 'C'],
  ]);
});

test('loadDomain and loadDomainDir read files; unreadable and clashing files raise InputError', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-domain-'));
  writeFileSync(join(dir, 'b.json'), text({ id: 'alpha' }));
  writeFileSync(join(dir, 'a.json'), text({ id: 'beta' }));
  writeFileSync(join(dir, 'notes.txt'), 'ignored');
  const domains = loadDomainDir(dir);
  assert.deepEqual(
    domains.map((d) => d.id),
    ['alpha', 'beta'],
  );
  assert.equal(domains[0]!.file, join(dir, 'b.json'));
  assert.equal(loadDomain(join(dir, 'a.json')).id, 'beta');
  rejects(() => loadDomain(join(dir, 'missing.json')), 'missing.json', 'ENOENT');
  rejects(() => loadDomainDir(join(dir, 'nope')), 'nope');
  writeFileSync(join(dir, 'c.json'), text({ id: 'alpha' }));
  rejects(() => loadDomainDir(dir), 'c.json', '"alpha"', 'b.json');
  writeFileSync(join(dir, 'c.json'), '{ broken');
  rejects(() => loadDomainDir(dir), 'c.json:1: not valid JSON');
});
