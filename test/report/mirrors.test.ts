/** lib/report/mirrors.ts: which paper row a model is set beside, and its display label. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelLabel, paperRowFor, paperRows } from '../../lib/report/mirrors';

const ROOT = join(__dirname, '..', '..');
const published = JSON.parse(readFileSync(join(ROOT, 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));

test('mirrors: simulated profiles name their paper row; real names match by letters and digits', () => {
  const names = published.table4.rows.map((r: { model: string }) => r.model);
  assert.equal(paperRowFor('simulated:sim-a', names), 'Claude Fable 5');
  assert.equal(paperRowFor('simulated:sim-f', names), 'Gemini 3.7 Flash');
  assert.equal(paperRowFor('openai:gpt-5.6-sol', names), 'GPT-5.6 Sol');
  assert.equal(paperRowFor('simulated:sim-zz', names), undefined);
  assert.deepEqual(paperRows(['simulated:sim-b', 'x:y'], names), { 'simulated:sim-b': 'Claude Sonnet 5' });
  assert.equal(modelLabel('simulated:sim-b', { 'simulated:sim-b': 'Claude Sonnet 5' }), 'sim-b ≈ Claude Sonnet 5');
  assert.equal(modelLabel('openai:gpt-5.6-sol', { 'openai:gpt-5.6-sol': 'GPT-5.6 Sol' }), 'gpt-5.6-sol');
});
