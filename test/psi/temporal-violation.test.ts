import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreTemporalViolation } from '../../lib/psi';
import { close } from './helpers';

test('S_TV: first-mention order against prerequisite pairs', () => {
  const closure = [['a', 'b'], ['a', 'c'], ['b', 'c']] as const;
  // first mentions c@0, a@10, b@20: (a,b) ok, (a,c) violated, (b,c) violated → 1 − 2/3
  const r = scoreTemporalViolation([{ id: 'c', first: 0 }, { id: 'a', first: 10 }, { id: 'b', first: 20 }], closure);
  close(r.score, 1 / 3);
  assert.equal(r.evidence.checks, 3);
  assert.deepEqual(r.evidence.violations, [['a', 'c'], ['b', 'c']]);
  // only a and b mentioned, in order: 1 check, 0 violations → 1; nothing comparable → 1
  close(scoreTemporalViolation([{ id: 'a', first: 5 }, { id: 'b', first: 9 }], closure).score, 1);
  const none = scoreTemporalViolation([{ id: 'a', first: 0 }], closure);
  assert.equal(none.score, 1);
  assert.equal(none.evidence.checks, 0);
});
