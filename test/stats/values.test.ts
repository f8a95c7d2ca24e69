import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { assertCount, assertFiniteValues } from '../../lib/stats/values';

test('assertFiniteValues: passes finite lists; names the statistic and the first bad index', () => {
  assertFiniteValues([0, -1.5, 1e300], 'bootstrap');
  const refuses = (values: number[], message: string, item: string) =>
    assert.throws(() => assertFiniteValues(values, 'bootstrap'), (e: unknown) => e instanceof InputError && e.message === message && e.where.item === item);
  refuses([], 'bootstrap: no values', 'bootstrap');
  refuses([1, Number.NaN, Number.POSITIVE_INFINITY], 'bootstrap: value 1 is NaN, expected a finite number', 'bootstrap[1]');
  refuses([Number.NEGATIVE_INFINITY], 'bootstrap: value 0 is -Infinity, expected a finite number', 'bootstrap[0]');
});

test('assertCount: positive integers only, RangeError naming the count', () => {
  assertCount(1, 'flips');
  assertCount(100_000, 'flips');
  for (const bad of [0, -3, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => assertCount(bad, 'flips'), (e: unknown) => e instanceof RangeError && e.message === `flips must be a positive integer, got ${bad}`);
  }
});
