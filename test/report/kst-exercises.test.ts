import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDomain, loadDomain } from '../../lib/kst';
import { checkClausesAnswer, checkFringeAnswer, checkPairBreaksState, checkStateAnswer, exerciseFeedback } from '../../lib/report/kst-exercises';

// The exercises of notebook 01, with the inputs its check cells use.
const slope = loadDomain('data/raw/domains/slope.json');
const comp = (id: string) => ({ id, description: id });
const twoRoutes = buildDomain({ id: 'two-routes', title: 'Two routes', source: 's', components: ['a', 'b', 'c', 'd'].map(comp), surmise: { c: [['a'], ['b']], d: [['a', 'c'], ['b', 'c']] } });

test('exercise 1 (a state of three components): right for {SL1, SL2, SL3}, wrong for a set missing a prerequisite or of the wrong size', () => {
  assert.equal(checkStateAnswer(slope, ['SL3', 'SL2', 'SL1'], { size: 3 }).right, true);
  const missing = checkStateAnswer(slope, ['SL1', 'SL3', 'SL5'], { size: 3 });
  assert.equal(missing.right, false);
  assert.match(missing.why, /^\{SL1,SL3,SL5\} is not a knowledge state of slope: SL3 is in the state but its prerequisite SL2 is not$/);
  assert.match(missing.hint!, /prerequisite/);
  const size = checkStateAnswer(slope, ['SL1', 'SL2'], { size: 3 });
  assert.equal(size.right, false);
  assert.match(size.why, /has 2 components, not 3/);
  assert.match(size.hint!, /outer fringe/);
});

test('exercise 2 (outer fringe of {SL1, SL2}): right in any order, wrong names what is missing and why an extra one cannot come next', () => {
  assert.equal(checkFringeAnswer(slope, ['SL1', 'SL2'], ['SL4', 'SL3'], 'outer').right, true);
  const wrong = checkFringeAnswer(slope, ['SL1', 'SL2'], ['SL3', 'SL5'], 'outer');
  assert.equal(wrong.right, false);
  assert.equal(wrong.why, 'SL5 cannot be learned next: SL5 is in the state but its prerequisites SL3, SL4 are not; the outer fringe of {SL1,SL2} also has SL4');
  assert.match(wrong.hint!, /every one of its prerequisites/);
  assert.match(checkFringeAnswer(slope, ['SL1', 'SL2'], ['SL2', 'SL3', 'SL4'], 'outer').why, /SL2 is already mastered/);
});

test('exercise 3 (inner fringe of {SL1, SL2, SL4}): right for {SL2, SL4}, wrong for one that something builds on', () => {
  assert.equal(checkFringeAnswer(slope, ['SL1', 'SL2', 'SL4'], ['SL2', 'SL4'], 'inner').right, true);
  const wrong = checkFringeAnswer(slope, ['SL1', 'SL2', 'SL4'], ['SL1', 'SL2', 'SL4'], 'inner');
  assert.equal(wrong.right, false);
  assert.match(wrong.why, /^removing SL1 does not leave a state/);
});

test('exercise 4 (a pair that breaks {SL1, SL2}): right for [SL4, SL2], wrong for a pair that leaves it a state, a cycle, an unknown ID', () => {
  const right = checkPairBreaksState(slope, ['SL1', 'SL2'], ['SL4', 'SL2']);
  assert.equal(right.right, true);
  assert.match(right.why, /SL2 is in the state but its prerequisite SL4 is not/);
  const still = checkPairBreaksState(slope, ['SL1', 'SL2'], ['SL2', 'SL4']);
  assert.equal(still.right, false);
  assert.match(still.why, /is still a state/);
  const cycle = checkPairBreaksState(slope, ['SL1', 'SL2'], ['SL2', 'SL1']);
  assert.equal(cycle.right, false);
  assert.match(cycle.why, /cycle SL1 -> SL2 -> SL1/);
  assert.match(checkPairBreaksState(slope, ['SL1', 'SL2'], ['SL9', 'SL2']).why, /SL9 is not a component of slope/);
});

test('exercise 5 (a state of two routes with d but not a): right for {b, c, d}, wrong for {c, d} and for one with a', () => {
  const want = { contains: ['d'], excludes: ['a'] };
  assert.equal(checkStateAnswer(twoRoutes, ['b', 'c', 'd'], want).right, true);
  const noRoute = checkStateAnswer(twoRoutes, ['c', 'd'], want);
  assert.equal(noRoute.right, false);
  assert.match(noRoute.why, /no route to it is: it also needs a; or b/);
  assert.match(checkStateAnswer(twoRoutes, ['a', 'c', 'd'], want).why, /contains a$/);
});

test('exercise 6 (the clauses of d): right for both routes in full, wrong for the intuitive [["c"]] with the reason and the fix', () => {
  assert.equal(checkClausesAnswer(twoRoutes, 'd', [['c', 'b'], ['a', 'c']]).right, true);
  const intuitive = checkClausesAnswer(twoRoutes, 'd', [['c']]);
  assert.equal(intuitive.right, false);
  assert.match(intuitive.why, /surmise\.d\[0\] is not closed: it contains c, .*e\.g\. \["a","c"\] or \["b","c"\]/);
  assert.match(intuitive.hint!, /whole route/);
  const other = checkClausesAnswer(twoRoutes, 'd', [['a', 'c']]);
  assert.equal(other.right, false);
  assert.match(other.why, /valid structure, but not this one/);
});

test('every check answers null, a wrong type or an unknown ID in one sentence, never an exception', () => {
  for (const answer of [null, 7, 'SL1', [1, 2], { a: 1 }]) {
    for (const check of [
      checkStateAnswer(slope, answer),
      checkFringeAnswer(slope, ['SL1'], answer, 'outer'),
      checkPairBreaksState(slope, ['SL1'], answer),
      checkClausesAnswer(twoRoutes, 'd', answer),
    ]) {
      assert.equal(check.right, false);
      assert.ok(!check.why.includes('\n') && check.why.length > 0);
    }
  }
  assert.equal(checkStateAnswer(slope, null).why, 'no answer yet');
  assert.match(checkStateAnswer(slope, ['SL1', 'XX']).why, /unknown component ID\(s\) XX/);
  assert.match(checkFringeAnswer(slope, ['SL3'], ['SL4'], 'outer').why, /is not a state/);
});

test('exerciseFeedback prints ✔ or ✘ with the hint on its own line', () => {
  assert.equal(exerciseFeedback({ right: true, why: 'ok' }), '✔ right: ok');
  assert.equal(exerciseFeedback({ right: false, why: 'no', hint: 'look' }), '✘ not yet: no\n  hint: look');
});
