import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../lib/errors';
import { parseRatings } from '../../../lib/psi/ratings';
import { illustrativeRatings, illustrativeYesProbability } from '../../../lib/simulation/psi-tutor/illustrative-ratings';
import { regenerationPair as pair } from '../../psi/helpers';

test('illustrative ratings: the documented probabilities, seeded, stable per case, and a valid file', () => {
  assert.ok(Math.abs(illustrativeYesProbability(pair('x', 0.5, 0.54), 'weaknesses_resolved', 0) - 1 / (1 + Math.exp(-2))) < 1e-12);
  // ΔSD 0.15 − 0.05 = 0.1, /0.05 = 2, leniency −0.05 → (0.05)/0.05 = 1.
  assert.ok(Math.abs(illustrativeYesProbability(pair('x', 0.5, 0.5, 0.1, 0.25), 'meaningful_improvement', -0.05) - 1 / (1 + Math.exp(-1))) < 1e-12);
  const pairs = Array.from({ length: 30 }, (_, i) => pair(`c${String(i).padStart(2, '0')}`, 0.5, 0.5 + (i - 10) / 200, 0.1, 0.1 + i / 100));
  const one = illustrativeRatings(pairs, { seed: 's1' });
  assert.deepEqual(illustrativeRatings([...pairs].reverse(), { seed: 's1' }), one);
  assert.notDeepEqual(illustrativeRatings(pairs, { seed: 's2' }).ratings, one.ratings);
  assert.equal(one.simulated, true);
  assert.match(one.description!, /^ILLUSTRATIVE/);
  assert.equal(one.ratings.length, 90);
  assert.deepEqual(parseRatings(JSON.stringify(one), 'gen.json'), one);
  // Adding a case leaves the other verdicts unchanged.
  const more = illustrativeRatings([...pairs, pair('zz', 0.3, 0.6)], { seed: 's1' });
  for (const r of one.ratings) assert.deepEqual(more.ratings.find((m) => m.rater === r.rater && m.run_id === r.run_id), r);
  // Large gains are judged resolved, large losses not (P > 0.9999 / < 0.0001 here).
  const sure = illustrativeRatings([pair('up', 0.3, 0.6), pair('down', 0.6, 0.3)], { seed: 's1' });
  assert.deepEqual(sure.ratings.map((r) => r.weaknesses_resolved), [false, true, false, true, false, true]);
  assert.throws(() => illustrativeRatings(pairs, { seed: '' }), InputError);
  assert.throws(() => illustrativeRatings(pairs, { seed: 's', raters: [{ id: 'A', leniency: 0 }, { id: 'A', leniency: 1 }] }), InputError);
});
