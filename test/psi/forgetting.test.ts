import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreForgetting } from '../../lib/psi';
import { close } from './helpers';

test('S_EF: scenario mode, response mode with renormalised λ, fallback', () => {
  const memory = [
    { concept: 'variables', days_since_exposure: 2, strength_days: 4, importance: 0.5 },
    { concept: 'lists', days_since_exposure: 10, strength_days: 5, importance: 0.5 },
  ];
  // 0.5·e^−0.5 + 0.5·e^−2 = 0.5·0.6065307 + 0.5·0.1353353 = 0.3709330
  close(scoreForgetting(memory).score, 0.5 * Math.exp(-0.5) + 0.5 * Math.exp(-2));
  close(scoreForgetting(memory).score, 0.370933, 1e-6);
  // response mentions lists only: λ renormalised to 1 → e^−2 = 0.1353353
  close(scoreForgetting(memory, 'response', ['lists', 'for_loop']).score, 0.1353353, 1e-7);
  const fb = scoreForgetting(memory, 'response', []);
  close(fb.score, 0.370933, 1e-6);
  assert.equal(fb.evidence.fallback, true);
});
