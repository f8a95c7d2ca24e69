import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { PreflightError, runPreflights, type PreflightProvider, type PreflightResult } from '../../lib/collect/preflight';
import type { CompletionRequest } from '../../lib/provider/contract';
import { okResult } from './helpers';

const request = (runId: string): CompletionRequest => ({ runId, system: 's', user: 'u', schemaName: 'a', jsonSchema: { type: 'object' }, maxOutputTokens: 16, timeoutMs: 1000 });

function provider(model: string, answer?: PreflightResult): PreflightProvider & { asked: string[] } {
  const asked: string[] = [];
  return {
    provider: 'openai',
    model,
    simulated: false,
    asked,
    complete: async () => okResult('{}'),
    ...(answer ? { preflight: async (req: CompletionRequest) => (asked.push(req.runId), answer) } : {}),
  };
}

test('every model with a pending request and a preflight hook is asked once; notes are returned and reported in order', async () => {
  const a = provider('openai:a', { ok: true, notes: ['catalogue: snapshot of a', 'max_completion_tokens'] });
  const b = provider('openai:b'); // no hook: skipped
  const c = provider('openai:c', { ok: true, notes: [] });
  const d = provider('openai:d', { ok: true, notes: ['never asked'] });
  const byModel: Record<string, PreflightProvider> = { 'openai:a': a, 'openai:b': b, 'openai:c': c, 'openai:d': d };
  const reported: string[] = [];
  const notes = await runPreflights(
    ['openai:a', 'openai:b', 'openai:c', 'openai:d'],
    (m) => byModel[m]!,
    (m) => (m === 'openai:d' ? null : request(`first-of-${m}`)), // nothing of d is pending
    (m, n) => reported.push(`${m}: ${n}`),
  );
  assert.deepEqual(notes, { 'openai:a': ['catalogue: snapshot of a', 'max_completion_tokens'], 'openai:c': [] });
  assert.deepEqual(reported, ['openai:a: catalogue: snapshot of a', 'openai:a: max_completion_tokens']);
  assert.deepEqual(a.asked, ['first-of-openai:a']);
  assert.deepEqual(d.asked, []);
});

test('a refusal stops at that model with a PreflightError (an InputError) carrying the message and the remedy', async () => {
  const ok = provider('openai:ok', { ok: true, notes: [] });
  const bad = provider('anthropic:gone', { ok: false, message: 'HTTP 404 not_found_error: model anthropic:gone', remedy: 'check the model name' });
  const later = provider('openai:later', { ok: true, notes: [] });
  const byModel: Record<string, PreflightProvider> = { 'openai:ok': ok, 'anthropic:gone': bad, 'openai:later': later };
  await assert.rejects(
    runPreflights(['openai:ok', 'anthropic:gone', 'openai:later'], (m) => byModel[m]!, (m) => request(m)),
    (e: unknown) => {
      assert.ok(e instanceof PreflightError && e instanceof InputError);
      assert.equal(e.message, 'pre-flight check of anthropic:gone failed: HTTP 404 not_found_error: model anthropic:gone');
      assert.equal(e.remedy, 'check the model name');
      assert.equal(e.model, 'anthropic:gone');
      assert.deepEqual(e.where, { item: 'anthropic:gone' });
      return true;
    },
  );
  assert.deepEqual(later.asked, [], 'models after the refusal are not asked');
});
