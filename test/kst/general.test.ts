import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDomain, countStates, innerFringe, outerFringe, outerFringeNotions, sampleStates, checkSpace, reduceNotions } from '../../lib/kst';
import { basisBits, knowledgeBasis, surmiseFunction } from '../../lib/kst/general';
import { tiny } from './random-poset';
import { taskComponents as components } from './random-poset';

const ids4 = ['a', 'b', 'c', 'd'];

test('a space that is not well-graded is reported with a state that has no removable task', () => {
  // Basis {a,b}, {b,c} on a discriminative 3-item set: states ∅, ab, bc, abc. {a,b} minus a = {b} ✗,
  // minus b = {a} ✗: no inner fringe, so not a learning space (it is still a knowledge space).
  const d = buildDomain({ id: 'x', title: 'x', source: 't', components: components(['a', 'b', 'c']), basis: [['a', 'b'], ['b', 'c']] });
  assert.equal(countStates(d), 4);
  const check = checkSpace(d);
  assert.equal(check.knowledgeSpace, true);
  assert.equal(check.learningSpace, false);
  assert.deepEqual(check.notWellGradedAt, ['a', 'b']);
  assert.deepEqual(innerFringe(d, ['a', 'b']), []);
  // Sampling uses uniform draws from the enumeration (the up-down chain could not leave ∅).
  const sample = sampleStates(d, { size: 400, seed: 's' });
  assert.equal(sample.scheme, 'uniform-from-enumeration');
  assert.deepEqual(sample.states, [[], ['a', 'b'], ['b', 'c'], ['a', 'b', 'c']]);
  assert.equal(sample.counts.reduce((a, b) => a + b, 0), 400);
});

test('equivalent items are reported as notions, fringes are taken on notions, --reduce-notions collapses them', () => {
  // b and c always appear together: basis {a}, {a,b,c}, {d}. Notions {b,c}. States: ∅, a, d, ad, abc, abcd → 6.
  const d = buildDomain({ id: 'n', title: 'n', source: 't', components: components(ids4), basis: [['a'], ['d'], ['a', 'b', 'c']] });
  assert.deepEqual(d.notions, [['b', 'c']]);
  assert.equal(d.quasiOrdinal, false);
  assert.equal(countStates(d), 6);
  // From {a}: the next step is the whole notion {b, c} (a step of two items), or d.
  assert.deepEqual(outerFringe(d, ['a']), ['b', 'c', 'd']);
  assert.deepEqual(outerFringeNotions(d, ['a']), [['b', 'c'], ['d']]);
  assert.deepEqual(innerFringe(d, ['a', 'b', 'c']), ['b', 'c']);
  const reduced = reduceNotions(d);
  assert.deepEqual(reduced.ids, ['a', 'b', 'd']);
  assert.equal(reduced.quasiOrdinal, true);
  assert.deepEqual(reduced.prerequisites, [['a', 'b']]);
  assert.equal(countStates(reduced), 6);
  assert.match(reduced.components[1]!.description, /task b/);
  assert.match(reduced.components[1]!.description, /task c/);
  // The note is a sentence of its own after a description without a full stop, not "B Merged …".
  const terse = buildDomain({ id: 'n', title: 'n', source: 't', components: ids4.map((id) => ({ id, description: id.toUpperCase() })), basis: [['a'], ['d'], ['a', 'b', 'c']] });
  assert.equal(reduceNotions(terse).components[1]!.description, 'B. Merged notion, with c: C');
});

test('a prerequisite domain: derived basis {q} ∪ pre*(q), one clause per task, quasi-ordinal check', () => {
  // a → b → c and a → d: atoms a {a}, b {a,b}, c {a,b,c}, d {a,d}; sorted by size then lexicographically
  const d = tiny(['a', 'b', 'c', 'd'], [['a', 'b'], ['b', 'c'], ['a', 'd']]);
  assert.deepEqual(knowledgeBasis(d), [['a'], ['a', 'b'], ['a', 'd'], ['a', 'b', 'c']]);
  assert.equal(basisBits(d).length, 4);
  assert.deepEqual(surmiseFunction(d), { a: [[]], b: [['a']], c: [['a', 'b']], d: [['a']] });
  assert.deepEqual(checkSpace(d), { knowledgeSpace: true, quasiOrdinal: true, notions: [], learningSpace: true });
  // no notions: the fringe notions are singletons; reduceNotions returns the domain itself
  assert.deepEqual(outerFringeNotions(d, ['a']), [['b'], ['d']]);
  assert.equal(reduceNotions(d), d);
});

test('checkSpace reports an unchecked learning space when the space exceeds maxStates', () => {
  // {a,b}, {b,c} has 4 states; a limit of 3 skips the walk and says why
  const d = buildDomain({ id: 'x', title: 'x', source: 't', components: components(['a', 'b', 'c']), basis: [['a', 'b'], ['b', 'c']] });
  const check = checkSpace(d, { maxStates: 3 });
  assert.equal(check.learningSpace, undefined);
  // Counted under the limit, not walked to the end first (a 2^40-state space took hours to be refused).
  assert.equal(check.learningSpaceNote, "more than 3 states exceed the check's limit of 3");
});
