import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreCognitiveLoad } from '../../lib/psi';
import { close } from './helpers';

test('S_CL: propositions with filler / hedging / tangent markers', () => {
  // 5 propositions; "Great question!" (filler) and "I think it works." (hedging) → 1 − 2/5
  const r = scoreCognitiveLoad('Great question! I think it works. Loops repeat code. Lists hold items. Use them.');
  close(r.score, 0.6);
  assert.deepEqual(r.evidence.markers.map((m) => m.category), ['filler', 'hedging']);
  // three markers in one proposition count once: 2 propositions, 1 extraneous → 0.5
  const m = scoreCognitiveLoad('By the way, I think this is kind of neat. It runs.');
  close(m.score, 0.5);
  assert.equal(m.evidence.markers.length, 3);
  // code is not searched: "probably" in a comment does not count → 2 propositions, 0 extraneous
  assert.equal(scoreCognitiveLoad('Sort the list.\n```python\n# probably fine\nx.sort()\n```').score, 1);
  assert.equal(scoreCognitiveLoad('').score, 1);
});
