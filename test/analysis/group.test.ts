import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupBy } from '../../lib/analysis/group';

test('groupBy keeps first-seen key order and item order within a group', () => {
  const g = groupBy(['b1', 'a1', 'b2', 'c1', 'a2'], (s) => s[0]!);
  assert.deepEqual([...g.keys()], ['b', 'a', 'c']);
  assert.deepEqual([...g.entries()], [['b', ['b1', 'b2']], ['a', ['a1', 'a2']], ['c', ['c1']]]);
  assert.equal(groupBy([], () => 'x').size, 0);
});
