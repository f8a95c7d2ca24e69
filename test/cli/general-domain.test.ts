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

test('space --format srbt on the non-quasi-ordinal domain (rows and count from one walk): the export file, and --max-states below the count refused by the count, nothing written', () => {
  const domain = join(fixture, 'domains', 'two-routes.json');
  const srbt = kstbench(['space', '--domain', domain, '--format', 'srbt']);
  assert.equal(srbt.code, 0, srbt.stderr);
  assert.deepEqual(srbt.stdout.split('\n').slice(0, 3), ['#SRBT v2.0 space ASCII', '4', '10']);
  assert.deepEqual(srbt.stdout.split('\n').slice(3, -1).sort(), ['0000', '0100', '0110', '0111', '1000', '1010', '1011', '1100', '1110', '1111']);
  assert.equal(kstbench(['export', '--domain', domain, '--what', 'space', '--format', 'srbt']).stdout, srbt.stdout);
  for (const args of [['space', '--format', 'srbt'], ['export', '--what', 'space', '--format', 'kst']]) {
    const refused = kstbench([...args, '--domain', domain, '--max-states', '9']);
    assert.equal(refused.code, 1);
    // The walk gives up past the budget; the count (as before: its own walk, charged) refuses it.
    assert.match(refused.stderr, /^kstbench (space|export): counting the states of .*two-routes\.json needs more than 9 steps, over the work budget --max-states 9; raise --max-states/);
    assert.equal(refused.stdout, '');
  }
});
