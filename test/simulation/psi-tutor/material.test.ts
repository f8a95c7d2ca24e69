import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SIMULATED_MATERIAL } from '../../../lib/simulation/psi-tutor/material';
import { course } from './helpers';

test('material: one entry per scenario, with code and its output', () => {
  assert.deepEqual(Object.keys(SIMULATED_MATERIAL).sort(), course.scenarios.map((s) => s.id));
  for (const [id, m] of Object.entries(SIMULATED_MATERIAL)) {
    assert.ok(m.code.trim() && m.output.trim(), id);
    assert.match(m.analogy, /^Think of /, `${id} analogy is phrased as an analogy`);
  }
});
