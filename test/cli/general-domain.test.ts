/**
 * Metrics and analysis depend only on the fringes, so they need no change for a domain that is not
 * quasi-ordinal. Fixture test/fixtures/general: two-routes = {a, b, c, d}, c after a OR after b, d
 * after c (basis {a}, {b}, {a,c}, {b,c}, {a,c,d}, {b,c,d}; 10 states, see test/kst/basis.test.ts).
 * Responses (model m, order 1), P = prediction, T = reference outer fringe:
 *   P0 {a}      P={b,c}    T={b,c}   exact
 *   P0 {a,c}    P={d}      T={b,d}   prec 1   rec 1/2 F1 2/3 J 1/2
 *   P0 ∅        P={a,b,c}  T={a,b}   prec 2/3 rec 1   F1 4/5 J 2/3  (c has two routes, neither done)
 *   P0 {a,b,c}  P={d}      T={d}     exact
 *   P2 the same four states, every prediction = T.
 * Table 3 P0: exact 2/4; precision (1+1+2/3+1)/4 = 11/12; recall (1+1/2+1+1)/4 = 7/8;
 *   F1 (1+2/3+4/5+1)/4 = 13/15; Jaccard (1+1/2+2/3+1)/4 = 19/24. P2: all 1.
 * Table 1: 4 components, 10 states, 1 terminal state (Q).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kstbench, readCsv, tempDir, ROOT } from '../support/cli';

const fixture = join(ROOT, 'test', 'fixtures', 'general');

test('analyze scores a non-quasi-ordinal domain against its basis fringes (hand-worked)', () => {
  const out = tempDir();
  const r = kstbench(['analyze', '--domains', join(fixture, 'domains'), '--responses', join(fixture, 'responses.jsonl'), '--out', out, '--boot', '10', '--perm', '10']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readCsv(join(out, 'table1.csv')), [{ domain: 'two-routes', components: '4', states: '10', terminal_states: '1' }]);
  const t3 = readCsv(join(out, 'table3.csv'));
  const close = (a: string, e: number) => assert.ok(Math.abs(Number(a) - e) < 1e-12, `${a} vs ${e}`);
  assert.deepEqual(t3.map((x) => [x.condition, x.n]), [['P0', '4'], ['P2', '4']]);
  close(t3[0]!.exact!, 2 / 4);
  close(t3[0]!.precision!, 11 / 12);
  close(t3[0]!.recall!, 7 / 8);
  close(t3[0]!.f1!, 13 / 15);
  close(t3[0]!.jaccard!, 19 / 24);
  for (const m of ['exact', 'precision', 'recall', 'f1', 'jaccard']) close(t3[1]![m]!, 1);
});

test('fringe and space work on the non-quasi-ordinal domain', () => {
  const domain = join(fixture, 'domains', 'two-routes.json');
  assert.deepEqual(JSON.parse(kstbench(['fringe', '--domain', domain, '--state', 'a,c']).stdout), ['b', 'd']);
  const bad = kstbench(['fringe', '--domain', domain, '--state', 'c']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /c is in the state but no route to it is/);
  assert.equal(kstbench(['space', '--domain', domain, '--count']).stdout, '10\n');
  const check = JSON.parse(kstbench(['space', '--domain', domain, '--check']).stdout);
  assert.deepEqual(check, { knowledgeSpace: true, quasiOrdinal: false, notions: [], learningSpace: true });
  const header = JSON.parse(kstbench(['space', '--domain', domain]).stdout.split('\n')[0]!);
  assert.equal(header.structure, 'general');
});

test('space refuses a domain file with invalid UTF-8 (a 0xff in its title, line 3), naming the line and byte offset, and writes nothing', () => {
  const bytes = readFileSync(join(fixture, 'domains', 'two-routes.json'));
  const at = bytes.indexOf('Two routes') + 1;
  bytes[at] = 0xff; // "Tw" -> "T\xff": a byte UTF-8 never uses
  const dir = tempDir();
  const domain = join(dir, 'two-routes.json');
  writeFileSync(domain, bytes);
  const out = join(dir, 'space.jsonl');
  const r = kstbench(['space', '--domain', domain, '--out', out]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`two-routes\\.json:3: invalid UTF-8 at byte offset ${at} \\(0xff`));
  assert.equal(existsSync(out), false, 'nothing written');
});

test('space --format srbt on the non-quasi-ordinal domain (rows and count from one walk): the export file, and --max-states below the count refused by the walk, nothing written', () => {
  const domain = join(fixture, 'domains', 'two-routes.json');
  const srbt = kstbench(['space', '--domain', domain, '--format', 'srbt']);
  assert.equal(srbt.code, 0, srbt.stderr);
  assert.deepEqual(srbt.stdout.split('\n').slice(0, 3), ['#SRBT v2.0 space ASCII', '4', '10']);
  assert.deepEqual(srbt.stdout.split('\n').slice(3, -1).sort(), ['0000', '0100', '0110', '0111', '1000', '1010', '1011', '1100', '1110', '1111']);
  assert.equal(kstbench(['export', '--domain', domain, '--what', 'space', '--format', 'srbt']).stdout, srbt.stdout);
  for (const args of [['space', '--format', 'srbt'], ['export', '--what', 'space', '--format', 'kst']]) {
    const refused = kstbench([...args, '--domain', domain, '--max-states', '9']);
    assert.equal(refused.code, 1);
    // The one walk, charged as --count charges it, stops past the budget.
    assert.match(refused.stderr, /^kstbench (space: streaming|export: exporting) the states of .*two-routes\.json.* needs more than 9 steps, over the work budget --max-states 9; raise --max-states/);
    assert.equal(refused.stdout, '');
  }
});

/**
 * The --max-states rule of docs/cli.md, the same for every format: `space` (and `export --what space`)
 * writes the space exactly when `space --count` under the same budget counts it and it has at most N
 * states. dead-ends (basis {a,c,e}, {a,b,d,e}, {b,c,d,e}) has 5 states and a walk of 7 splits, so
 * --count needs 7 steps: N = 5 and 6 are refused although the space has no more than N states.
 */
function maxStatesRule(args: (domain: string, out: string) => string[]): void {
  const dir = tempDir();
  const domain = join(dir, 'dead-ends.json');
  const components = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, description: id }));
  writeFileSync(domain, JSON.stringify({ id: 'dead-ends', title: 't', source: 'test', components, basis: [['a', 'c', 'e'], ['a', 'b', 'd', 'e'], ['b', 'c', 'd', 'e']] }));
  const runs = [4, 5, 6, 7, 8].map((n) => {
    const count = kstbench(['space', '--domain', domain, '--count', '--max-states', String(n)]);
    const out = join(dir, `out-${n}`);
    const r = kstbench([...args(domain, out), '--max-states', String(n)]);
    return { n, counted: count.code === 0 && Number(count.stdout) <= n, code: r.code, written: existsSync(out), stderr: r.stderr };
  });
  // The verdicts first (exit code, file written), all budgets at once, then the refusals' wording.
  assert.deepEqual(
    runs.map(({ n, code, written }) => ({ n, code, written })),
    runs.map(({ n, counted }) => ({ n, code: counted ? 0 : 1, written: counted })),
  );
  assert.deepEqual(runs.map((r) => r.counted), [false, false, false, true, true]);
  for (const { n, counted, stderr } of runs) {
    if (counted) continue;
    assert.match(stderr, new RegExp(`^kstbench (space: streaming|export: exporting) the states of .*dead-ends\\.json.* needs more than ${n} steps, over the work budget --max-states ${n}; raise --max-states`));
  }
  assert.equal(kstbench(['space', '--domain', domain, '--count', '--max-states', '6']).code, 1);
  assert.equal(kstbench(['space', '--domain', domain, '--count', '--max-states', '7']).stdout, '5\n');
}

test('--max-states, SRBT (space --format srbt, export --what space): written exactly when --count under the same budget counts the space within it', () => {
  // Before, the SRBT path compared the budget with the state count only and wrote dead-ends under 5 and 6.
  maxStatesRule((domain, out) => ['space', '--domain', domain, '--format', 'srbt', '--out', out]);
  maxStatesRule((domain, out) => ['export', '--what', 'space', '--format', 'kst', '--domain', domain, '--out', out]);
});

test('--max-states, JSON Lines: the same rule, and the refusal names the streaming the user asked for', () => {
  // Before, JSON Lines refused the same budgets but said "counting the states of …" (its count ran first).
  maxStatesRule((domain, out) => ['space', '--domain', domain, '--out', out]);
});
