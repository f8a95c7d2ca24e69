import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseModelSpec } from '../../lib/provider/contract';
import { InputError } from '../../lib/errors';

test('parseModelSpec splits at the first colon and rejects bad specs', () => {
  assert.deepEqual(parseModelSpec('openai:gpt-4o-2024-08-06'), { provider: 'openai', model: 'gpt-4o-2024-08-06' });
  assert.deepEqual(parseModelSpec('openai-compatible:llama3.1:8b'), { provider: 'openai-compatible', model: 'llama3.1:8b' });
  assert.deepEqual(parseModelSpec('anthropic:claude-sonnet-4-5'), { provider: 'anthropic', model: 'claude-sonnet-4-5' });
  assert.deepEqual(parseModelSpec('simulated:sim-a'), { provider: 'simulated', model: 'sim-a' });
  for (const bad of ['gpt-4o', 'openai:', ':gpt', 'google:gemini', 'openai:gpt 4']) {
    assert.throws(() => parseModelSpec(bad), (e: unknown) => e instanceof InputError && e.message.includes(JSON.stringify(bad)), bad);
  }
});

