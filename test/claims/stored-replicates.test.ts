/** lib/claims/stored-replicates.ts: the stored statistics are found under the project root and read once. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultReplicates, replicatesFile } from '../../lib/claims/stored-replicates';

test('each paper has its file under data/replicates, read once per process and checked by the schema', () => {
  assert.equal(replicatesFile('kst'), 'data/replicates/kst.json');
  const a = defaultReplicates('kst');
  assert.equal(a.paper, 'kst');
  assert.equal(a.simulated, true);
  assert.equal(defaultReplicates('kst'), a, 'cached');
  assert.equal(defaultReplicates('psi').paper, 'psi');
});
