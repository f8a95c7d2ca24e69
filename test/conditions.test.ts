import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ADJACENT_CONTRASTS, CONDITION_LABELS, CONDITIONS, isCondition } from '../lib/conditions';

test('four conditions in canonical order, each labelled; three adjacent contrasts later − earlier', () => {
  assert.deepEqual([...CONDITIONS], ['P0', 'P1', 'P2', 'P3']);
  assert.deepEqual(Object.keys(CONDITION_LABELS), ['P0', 'P1', 'P2', 'P3']);
  assert.equal(CONDITION_LABELS.P3, 'Admissible states');
  assert.deepEqual(ADJACENT_CONTRASTS.map((c) => [c.name, c.later, c.earlier]), [
    ['P1-P0', 'P1', 'P0'],
    ['P2-P1', 'P2', 'P1'],
    ['P3-P2', 'P3', 'P2'],
  ]);
  // each contrast's name is its own two conditions, and consecutive in CONDITIONS
  for (const c of ADJACENT_CONTRASTS) {
    assert.equal(c.name, `${c.later}-${c.earlier}`);
    assert.equal(CONDITIONS.indexOf(c.later), CONDITIONS.indexOf(c.earlier) + 1);
  }
});

test('isCondition accepts exactly the four names', () => {
  for (const c of CONDITIONS) assert.equal(isCondition(c), true);
  for (const v of ['p0', 'P4', '', ' P0', 0, null, undefined, ['P0']]) assert.equal(isCondition(v), false, String(v));
});
