/**
 * Reconstructed P1 graphs, worked by hand on the "diamond" domain {A, B, C, D} with direct
 * prerequisites A→B, A→C, B→D, C→D.
 *   cover relation   AB AC BD CD            (4 pairs)
 *   surmise relation AB AC AD BD CD         (5 pairs: AD follows through B or C)
 *   states and outer fringes: ∅→{A}, A→{B,C}, AB→{C}, AC→{B}, ABC→{D}, ABCD→∅.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { parseDomain } from '../../lib/kst';
import { validateResponses } from '../../lib/analysis';
import {
  analyzeGraph,
  edgeScores,
  graphSummaryBy,
  hasCycle,
  impliedFringe,
  p1GraphRecords,
  transitiveClosure,
  type Pair,
} from '../../lib/analysis/graphs';

const diamond = parseDomain(
  JSON.stringify({
    id: 'diamond',
    title: 'Diamond',
    source: 'test',
    components: ['A', 'B', 'C', 'D'].map((id) => ({ id, description: `Task ${id}` })),
    prerequisites: [
      ['A', 'B'],
      ['A', 'C'],
      ['B', 'D'],
      ['C', 'D'],
    ],
  }),
  'diamond.json',
);
const ids = diamond.ids;

test('edge scores count ordered pairs, once each, ignoring self-pairs', () => {
  const cover: Pair[] = [['A', 'B'], ['A', 'C'], ['B', 'D'], ['C', 'D']];
  assert.deepEqual(edgeScores([['A', 'B'], ['A', 'D'], ['A', 'B'], ['C', 'C']], cover), {
    returned: 2,
    reference: 4,
    common: 1,
    precision: 1 / 2,
    recall: 1 / 4,
    exact: 0,
  });
  // A reversed edge is not the same pair.
  assert.equal(edgeScores([['B', 'A']], [['A', 'B']]).common, 0);
  // Empty-set conventions of §3.3.
  assert.deepEqual(edgeScores([], []), { returned: 0, reference: 0, common: 0, precision: 1, recall: 1, exact: 1 });
  assert.deepEqual(edgeScores([], cover), { returned: 0, reference: 4, common: 0, precision: 0, recall: 0, exact: 0 });
  assert.deepEqual(edgeScores([['A', 'B']], []), { returned: 1, reference: 0, common: 0, precision: 0, recall: 1, exact: 0 });
});

test('transitive closure of an acyclic graph is the surmise relation it implies', () => {
  assert.deepEqual(transitiveClosure(ids, [['C', 'D'], ['A', 'B'], ['B', 'D'], ['A', 'C']]), [
    ['A', 'B'],
    ['A', 'C'],
    ['A', 'D'],
    ['B', 'D'],
    ['C', 'D'],
  ]);
  assert.deepEqual(transitiveClosure(ids, []), []);
  assert.equal(hasCycle(ids, [['A', 'B'], ['B', 'D']]), false);
});

test('transitive closure of a cyclic graph: members of a cycle reach each other, never themselves', () => {
  const cycle: Pair[] = [['A', 'B'], ['B', 'C'], ['C', 'A']];
  assert.deepEqual(transitiveClosure(ids, cycle), [
    ['A', 'B'],
    ['A', 'C'],
    ['B', 'A'],
    ['B', 'C'],
    ['C', 'A'],
    ['C', 'B'],
  ]);
  assert.equal(hasCycle(ids, cycle), true);
  assert.throws(() => transitiveClosure(ids, [['A', 'Z']]), InputError);
});

test('implied fringe: all prerequisites under the closure mastered; cycles block their members', () => {
  const chain: Pair[] = [['A', 'B'], ['B', 'D']];
  // C has no prerequisite in this graph, D needs A and B (through B).
  assert.deepEqual(impliedFringe(ids, chain, []), ['A', 'C']);
  assert.deepEqual(impliedFringe(ids, chain, ['A']), ['B', 'C']);
  assert.deepEqual(impliedFringe(ids, chain, ['A', 'B']), ['C', 'D']);
  assert.deepEqual(impliedFringe(ids, chain, ['A', 'B', 'C', 'D']), []);
  // B and C require each other: neither is open until the other is mastered; D is free.
  const cyclic: Pair[] = [['A', 'B'], ['B', 'C'], ['C', 'B']];
  assert.deepEqual(impliedFringe(ids, cyclic, []), ['A', 'D']);
  assert.deepEqual(impliedFringe(ids, cyclic, ['A']), ['D']);
  // A stated mastered set is taken as given: with C mastered, B's prerequisites A and C are both in K.
  assert.deepEqual(impliedFringe(ids, cyclic, ['A', 'C']), ['B', 'D']);
  // The reference graph implies the reference fringes.
  const reference: Pair[] = [['A', 'B'], ['A', 'C'], ['B', 'D'], ['C', 'D']];
  assert.deepEqual(impliedFringe(ids, reference, ['A', 'B', 'C']), ['D']);
  assert.deepEqual(impliedFringe(ids, reference, ['A', 'C']), ['B']);
});

const base = { runId: 'r', model: 'm', order: 1 };

test('verdicts: correct, wrong structure applied consistently, inconsistent application', () => {
  const graph: Pair[] = [['A', 'B'], ['B', 'D'], ['B', 'B']]; // misses A→C and C→D; one self-pair
  // State ∅: reference {A}; this graph implies {A, C}.
  const consistentWrong = analyzeGraph(diamond, { ...base, state: [], recommended: ['A', 'C'], reference: ['A'], pairs: graph });
  assert.equal(consistentWrong.verdict, 'wrong-structure');
  assert.deepEqual(consistentWrong.implied, ['A', 'C']);
  assert.equal(consistentWrong.consistent, true);
  assert.equal(consistentWrong.impliedCorrect, false);
  assert.equal(consistentWrong.selfPairs, 1);
  assert.deepEqual(consistentWrong.pairs, [['A', 'B'], ['B', 'D']]);
  // direct: 2 returned, both in the cover (4) → precision 1, recall 1/2.
  assert.equal(consistentWrong.direct.precision, 1);
  assert.equal(consistentWrong.direct.recall, 1 / 2);
  // closure {AB, AD, BD} vs surmise {AB, AC, AD, BD, CD}: precision 1, recall 3/5.
  assert.deepEqual([consistentWrong.closure.common, consistentWrong.closure.precision, consistentWrong.closure.recall], [3, 1, 3 / 5]);

  const inconsistent = analyzeGraph(diamond, { ...base, state: [], recommended: ['C'], reference: ['A'], pairs: graph });
  assert.equal(inconsistent.verdict, 'inconsistent');
  assert.equal(inconsistent.consistent, false);

  // Correct although the graph would have said {A, C}: correct, but not consistent with its own graph.
  const luckyCorrect = analyzeGraph(diamond, { ...base, state: [], recommended: ['A'], reference: ['A'], pairs: graph });
  assert.equal(luckyCorrect.verdict, 'correct');
  assert.equal(luckyCorrect.consistent, false);

  // State {A}: reference {B, C}; the wrong graph implies {B, C} as well — a structural error without
  // consequence for this state.
  const harmless = analyzeGraph(diamond, { ...base, state: ['A'], recommended: ['B', 'C'], reference: ['B', 'C'], pairs: graph });
  assert.deepEqual([harmless.verdict, harmless.consistent, harmless.impliedCorrect], ['correct', true, true]);
});

test('a redundant shortcut lowers direct precision but leaves the closure exact', () => {
  const row = analyzeGraph(diamond, {
    ...base,
    state: ['A', 'B', 'C'],
    recommended: ['D'],
    reference: ['D'],
    pairs: [['A', 'B'], ['A', 'C'], ['B', 'D'], ['C', 'D'], ['A', 'D']],
  });
  assert.deepEqual([row.direct.precision, row.direct.recall, row.direct.exact], [4 / 5, 1, 0]);
  assert.deepEqual([row.closure.precision, row.closure.recall, row.closure.exact], [1, 1, 1]);
  assert.equal(row.cyclic, false);
});

function line(n: number, fields: Record<string, unknown>) {
  return {
    line: n,
    value: { run_id: `r${n}`, model: 'm1', domain: 'diamond', condition: 'P1', order: 1, state: [], status: 'valid', ...fields },
  };
}

test('P1 records: valid P1 lines analysed, invalid and missing counted, other conditions skipped', () => {
  const lines = [
    line(1, { recommended: ['A'], prerequisites: [['A', 'B'], ['A', 'C'], ['B', 'D'], ['C', 'D']] }),
    line(2, { order: 2, recommended: ['A', 'C'], prerequisites: [['A', 'B'], ['B', 'D']] }),
    line(3, { state: ['A'], recommended: ['D'], prerequisites: [['D', 'A'], ['A', 'D']] }),
    line(4, { state: ['A'], order: 2, status: 'invalid', recommended: null, prerequisites: null }),
    line(5, { state: ['A', 'B'], status: 'missing' }),
    line(6, { condition: 'P0', recommended: ['A'] }),
    line(7, { model: 'm2', recommended: [], prerequisites: [] }),
  ];
  const records = validateResponses(lines, [diamond], 'f.jsonl');
  const { rows, invalid, missing } = p1GraphRecords(records, lines, [diamond], 'f.jsonl');
  assert.equal(invalid, 1);
  assert.equal(missing, 1);
  assert.deepEqual(
    rows.map((r) => [r.runId, r.verdict]),
    [
      ['r1', 'correct'],
      ['r2', 'wrong-structure'],
      // state {A}, reference {B, C}; cyclic graph A⇄D: B and C have no prerequisites in it, D needs only
      // A (mastered) → implied {B, C, D}; recommended {D} is neither → inconsistent.
      ['r3', 'inconsistent'],
      // empty graph implies every unmastered component {A,B,C,D}; recommended ∅ → inconsistent.
      ['r7', 'inconsistent'],
    ],
  );
  assert.deepEqual(rows[2]!.implied, ['B', 'C', 'D']);
  assert.equal(rows[2]!.cyclic, true);

  const byModel = graphSummaryBy(rows, 'model');
  assert.deepEqual(
    byModel.map((s) => [s.group, s.responses, s.correct, s['wrong-structure'], s.inconsistent, s.consistent, s.implied_correct, s.direct_exact, s.closure_exact, s.cyclic]),
    [
      ['m1', 3, 1, 1, 1, 2, 1, 1, 1, 1],
      ['m2', 1, 0, 0, 1, 0, 0, 0, 0, 0],
    ],
  );
  // m1 direct precision: r1 4/4, r2 2/2, r3 0/2 → mean 2/3; recall 1, 1/2, 0 → 1/2.
  assert.equal(byModel[0]!.direct_precision, 2 / 3);
  assert.equal(byModel[0]!.direct_recall, 1 / 2);
  // closure of r3 = {AD, DA}: AD is in the surmise relation → precision 1/2, recall 1/5.
  // m1 closure precision (1 + 1 + 1/2)/3, recall (1 + 3/5 + 1/5)/3.
  assert.ok(Math.abs(byModel[0]!.closure_precision - 2.5 / 3) < 1e-15);
  assert.ok(Math.abs(byModel[0]!.closure_recall - 1.8 / 3) < 1e-15);
  // m2: empty graph against a non-empty reference → 0 on both.
  assert.deepEqual([byModel[1]!.direct_precision, byModel[1]!.closure_recall], [0, 0]);
  assert.deepEqual(graphSummaryBy(rows, null).map((s) => [s.group, s.responses]), [['all', 4]]);
});

test('P1 records: a valid P1 line without pairs, or with an unknown component, is an InputError naming the line', () => {
  const missingPairs = [line(1, { recommended: ['A'] })];
  assert.throws(
    () => p1GraphRecords(validateResponses(missingPairs, [diamond], 'f.jsonl'), missingPairs, [diamond], 'f.jsonl'),
    (e: unknown) => e instanceof InputError && /f\.jsonl:1: prerequisites/.test(e.message),
  );
  const unknown = [line(1, { recommended: ['A'], prerequisites: [] }), line(2, { order: 2, recommended: ['A'], prerequisites: [['A', 'Q']] })];
  assert.throws(
    () => p1GraphRecords(validateResponses(unknown, [diamond], 'f.jsonl'), unknown, [diamond], 'f.jsonl'),
    (e: unknown) => e instanceof InputError && /f\.jsonl:2: .*unknown component "Q"/.test(e.message),
  );
  const malformed = [line(1, { recommended: ['A'], prerequisites: [['A']] })];
  assert.throws(() => p1GraphRecords(validateResponses(malformed, [diamond], 'f.jsonl'), malformed, [diamond], 'f.jsonl'), InputError);
});
