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

test('agreementWithPsi: a case with κ between 0 and 1, and "no change" counted as not improved', () => {
  // 3 both yes, 1 human only (PSI unchanged), 1 both no: p_o = 4/5; human rate 4/5, PSI rate 3/5;
  // p_e = 0.8 · 0.6 + 0.2 · 0.4 = 0.56; κ = (0.8 − 0.56)/(1 − 0.56) = 0.24/0.44 = 6/11.
  const r = agreementWithPsi([
    { human: true, psiBefore: 0.4, psiAfter: 0.5 },
    { human: true, psiBefore: 0.4, psiAfter: 0.45 },
    { human: true, psiBefore: 0.3, psiAfter: 0.7 },
    { human: true, psiBefore: 0.5, psiAfter: 0.5 },
    { human: false, psiBefore: 0.6, psiAfter: 0.2 },
  ]);
  assert.deepEqual([r.n, r.bothYes, r.humanOnly, r.psiOnly, r.bothNo], [5, 3, 1, 0, 1]);
  assert.equal(r.humanRate, 0.8);
  assert.equal(r.psiRate, 0.6);
  assert.equal(r.observedAgreement, 0.8);
  assert.ok(Math.abs(r.kappa - 6 / 11) < 1e-12, `κ ${r.kappa}`);
});
