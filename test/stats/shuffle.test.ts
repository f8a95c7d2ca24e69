import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shuffleInPlace } from '../../lib/stats/shuffle';

/** A generator that returns the given draws in order (and fails loudly when asked for more). */
const draws = (xs: number[]) => {
  let i = 0;
  return () => {
    assert.ok(i < xs.length, 'shuffle drew more numbers than it should');
    return xs[i++]!;
  };
};

test('Fisher–Yates traced by hand: i = 3, 2, 1 swaps item i with item ⌊draw·(i+1)⌋', () => {
  // [a b c d]; i=3, draw 0.1 → j = ⌊0.4⌋ = 0: swap d,a → [d b c a]
  //            i=2, draw 0.9 → j = ⌊2.7⌋ = 2: no move  → [d b c a]
  //            i=1, draw 0.6 → j = ⌊1.2⌋ = 1: no move  → [d b c a]
  assert.deepEqual(shuffleInPlace(['a', 'b', 'c', 'd'], draws([0.1, 0.9, 0.6])), ['d', 'b', 'c', 'a']);
  // i=3, 0.5 → j=2: [a b d c]; i=2, 0.0 → j=0: [d b a c]; i=1, 0.99 → j=1: [d b a c]
  assert.deepEqual(shuffleInPlace(['a', 'b', 'c', 'd'], draws([0.5, 0, 0.99])), ['d', 'b', 'a', 'c']);
});

test('shuffles in place, draws n − 1 numbers, and leaves 0 or 1 items alone', () => {
  const items = [1, 2, 3];
  assert.equal(shuffleInPlace(items, draws([0, 0])), items);
  assert.deepEqual(items, [2, 3, 1]); // i=2 j=0: [3 2 1]; i=1 j=0: [2 3 1]
  assert.deepEqual(shuffleInPlace([], draws([])), []);
  assert.deepEqual(shuffleInPlace(['x'], draws([])), ['x']);
});

test('every permutation of 3 items is reachable, each by exactly one pair of draw cells', () => {
  // j₂ ∈ {0,1,2} (i = 2) and j₁ ∈ {0,1} (i = 1): 3 · 2 = 6 draw cells for the 3! = 6 permutations.
  const seen = new Set<string>();
  for (const d2 of [0.1, 0.5, 0.9]) for (const d1 of [0.2, 0.7]) seen.add(shuffleInPlace(['a', 'b', 'c'], draws([d2, d1])).join(''));
  assert.deepEqual([...seen].sort(), ['abc', 'acb', 'bac', 'bca', 'cab', 'cba']);
});
