import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kstbench, tempDir, ROOT } from '../support/cli';

const tiny = join(ROOT, 'test', 'fixtures', 'analyze', 'domains', 'tiny.json');

test('space streams every state of the tiny domain with its outer fringe as JSON Lines (worked by hand)', () => {
  const r = kstbench(['space', '--domain', tiny]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines[0], { domain: 'tiny', components: ['A', 'B', 'C'], structure: 'quasi-ordinal', notions: [], states: 6 });
  // A ⪯ B, C free: states ∅, A, C, AB, AC, ABC; one line each (enumeration order, compared as a set).
  const key = (x: { state: string[] }) => x.state.join(',');
  assert.deepEqual(
    lines.slice(1).sort((a, b) => (key(a) < key(b) ? -1 : 1)),
    [
      { state: [], outer_fringe: ['A', 'C'] },
      { state: ['A'], outer_fringe: ['B', 'C'] },
      { state: ['A', 'B'], outer_fringe: ['C'] },
      { state: ['A', 'B', 'C'], outer_fringe: [] },
      { state: ['A', 'C'], outer_fringe: ['B'] },
      { state: ['C'], outer_fringe: ['A'] },
    ],
  );
  assert.equal(kstbench(['space', '--domain', tiny, '--count']).stdout, '6\n');
  const srbt = kstbench(['space', '--domain', tiny, '--format', 'srbt']).stdout.split('\n');
  assert.deepEqual(srbt.slice(0, 3), ['#SRBT v2.0 space ASCII', '3', '6']);
  assert.deepEqual(srbt.slice(3, -1).sort(), ['000', '001', '100', '101', '110', '111']);
});

test('space refuses a structure above --max-states with one line and writes nothing', () => {
  const dir = tempDir();
  const out = join(dir, 'space.jsonl');
  const r = kstbench(['space', '--domain', tiny, '--max-states', '5', '--out', out]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /streaming the 6 states of .*tiny\.json \(count them with --count, sample them with 'kstbench sample'\) needs 6 steps, over the work budget --max-states 5; raise --max-states/);
  assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  assert.equal(existsSync(out), false);
  const ok = kstbench(['space', '--domain', tiny, '--out', out]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(readFileSync(out, 'utf8').trimEnd().split('\n').length, 7);
});

test('fringe prints the outer fringe of a state, including the empty and the full state', () => {
  assert.deepEqual(JSON.parse(kstbench(['fringe', '--domain', tiny, '--state', 'A']).stdout), ['B', 'C']);
  assert.deepEqual(JSON.parse(kstbench(['fringe', '--domain', tiny, '--state', '']).stdout), ['A', 'C']);
  assert.deepEqual(JSON.parse(kstbench(['fringe', '--domain', tiny, '--state', 'C,A,B']).stdout), []);
});

test('fringe --state is a set: white space around IDs (a no-break space too) and repeats are accepted, an empty entry is refused with one line naming the domain file', () => {
  for (const state of [' A , C ', 'A\u00a0,\tC', 'A,C,A', 'C,A,C,A']) {
    const r = kstbench(['fringe', '--domain', tiny, '--state', state]);
    assert.equal(r.code, 0, `${JSON.stringify(state)}: ${r.stderr}`);
    assert.deepEqual(JSON.parse(r.stdout), ['B'], JSON.stringify(state));
  }
  assert.deepEqual(JSON.parse(kstbench(['fringe', '--domain', tiny, '--state', ' ']).stdout), ['A', 'C'], 'a blank value is the empty state');
  for (const [state, entry] of [['A,', 'entry 2 of 2'], [',A', 'entry 1 of 2'], ['A,,C', 'entry 2 of 3'], [',', 'entry 1 of 2'], ['A, ,C', 'entry 2 of 3']] as const) {
    const r = kstbench(['fringe', '--domain', tiny, '--state', state]);
    assert.equal(r.code, 1, `${JSON.stringify(state)}: ${r.stdout}`);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(
      r.stderr.includes(`${tiny}: --state ${JSON.stringify(state)}: ${entry} is empty (a comma at an end, or two in a row); separate the IDs by single commas, or give --state "" for the empty state`),
      r.stderr,
    );
  }
});

test('fringe: a set that is not a state, or an unknown ID, is exit 1 with the reason', () => {
  const notState = kstbench(['fringe', '--domain', tiny, '--state', 'B']);
  assert.equal(notState.code, 1);
  assert.match(notState.stderr, /not a knowledge state: B is in the state but its prerequisite A is not/);
  assert.equal(notState.stdout, '');
  const unknown = kstbench(['fringe', '--domain', tiny, '--state', 'A,Z']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /Z/);
  // A zero-width space pasted after an ID is not trimmed: the message shows it, in the echoed option too.
  const hidden = kstbench(['fringe', '--domain', tiny, '--state', 'A,C\u200b']);
  assert.equal(hidden.code, 1);
  assert.match(hidden.stderr, /--state "A,C\\u\{200B\}": unknown component ID\(s\) C\\u\{200B\} for domain /);
});

test('usage errors are exit 2; --help is exit 0', () => {
  assert.equal(kstbench(['fringe', '--domain', tiny]).code, 2);
  assert.equal(kstbench(['space']).code, 2);
  assert.equal(kstbench(['space', '--domain', tiny, '--extra']).code, 2);
  assert.equal(kstbench(['nonsense']).code, 2);
  assert.equal(kstbench([]).code, 2);
  const help = kstbench(['fringe', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--state/);
  assert.equal(kstbench(['--help']).code, 0);
});

const base = {
  id: 'bad',
  title: 'Bad',
  source: 'test',
  components: [
    { id: 'A', description: 'a' },
    { id: 'B', description: 'b' },
    { id: 'C', description: 'c' },
  ],
  prerequisites: [['A', 'B']],
};
const badDomains: Array<[string, string, RegExp]> = [
  ['malformed JSON', '{"id": "bad", "components": [', /bad\.json.*(JSON|position|line)/i],
  ['duplicate IDs', JSON.stringify({ ...base, components: [...base.components, { id: 'A', description: 'again' }] }), /bad\.json.*duplicate.*"?A"?/i],
  ['unknown ID in a relation', JSON.stringify({ ...base, prerequisites: [['A', 'Q']] }), /bad\.json.*unknown.*"?Q"?/i],
  ['self-loop', JSON.stringify({ ...base, prerequisites: [['B', 'B']] }), /bad\.json.*(self|itself).*B/i],
  ['cycle', JSON.stringify({ ...base, prerequisites: [['A', 'B'], ['B', 'C'], ['C', 'A']] }), /bad\.json.*cycle.*A -> B -> C -> A|bad\.json.*cycle.*B -> C -> A -> B|bad\.json.*cycle.*C -> A -> B -> C/i],
  ['empty domain', JSON.stringify({ ...base, components: [], prerequisites: [] }), /bad\.json.*(empty|no components|at least)/i],
];

for (const [name, text, message] of badDomains) {
  test(`a bad domain file is exit 1 naming the file and the item: ${name}`, () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, text);
    for (const args of [['space', '--domain', file], ['fringe', '--domain', file, '--state', '']]) {
      const r = kstbench(args);
      assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '', 'nothing may be written on bad input');
    }
  });
}

test('analyze refuses a domains directory containing a bad file, writing nothing', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...base, prerequisites: [['A', 'B'], ['B', 'A']] }));
  const responses = join(dir, 'r.jsonl');
  writeFileSync(responses, '');
  const r = kstbench(['analyze', '--domains', dir, '--responses', responses, '--out', join(dir, 'out')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /bad\.json.*cycle/i);
});

test('space piped to a reader slower than it (a shell pipe that fills) writes every line and exits 0', () => {
  // 15 independent tasks: 32,768 states, about 1.7 MB of JSON Lines, far past a pipe's 64 KiB, so
  // the writer meets a full pipe (EAGAIN on the non-blocking fd 1) while the reader sleeps.
  const dir = tempDir();
  const domain = join(dir, 'wide.json');
  const components = Array.from({ length: 15 }, (_, i) => ({ id: `T${i + 1}`, description: `task ${i + 1}` }));
  writeFileSync(domain, JSON.stringify({ id: 'wide', title: 'wide', source: 'test: no prerequisites', components, prerequisites: [] }));
  const bin = join(ROOT, 'bin', 'kstbench.js');
  const r = spawnSync('bash', ['-c', `set -o pipefail; "$0" "$1" space --domain "$2" | { sleep 0.4; wc -l; }`, process.execPath, bin, domain], { encoding: 'utf8' });
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  assert.equal(r.stdout.trim(), String(1 + 2 ** 15), 'the header line and one line per state');
});
