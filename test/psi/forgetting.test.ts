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

test('S_EF: the forgetting curve e^(−t/S) term by term, and renormalised weights', () => {
  // t = S → e^−1 = 0.36787944; t = 0 → 1; importance 0.2 and 0.3 renormalise to 0.4 and 0.6:
  // 0.4 · e^−1 + 0.6 · 1 = 0.14715178 + 0.6 = 0.74715178
  const memory = [
    { concept: 'lists', days_since_exposure: 7, strength_days: 7, importance: 0.2 },
    { concept: 'strings', days_since_exposure: 0, strength_days: 3, importance: 0.3 },
  ];
  const r = scoreForgetting(memory);
  close(r.score, 0.74715178, 1e-8);
  assert.deepEqual(r.evidence.terms.map((t) => t.concept), ['lists', 'strings']);
  close(r.evidence.terms[0]!.retention, 0.36787944, 1e-8);
  assert.equal(r.evidence.terms[1]!.retention, 1);
  close(r.evidence.terms[0]!.weight, 0.4, 1e-15);
  close(r.evidence.terms[1]!.weight, 0.6, 1e-15);
  // 14 days at strength 7: e^−2 = 0.13533528; zero total importance falls back to equal weights
  close(scoreForgetting([{ concept: 'lists', days_since_exposure: 14, strength_days: 7, importance: 0 }]).score, 0.13533528, 1e-8);
  close(
    scoreForgetting([
      { concept: 'a', days_since_exposure: 7, strength_days: 7, importance: 0 },
      { concept: 'b', days_since_exposure: 0, strength_days: 7, importance: 0 },
    ]).score,
    (0.36787944 + 1) / 2,
    1e-8,
  );
});
