import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReferenceIndex } from '../../lib/analysis/reference';
import { abcDomain } from './helpers';

const fail = (problem: string): never => {
  throw new Error(problem);
};

test('ReferenceIndex: lookup by ID, sorted IDs, canonical sets, memoised checks and fringes', () => {
  const abc = abcDomain();
  const other = abcDomain('aaa');
  const index = new ReferenceIndex([abc, other]);
  assert.equal(index.domain('abc'), abc);
  assert.equal(index.domain('nope'), undefined);
  assert.deepEqual(index.domainIds(), ['aaa', 'abc']);
  assert.deepEqual(index.canonicalSet(abc, ['C', 'A'], fail), ['A', 'C']);
  assert.throws(() => index.canonicalSet(abc, ['A', 'X'], fail), /^Error: unknown component "X" in domain abc$/);
  assert.throws(() => index.canonicalSet(abc, ['A', 'A'], fail), /component "A" listed twice/);
  // {B} lacks its prerequisite A; {A,C} is a state whose outer fringe is {B}
  const bad = index.checkState(abc, ['B']);
  assert.equal(bad.ok, false);
  assert.match((bad as { reason: string }).reason, /A/);
  assert.deepEqual(index.checkState(abc, ['A', 'C']), { ok: true });
  const fringe = index.outerFringe(abc, ['A', 'C']);
  assert.deepEqual(fringe, ['B']);
  assert.equal(index.outerFringe(abc, ['A', 'C']), fringe, 'the second call returns the memoised array');
  assert.deepEqual(index.outerFringe(abc, []), ['A', 'C']);
  assert.deepEqual(index.outerFringe(abc, ['A', 'B', 'C']), []);
  assert.equal(index.checkState(abc, ['B']), bad, 'check results are memoised too');
});
