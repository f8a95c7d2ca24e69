/** The resume fingerprint check (lib/collect/fingerprint.ts): what a refused resume says. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { checkFingerprint, fingerprintDifferences } from '../../lib/collect/fingerprint';
import { checkNoForeignRecords } from '../../lib/collect/lifecycle';

const settings = (baseUrl: string) => ({
  'openai-compatible:llama': { api: 'chat_completions', base_url: baseUrl, temperature: 0, system_prompt_suffix: 'x'.repeat(400) },
  'openai:gpt-5-mini': { api: 'responses', reasoning_effort: 'low' },
});
const fingerprint = (baseUrl: string, domains: Record<string, string>) => ({ study: 'kst', seed: '42', domains, settings: settings(baseUrl) });
const hashA = 'a'.repeat(64);
const hashB = 'b'.repeat(64);

function refusal(before: Record<string, unknown>, now: Record<string, unknown>, fix?: string): InputError {
  try {
    checkFingerprint('out/run.json', { fingerprint: before }, now, fix);
  } catch (err) {
    assert.ok(err instanceof InputError);
    return err;
  }
  assert.fail('the resume was not refused');
}

test('the same model at another host: one line naming the changed field, old → new, not the settings table', () => {
  const err = refusal(fingerprint('http://gpu1:8000/v1', { algebra: hashA }), fingerprint('http://gpu2:8001/v1', { algebra: hashA }));
  assert.equal(
    err.message,
    'out/run.json: this directory holds a run of another design (settings.openai-compatible:llama.base_url: "http://gpu1:8000/v1" → "http://gpu2:8001/v1"); resume with the same parameters or use a new --out directory',
  );
  assert.equal(err.where.item, 'settings.openai-compatible:llama.base_url');
});

test('a changed data file is named by its domain; long values are cut; credentials in URLs are masked', () => {
  const err = refusal(fingerprint('https://user:hunter22@gpu1/v1?api_key=sk-abcdef', { algebra: hashA }), fingerprint('https://gpu1/v1', { algebra: hashB }));
  assert.match(err.message, /\(domains\.algebra: "a{46}… → "b{46}…; settings\.openai-compatible:llama\.base_url: "https:\/\/\[redacted\]@gpu1\/v1\?api_key=\[redacted\]" → "https:\/\/gpu1\/v1"\)/);
  assert.doesNotMatch(err.message, /hunter22|sk-abcdef|xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/);
  assert.ok(err.message.length < 400, `one line, not the settings table (its suffixes alone are 800 characters): ${err.message.length} characters`);
});

test('a field added or dropped shows (none); past three differences the rest are counted; the caller names the fix', () => {
  assert.deepEqual(fingerprintDifferences({ a: 1, b: [1, 2] }, { b: [1, 3], c: 'x' }), ['a: 1 → (none)', 'b: [1,2] → [1,3]', 'c: (none) → "x"']);
  const err = refusal({ a: 1, b: 2, c: 3, d: 4, e: 5 }, { a: 0, b: 0, c: 0, d: 0, e: 0 }, 'move collection aside');
  assert.match(err.message, /\(a: 1 → 0; b: 2 → 0; c: 3 → 0; and 2 more\); resume with the same parameters or move collection aside$/);
});

test('an unchanged fingerprint, or a store without one, is accepted', () => {
  const same = fingerprint('http://gpu1:8000/v1', { algebra: hashA });
  checkFingerprint('out/run.json', { fingerprint: same }, structuredClone(same));
  checkFingerprint('out/run.json', null, same);
  checkFingerprint('out/run.json', {}, same);
});

test('final records of no cell of this design: the fix of the caller is named (default: a new --out directory)', () => {
  const completed = new Map([['x.P0.o1.abc', {}]]);
  assert.throws(() => checkNoForeignRecords('out/responses.jsonl', completed, [{ runId: 'y' }]), /\(first: x\.P0\.o1\.abc\); use a new --out directory$/);
  assert.throws(() => checkNoForeignRecords('out/responses.jsonl', completed, [{ runId: 'y' }], 'move collection aside'), /\(first: x\.P0\.o1\.abc\); move collection aside$/);
});
