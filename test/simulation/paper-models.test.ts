import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paperModelStoodInFor, simulatedModelSpecs } from '../../lib/simulation/paper-models';

test('paperModelStoodInFor: spec or bare name of both simulators; undefined for any other model', () => {
  assert.deepEqual(paperModelStoodInFor('simulated:sim-a'), { study: 'kst', paperModel: 'Claude Fable 5' });
  assert.deepEqual(paperModelStoodInFor('sim-a'), { study: 'kst', paperModel: 'Claude Fable 5' });
  assert.deepEqual(paperModelStoodInFor('sim-tutor-b'), { study: 'psi', paperModel: 'Gemini' });
  assert.deepEqual(paperModelStoodInFor('simulated:sim-tutor-d'), { study: 'psi', paperModel: 'Qwen 3' });
  assert.equal(paperModelStoodInFor('openai:gpt-4o'), undefined);
  assert.equal(paperModelStoodInFor('simulated:sim-z'), undefined);
});

test('simulatedModelSpecs: the six KST and four PSI specs, in profile order, each standing in for a different model', () => {
  const kst = simulatedModelSpecs('kst');
  assert.deepEqual(kst, ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `simulated:sim-${x}`));
  assert.deepEqual(simulatedModelSpecs('psi'), ['a', 'b', 'c', 'd'].map((x) => `simulated:sim-tutor-${x}`));
  assert.equal(new Set(kst.map((m) => paperModelStoodInFor(m)!.paperModel)).size, 6);
  assert.deepEqual(simulatedModelSpecs('psi').map((m) => paperModelStoodInFor(m)!.paperModel), ['ChatGPT', 'Gemini', 'Gemma 4', 'Qwen 3']);
});
