import { test } from 'node:test';
import assert from 'node:assert/strict';
import { preflightCells } from '../../lib/collect/preflight';

test('preflightCells: the first pending cell of each model that needs one, in dispatch order', () => {
  const pending = [{ model: 'openai:a' }, { model: 'openai:a' }, { model: 'simulated:sim-a' }, { model: 'anthropic:b' }, { model: 'anthropic:b' }];
  assert.deepEqual(preflightCells(pending, (m) => !m.startsWith('simulated:')), [0, 3]);
  assert.deepEqual(preflightCells(pending, () => false), [], 'simulated runs have no pre-flight (the corpus stays byte-identical)');
  assert.deepEqual(preflightCells([], () => true), []);
});
