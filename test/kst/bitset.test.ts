import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bitIndices,
  bitsKey,
  clearBit,
  compareItemSets,
  countBits,
  emptyBits,
  equalBits,
  hasBit,
  intersects,
  isSubset,
  lowestBit32,
  orInto,
  popcount32,
  setBit,
  wordsFor,
} from '../../lib/kst/bitset';

test('wordsFor rounds up to whole 32-bit words', () => {
  assert.deepEqual([0, 1, 32, 33, 64, 65].map(wordsFor), [0, 1, 1, 2, 2, 3]);
});

test('set, has, clear across word boundaries', () => {
  const bits = emptyBits(70);
  for (const i of [0, 31, 32, 69]) setBit(bits, i);
  assert.deepEqual(bitIndices(bits), [0, 31, 32, 69]);
  assert.equal(bits[0], 0x80000001);
  assert.equal(bits[1], 1);
  assert.equal(bits[2], 1 << 5);
  assert.equal(hasBit(bits, 31), true);
  assert.equal(hasBit(bits, 30), false);
  clearBit(bits, 31);
  assert.deepEqual(bitIndices(bits), [0, 32, 69]);
  assert.equal(countBits(bits), 3);
});

test('popcount32 and lowestBit32 on hand-checked words', () => {
  assert.equal(popcount32(0), 0);
  assert.equal(popcount32(0xffffffff), 32);
  assert.equal(popcount32(0b1011), 3);
  assert.equal(popcount32(0x80000000), 1);
  assert.equal(lowestBit32(0b1000), 3);
  assert.equal(lowestBit32(0x80000000 | 0), 31);
});

test('subset, intersection, union, equality and keys', () => {
  const a = emptyBits(40);
  const b = emptyBits(40);
  setBit(a, 3);
  setBit(b, 3);
  setBit(b, 35);
  assert.equal(isSubset(a, b), true);
  assert.equal(isSubset(b, a), false);
  assert.equal(intersects(a, b), true);
  const c = emptyBits(40);
  setBit(c, 36);
  assert.equal(intersects(a, c), false);
  orInto(a, c);
  assert.deepEqual(bitIndices(a), [3, 36]);
  assert.equal(equalBits(a, b), false);
  assert.notEqual(bitsKey(a), bitsKey(b));
  assert.equal(bitsKey(b), `${(8).toString(36)}.${(8).toString(36)}`);
});

test('compareItemSets: by size, then the set holding the lowest differing item first (also across words)', () => {
  const bits = (n: number, ...items: number[]) => {
    const b = emptyBits(n);
    for (const i of items) setBit(b, i);
    return b;
  };
  assert.ok(compareItemSets(bits(3, 0, 2), bits(3, 1)) > 0); // size 2 after size 1
  assert.equal(compareItemSets(bits(3, 0, 2), bits(3, 1, 2)), -1); // differ first at item 0, held by {0,2}
  assert.equal(compareItemSets(bits(3, 1), bits(3, 0)), 1);
  assert.equal(compareItemSets(bits(3, 0, 1), bits(3, 0, 1)), 0);
  // 40 items: two words; sizes counted over both, the first differing item may be in the second word
  assert.ok(compareItemSets(bits(40, 35), bits(40, 1, 2)) < 0);
  assert.equal(compareItemSets(bits(40, 3, 33), bits(40, 3, 34)), -1);
  assert.equal(compareItemSets(bits(40, 31), bits(40, 32)), -1);
});
