import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setAgreement } from '../../lib/metrics';

test('setAgreement compares two predictions symmetrically', () => {
  assert.deepEqual(setAgreement([], []), { exact: 1, jaccard: 1 });
  assert.deepEqual(setAgreement(['a', 'b'], ['b']), { exact: 0, jaccard: 0.5 });
  assert.deepEqual(setAgreement(['b'], ['a', 'b']), { exact: 0, jaccard: 0.5 });
  assert.deepEqual(setAgreement(['a', 'b', 'b'], ['b', 'a']), { exact: 1, jaccard: 1 });
  assert.deepEqual(setAgreement([], ['a']), { exact: 0, jaccard: 0 });
  assert.deepEqual(setAgreement(['a', 'c'], ['b', 'c', 'd']), { exact: 0, jaccard: 0.25 });
});
