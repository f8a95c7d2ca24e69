import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { presentationOrders } from '../../lib/kst';
import { idsToPositions, positionsToIds } from '../../lib/prompting';
import { handPresentation, plottingDomain } from './fixture';

const domain = plottingDomain();
// 1 = FX-slope, 2 = FX-table, 3 = FX-intercept, 4 = FX-plot, 5 = FX-axes; canonical order is table, axes, plot, slope, intercept.
const presentation = handPresentation();

test('idsToPositions maps through the permutation and sorts ascending', () => {
  assert.deepEqual(idsToPositions(presentation, ['FX-axes', 'FX-table']), [2, 5]);
  assert.deepEqual(idsToPositions(presentation, []), []);
  assert.deepEqual(idsToPositions(presentation, ['FX-intercept', 'FX-slope', 'FX-plot']), [1, 3, 4]);
});

test('positionsToIds returns canonical IDs in canonical order', () => {
  assert.deepEqual(positionsToIds(presentation, [4, 3], domain), ['FX-plot', 'FX-intercept']);
  assert.deepEqual(positionsToIds(presentation, [3, 4], domain), ['FX-plot', 'FX-intercept']);
  assert.deepEqual(positionsToIds(presentation, [1, 2, 3, 4, 5], domain), domain.ids);
  assert.deepEqual(positionsToIds(presentation, [], domain), []);
});

test('round trip through the seeded presentations of lib/kst', () => {
  for (const p of presentationOrders(domain, 3)) {
    for (let k = 1; k <= 5; k++) {
      assert.deepEqual(idsToPositions(p, positionsToIds(p, [k], domain)), [k]);
      assert.equal(positionsToIds(p, [k], domain)[0], p.toId(k));
    }
    assert.deepEqual(positionsToIds(p, idsToPositions(p, domain.ids), domain), domain.ids);
  }
});

test('bad positions and IDs raise InputError', () => {
  assert.throws(() => positionsToIds(presentation, [0], domain), (e: unknown) => e instanceof InputError && /outside 1..5/.test(e.message));
  assert.throws(() => positionsToIds(presentation, [6], domain), InputError);
  assert.throws(() => positionsToIds(presentation, [1.5], domain), InputError);
  assert.throws(() => positionsToIds(presentation, [2, 2], domain), /twice/);
  assert.throws(() => idsToPositions(presentation, ['FX-nope']), /"FX-nope" is not part/);
  assert.throws(() => idsToPositions(presentation, ['FX-axes', 'FX-axes']), /twice/);
});
