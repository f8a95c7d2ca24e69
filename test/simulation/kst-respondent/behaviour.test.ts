import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enumerateStates, outerFringe, presentationOrders } from '../../../lib/kst';
import { cellSeed, decide, pickInvalidKind } from '../../../lib/simulation/kst-respondent/behaviour';
import { byId, testProfile } from './helpers';

test('a slip changes exactly one component of the answer', () => {
  const sloppy = testProfile({ slip: { P0: 0, P1: 0, P2: 1, P3: 1 } });
  const domain = byId('slope');
  for (const presentation of presentationOrders(domain)) {
    for (const state of enumerateStates(domain)) {
      const truth = outerFringe(domain, state);
      const d = decide(sloppy, { domain, state, condition: 'P2', presentation });
      const got = d.recommendations.map((r) => r.id);
      const diff = [...got.filter((x) => !truth.includes(x)), ...truth.filter((x) => !got.includes(x))];
      assert.equal(diff.length, state.length === domain.ids.length ? 0 : 1, `[${state}]`);
      if (d.slip) assert.deepEqual(diff, [d.slip.id]);
    }
  }
});

test('cellSeed: profile, domain, state in canonical order (∅ when empty), condition and order', () => {
  const domain = byId('slope');
  const [first] = presentationOrders(domain);
  const profile = testProfile({});
  const shuffled = [...domain.ids.slice(0, 2)].reverse();
  assert.equal(cellSeed(profile, { domain, state: shuffled, condition: 'P2', presentation: first! }), `sim|sim-test|slope|${domain.ids.slice(0, 2).join(',')}|P2|o1`);
  assert.equal(cellSeed(profile, { domain, state: [], condition: 'P0', presentation: presentationOrders(domain)[1]! }), 'sim|sim-test|slope|∅|P0|o2');
});

test('decide: the same cell gives the same decision; the draws differ between cells', () => {
  const domain = byId('slope');
  const profile = testProfile({ slip: { P0: 0.5, P1: 0.5, P2: 0.5, P3: 0.5 } });
  const cells = presentationOrders(domain).flatMap((presentation) =>
    enumerateStates(domain).map((state) => ({ domain, state, condition: 'P2' as const, presentation })),
  );
  const once = cells.map((c) => decide(profile, c));
  assert.deepEqual(cells.map((c) => decide(profile, c)), once);
  // with a slip rate of one half, some cells slip and some do not
  const slips = once.filter((d) => d.slip !== null).length;
  assert.ok(slips > 0 && slips < cells.length, `${slips} of ${cells.length} cells slip`);
  // forcing an invalid kind changes only the invalid field
  const forced = decide(profile, cells[0]!, { forceInvalid: 'truncated' });
  assert.deepEqual({ ...forced, invalid: null }, once[0]);
  assert.equal(forced.invalid, 'truncated');
});

test('pickInvalidKind: weights over the possible kinds, in SIMULATED_INVALID_KINDS order (hand-worked)', () => {
  // weights malformed_json 1, extra_prose 3, duplicate_position 2: with one recommendation the
  // cumulative shares are 1/6, 4/6, 1 → u 0.1 malformed, 0.5 extra_prose, 0.9 duplicate_position.
  const p = testProfile({ invalidWeights: { malformed_json: 1, extra_prose: 3, duplicate_position: 2 } });
  assert.deepEqual([0.1, 0.5, 0.9].map((u) => pickInvalidKind(p, 1, u)), ['malformed_json', 'extra_prose', 'duplicate_position']);
  // without a recommendation a duplicate is impossible: shares 1/4, 1 → u 0.2 malformed, 0.3 and 0.9 extra_prose
  assert.deepEqual([0.2, 0.3, 0.9].map((u) => pickInvalidKind(p, 0, u)), ['malformed_json', 'extra_prose', 'extra_prose']);
  // no positive weight at all: malformed JSON
  assert.equal(pickInvalidKind(testProfile({ invalidWeights: {} }), 3, 0.5), 'malformed_json');
});
