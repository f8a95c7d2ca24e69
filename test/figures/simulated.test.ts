import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markSimulated } from '../../lib/figures/simulated';

test('markSimulated appends the one mark, naming what is simulated (default "data"), and nothing otherwise', () => {
  assert.equal(markSimulated('Table 3', true), 'Table 3 — SIMULATED data');
  assert.equal(markSimulated('Figure 1', true, 'responses'), 'Figure 1 — SIMULATED responses');
  assert.equal(markSimulated('Figure 1', false, 'responses'), 'Figure 1');
  assert.equal(markSimulated('', false), '');
});
