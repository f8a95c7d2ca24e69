import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreKnowledgeDistance } from '../../lib/psi';
import { close } from './helpers';

test('S_KD: known-share and Jaccard overlap, no-concept case', () => {
  const opts = { deltaOpt: 0.65, overlap: 'known-share' as const };
  // C_R = {a,b,c}, K = {a,b,x,y}: known-share 2/3 → 1 − |0.666667 − 0.65| = 0.983333
  const ks = scoreKnowledgeDistance(['a', 'b', 'c'], ['a', 'b', 'x', 'y'], opts);
  close(ks.score, 1 - (2 / 3 - 0.65));
  assert.deepEqual(ks.evidence.unknown, ['c']);
  // Jaccard: |∩| = 2, |∪| = |K| 4 + new 1 = 5 → 0.4 → 1 − |0.4 − 0.65| = 0.75
  close(scoreKnowledgeDistance(['a', 'b', 'c'], ['a', 'b', 'x', 'y'], { ...opts, overlap: 'jaccard' }).score, 0.75);
  // nothing found: sim = 0 → 1 − 0.65 = 0.35 under both measures
  close(scoreKnowledgeDistance([], ['a'], opts).score, 0.35);
  close(scoreKnowledgeDistance([], ['a'], { ...opts, overlap: 'jaccard' }).score, 0.35);
  // everything familiar: sim = 1 → 1 − 0.35 = 0.65; δ = 1 would make it perfect
  close(scoreKnowledgeDistance(['a'], ['a'], opts).score, 0.65);
  close(scoreKnowledgeDistance(['a'], ['a'], { ...opts, deltaOpt: 1 }).score, 1);
});
