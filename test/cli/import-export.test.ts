import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStatesFile } from '../../lib/collect/states-file';
import { loadDomain } from '../../lib/kst';
import { seedFromText } from '../../cli/flags';
import { kstbench, tempDir, ROOT } from '../support/cli';

// The two-route basis of test/kst-io/formats.test.ts (a b c d; c after a or b; d after c).
const BASIS = '#SRBT v2.0 basis\n4\n6\n1000\n0100\n2010\n0210\n2021\n0221\n';

test('import writes a domain file from an SRBT basis and an items CSV; export writes it back', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'two.bas'), BASIS);
  writeFileSync(join(dir, 'items.csv'), 'id,description\na,task a\nb,task b\nc,task c\nd,task d\n');
  const out = join(dir, 'two.json');
  const r = kstbench(['import', join(dir, 'two.bas'), '--id', 'two', '--items', join(dir, 'items.csv'), '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /4 items, 10 states, not quasi-ordinal/);
  const domain = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(domain.basis, [['a'], ['b'], ['a', 'c'], ['b', 'c'], ['a', 'c', 'd'], ['b', 'c', 'd']]);
  const back = kstbench(['export', '--domain', out, '--what', 'basis', '--format', 'srbt']);
  assert.equal(back.code, 0, back.stderr);
  assert.equal(back.stdout, BASIS);
  const file = join(dir, 'space.srbt');
  assert.equal(kstbench(['export', '--domain', out, '--what', 'space', '--format', 'srbt', '--out', file]).code, 0);
  assert.equal(readFileSync(file, 'utf8').split('\n')[2], '10');
});

test('import refuses a malformed file with file:line, exit 1, and writes nothing', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'bad.bas'), '#SRBT v2.0 basis\n4\n2\n1000\n01x0\n');
  const out = join(dir, 'bad.json');
  const r = kstbench(['import', join(dir, 'bad.bas'), '--id', 'bad', '--out', out]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /bad\.bas:5: symbol "x" in column 3/);
  assert.equal(existsSync(out), false);
  assert.equal(kstbench(['import', '--id', 'x', '--out', out]).code, 2);
  assert.equal(kstbench(['export', '--domain', out, '--what', 'surmise', '--format', 'srbt']).code, 2);
});

test('sample writes the state-sample file that collect --states reads, reproducibly', () => {
  const dir = tempDir();
  const slope = join(ROOT, 'data', 'raw', 'domains', 'slope.json');
  const a = join(dir, 'a.json');
  const b = join(dir, 'b.json');
  assert.equal(kstbench(['sample', '--domain', slope, '--n', '50', '--seed', 's1', '--out', a]).code, 0);
  assert.equal(kstbench(['sample', '--domain', slope, '--n', '50', '--seed', 's1', '--out', b]).code, 0);
  assert.equal(readFileSync(a, 'utf8'), readFileSync(b, 'utf8'));
  const sample = JSON.parse(readFileSync(a, 'utf8'));
  assert.equal(sample.scheme, 'lazy-up-down-markov-chain');
  // A text seed is hashed to an integer (cli/flags.ts), and that integer is what is used and recorded.
  const seed = String(seedFromText('s1'));
  assert.equal(sample.seed, seed);
  assert.equal(sample.counts.reduce((x: number, y: number) => x + y, 0), 50);
  const parsed = parseStatesFile(readFileSync(a, 'utf8'), a, [loadDomain(slope)]);
  assert.equal(parsed.states.get('slope')!.length, sample.states.length);
  assert.equal(parsed.domains.slope!.seed, seed);
  assert.equal(kstbench(['sample', '--domain', slope, '--n', '0', '--seed', 's']).code, 2);
});

test('import writes only domain files that space --check reads: names that are not IDs are mapped, a bad --id is refused naming it', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'named.csv'), '\ufeff"I 1","I 2"\n0,0\n1,0\n1,1\n');
  const out = join(dir, 'named.json');
  const r = kstbench(['import', join(dir, 'named.csv'), '--id', 'named', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const check = kstbench(['space', '--domain', out, '--check']);
  assert.equal(check.code, 0, check.stderr);
  assert.equal(JSON.parse(check.stdout).knowledgeSpace, true);
  assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')).components.map((c: { id: string; label?: string }) => [c.id, c.label]), [['I_1', 'I 1'], ['I_2', 'I 2']]);
  const bad = kstbench(['import', join(dir, 'named.csv'), '--id', 'bad id', '--out', join(dir, 'bad.json')]);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /the domain ID "bad id" is not a valid ID/);
  assert.equal(existsSync(join(dir, 'bad.json')), false);
});

test('export names items by the names import kept ("Größe", not Gr_e), and says on stderr which label it could not write', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'sizes.csv'), '"Größe","Höhe"\n0,0\n1,0\n1,1\n');
  const out = join(dir, 'sizes.json');
  assert.equal(kstbench(['import', join(dir, 'sizes.csv'), '--id', 'sizes', '--out', out]).code, 0);
  const back = kstbench(['export', '--domain', out, '--what', 'space', '--format', 'csv']);
  assert.equal(back.code, 0, back.stderr);
  assert.equal(back.stdout.split('\n')[0], '"Größe","Höhe"');
  assert.equal(back.stderr, '');
  // A hand-edited label that import would map to another ID: the ID is written, and the note says why.
  const edited = JSON.parse(readFileSync(out, 'utf8'));
  edited.components[1].label = 'Größe';
  writeFileSync(out, JSON.stringify(edited));
  const noted = kstbench(['export', '--domain', out, '--what', 'items', '--format', 'csv']);
  assert.equal(noted.code, 0, noted.stderr);
  assert.equal(noted.stderr, 'kstbench export: item H_he: its label "Größe" is also the name of item Gr_e, so the file names it H_he\n');
  assert.match(noted.stdout, /^"id","description"\n"Größe",.*\n"H_he",/);
});

test('the import, export and fringe help paragraphs are not broken mid-sentence (each line but a paragraph\'s last fills the width)', async () => {
  for (const name of ['import', 'export', 'fringe']) {
    const { command } = (await import(`../../cli/commands/${name}`)) as { command: { help: string } };
    const lines = command.help.split('\n');
    lines.forEach((line, i) => {
      // Prose lines start at column 0; an option's description is indented. A prose line followed by more
      // prose is inside a paragraph, hand-wrapped at about 100 columns: a short one there is a broken line.
      const next = lines[i + 1] ?? '';
      const inParagraph = line !== '' && !line.startsWith(' ') && next !== '' && !next.startsWith(' ');
      assert.ok(!inParagraph || line.length >= 60, `${name} --help line ${i + 1} breaks a paragraph: ${JSON.stringify(line)}`);
    });
  }
});

test('export prints its first 20 notes on labels it could not write, then one line counting the rest', () => {
  const dir = tempDir();
  const ids = Array.from({ length: 25 }, (_, i) => `q${i + 1}`);
  const domain = { id: 'many', title: 'many', source: 'test', components: ids.map((id, i) => ({ id, description: id, label: `Question ${i + 1}` })), basis: ids.map((id) => [id]) };
  const file = join(dir, 'many.json');
  writeFileSync(file, JSON.stringify(domain));
  const r = kstbench(['export', '--domain', file, '--what', 'items', '--format', 'csv']);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 21, r.stderr);
  assert.equal(lines[19], 'kstbench export: item q20: its label "Question 20" would be imported as Question_20 (lib/kst-io/README.md, "Item names"), so the file names it q20');
  assert.equal(lines[20], 'kstbench export: and 5 more items named by their ID, as their labels would not come back (lib/kst-io/README.md, "Item names")');
  assert.equal(r.stdout.split('\n').length, 27, 'every item is still written');
});
