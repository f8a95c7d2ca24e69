import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agreementWithPsi } from '../../lib/psi';

test('agreementWithPsi: 2×2 counts, rates and kappa of human vs PSI-judged improvement', () => {
  // human yes/psi yes, human yes/psi no, human no/psi no, human no/psi yes → p_o 0.5, p_e 0.5, κ 0
  const r = agreementWithPsi([
    { human: true, psiBefore: 0.5, psiAfter: 0.6 },
    { human: true, psiBefore: 0.5, psiAfter: 0.5 },
    { human: false, psiBefore: 0.5, psiAfter: 0.4 },
    { human: false, psiBefore: 0.5, psiAfter: 0.7 },
  ]);
  assert.deepEqual([r.bothYes, r.humanOnly, r.psiOnly, r.bothNo], [1, 1, 1, 1]);
  assert.equal(r.observedAgreement, 0.5);
  assert.equal(r.kappa, 0);
});
