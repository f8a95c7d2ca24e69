import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collectKst } from '../../lib/collect/collect';
import { CUT_OFF_FIX, preflightCells } from '../../lib/collect/preflight';
import { okResult, stubCollectParams, stubProvider, tempDir, writeTinyDomains } from './helpers';

test('preflightCells: the first pending cell of each model that needs one, in dispatch order', () => {
  const pending = [{ model: 'openai:a' }, { model: 'openai:a' }, { model: 'simulated:sim-a' }, { model: 'anthropic:b' }, { model: 'anthropic:b' }];
  assert.deepEqual(preflightCells(pending, (m) => !m.startsWith('simulated:')), [0, 3]);
  assert.deepEqual(preflightCells(pending, () => false), [], 'simulated runs have no pre-flight (the corpus stays byte-identical)');
  assert.deepEqual(preflightCells([], () => true), []);
});

test('a pre-flight answer still cut off stops the run naming the collect flags that fix it (kstbench collect, psi collect)', async () => {
  const out = tempDir();
  const cutOff = stubProvider('openai:stub', () => ({ ...okResult('{"recommendations": ['), finishReason: 'length' }));
  const outcome = await collectKst(stubCollectParams(out, writeTinyDomains(), { maxOutputTokens: 4000 }), { createProvider: () => cutOff, env: { OPENAI_API_KEY: 'sk-test' } });
  assert.equal(outcome.status, 'failed');
  assert.match(outcome.reason ?? '', /pre-flight: the answer was cut off by the output limit \(length\)/);
  assert.equal(outcome.remedy, CUT_OFF_FIX);
  assert.match(CUT_OFF_FIX, /raise --max-output-tokens .*a new --out directory.*--no-preflight/);
  assert.equal(cutOff.total(), 2, 'the pre-flight cell alone: its answer, then the one retry at a larger allowance');
});
