import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { composite, EQUAL_WEIGHTS, resolvePsiParameters, validateWeights } from '../../lib/psi';
import { close } from './helpers';

test('composite and weight validation', () => {
  const s = { kd: 0.9, tv: 0.6, sd: 0.3, ef: 0.3, cl: 1, ra: 0.6 };
  close(composite(s), (0.9 + 0.6 + 0.3 + 0.3 + 1 + 0.6) / 6); // 3.7 / 6 = 0.616667
  // w = (0.5, 0.1, 0.1, 0.1, 0.1, 0.1): 0.45 + 0.06 + 0.03 + 0.03 + 0.1 + 0.06 = 0.73
  close(composite(s, { kd: 0.5, tv: 0.1, sd: 0.1, ef: 0.1, cl: 0.1, ra: 0.1 }), 0.73);
  assert.deepEqual(validateWeights(EQUAL_WEIGHTS), { ...EQUAL_WEIGHTS });
  assert.throws(() => validateWeights({ ...EQUAL_WEIGHTS, kd: 0.5 }), (e: unknown) => e instanceof InputError && /sum to 1/.test(e.message));
  assert.throws(() => validateWeights({ kd: -0.2, tv: 0.4, sd: 0.2, ef: 0.2, cl: 0.2, ra: 0.2 }), /"kd".*non-negative/);
  assert.throws(() => validateWeights({ kd: 0.5, tv: 0.5, sd: 0, ef: 0, cl: 0 }), /"ra"/);
  assert.throws(() => resolvePsiParameters({ deltaOpt: 1.5 }), /deltaOpt/);
  assert.throws(() => resolvePsiParameters({ bloomDefaultLevel: 7 }), /bloomDefaultLevel/);
});
