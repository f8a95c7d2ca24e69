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

test('resolvePsiParameters: overrides merged into the defaults; each bad field named', () => {
  const p = resolvePsiParameters({ deltaOpt: 0.5, efMode: 'response' });
  assert.equal(p.deltaOpt, 0.5);
  assert.equal(p.efMode, 'response');
  assert.equal(p.alphaNeeded, 4);
  assert.deepEqual(p.weights, { ...EQUAL_WEIGHTS });
  const refuses = (o: Record<string, unknown>, message: string) =>
    assert.throws(() => resolvePsiParameters(o as never), (e: unknown) => e instanceof InputError && e.message === message);
  refuses({ overlap: 'cosine' }, `PSI parameter "overlap" must be 'known-share' or 'jaccard'`);
  refuses({ tvRelation: 'all' }, `PSI parameter "tvRelation" must be 'transitive' or 'direct'`);
  refuses({ codeBlockPropositions: 'two' }, `PSI parameter "codeBlockPropositions" must be 'one' or 'lines'`);
  refuses({ efMode: 'course' }, `PSI parameter "efMode" must be 'scenario' or 'response'`);
  refuses({ alphaBase: -0.1 }, 'PSI parameter "alphaBase" must be in [0, 1], got -0.1');
  refuses({ alphaNeeded: 0 }, 'PSI parameter "alphaNeeded" must be a positive number');
  refuses({ codeBonus: -1 }, 'PSI parameter "codeBonus" must be a non-negative number');
  refuses({ bloomDefaultLevel: 2.5 }, 'PSI parameter "bloomDefaultLevel" must be an integer 1..6');
  refuses({ bloomLevelWeights: [1, 1, 1, 1, 1] }, 'PSI parameter "bloomLevelWeights" must be six non-negative numbers');
  // five weights of 1/6 sum to 5/6 (0.8333…, summed in doubles)
  assert.throws(() => resolvePsiParameters({ weights: { ...EQUAL_WEIGHTS, kd: 0 } }), /^InputError: PSI parameter "weights": weights must sum to 1, got 0\.83333333333333\d*$/);
  assert.throws(() => validateWeights({ ...EQUAL_WEIGHTS, xx: 0 } as never), /unknown weight name\(s\) xx/);
  // all sub-scores 0.6 with equal weights → 0.6
  close(composite({ kd: 0.6, tv: 0.6, sd: 0.6, ef: 0.6, cl: 0.6, ra: 0.6 }), 0.6, 1e-15);
});
