/** lib/report/mirrors.ts: which paper row a model is set beside, and its display label. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelLabel, paperRowFor, paperRows, shortModelName } from '../../lib/report/mirrors';

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

test('shortModelName drops the provider prefix up to the first colon only', () => {
  assert.equal(shortModelName('simulated:sim-a'), 'sim-a');
  assert.equal(shortModelName('local:qwen3:8b'), 'qwen3:8b');
  assert.equal(shortModelName('plain'), 'plain');
});

test('paperRowFor: a simulated PSI tutor stands for no Table 4 row; a real name matches regardless of case and punctuation', () => {
  const names = published.table4.rows.map((r: { model: string }) => r.model);
  assert.equal(paperRowFor('simulated:sim-tutor-a', names), undefined);
  assert.equal(paperRowFor('x:GPT_5.6-SOL', names), 'GPT-5.6 Sol');
  // A mirror equal to the short name up to punctuation adds nothing to the label.
  assert.equal(modelLabel('openai:gpt-5.6-sol', { 'openai:gpt-5.6-sol': 'GPT 5.6 Sol' }), 'gpt-5.6-sol');
  assert.equal(modelLabel('x:m', {}), 'm');
});

test('paperRows: on a domain that is not the paper\'s, no model is set beside a paper row (a profile is named by itself)', () => {
  const names = published.table4.rows.map((r: { model: string }) => r.model);
  const paperDomains = published.table1.rows.map((r: { domain: string }) => r.domain);
  assert.deepEqual(paperRows(['simulated:sim-a', 'openai:gpt-5.6-sol'], names, { onDomains: ['fractions'], paperDomains }), {});
  assert.deepEqual(paperRows(['simulated:sim-a'], names, { onDomains: ['slope', 'fractions'], paperDomains }), {}, 'one foreign domain is enough');
  assert.deepEqual(paperRows(['simulated:sim-a'], names, { onDomains: ['slope', 'graph-to-equation'], paperDomains }), { 'simulated:sim-a': 'Claude Fable 5' });
  assert.equal(modelLabel('simulated:sim-a', paperRows(['simulated:sim-a'], names, { onDomains: ['fractions'], paperDomains })), 'sim-a');
});
