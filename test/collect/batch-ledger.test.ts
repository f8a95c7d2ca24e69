/** The batch ledger (batches.jsonl): custom_id mapping, open batches, follow-up attempts, bad lines. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendLedger, customIdFor, customIdsFor, nextAttempts, openBatches, readLedger } from '../../lib/collect/batch-ledger';
import { makeRedactor } from '../../lib/collect/redact';
import { tempDir } from './helpers';

const OPENAI = 'openai:gpt-test';
const ANTHROPIC = 'anthropic:claude-test';

test('custom_id mapping: OpenAI keeps the run ID; Anthropic gets a conforming, deterministic, collision-free form', () => {
  assert.equal(customIdFor('openai', 'slope.P2.o1.3fa9c0d1e2b4'), 'slope.P2.o1.3fa9c0d1e2b4');
  assert.equal(customIdFor('anthropic', 'slope.P2.o1.3fa9c0d1e2b4'), 'slope_P2_o1_3fa9c0d1e2b4');
  const long = `${'x'.repeat(60)}.P0.o1.abcdefabcdef`;
  const hashed = customIdFor('anthropic', long);
  assert.match(hashed, /^h_[0-9a-f]{40}$/);
  assert.equal(customIdFor('anthropic', long), hashed);
  assert.match(customIdFor('anthropic', 'dom/ain.P0.o1.abc'), /^h_[0-9a-f]{40}$/);
  const [a, b] = customIdsFor('anthropic', ['a.b', 'a_b']);
  assert.equal(a, 'a_b');
  assert.match(b!, /^h_[0-9a-f]{40}$/);
});

test('ledger: open batches, follow-up attempt numbers, unconfirmed submissions, bad lines', () => {
  const dir = tempDir();
  const file = join(dir, 'batches.jsonl');
  const lines = [
    { type: 'submitting', seq: 1, model: OPENAI, requests: 2, at: 't' },
    { type: 'submitted', seq: 1, batch_id: 'b1', model: OPENAI, provider: 'openai', submitted_at: 't', items: [{ run_id: 'r1', custom_id: 'r1', attempt: 1 }, { run_id: 'r2', custom_id: 'r2', attempt: 1 }] },
    { type: 'collected', batch_id: 'b1', state: 'completed', retry: ['r2'] },
    { type: 'submitting', seq: 2, model: OPENAI, requests: 1, at: 't' },
    { type: 'submitted', seq: 2, batch_id: 'b2', model: OPENAI, provider: 'openai', submitted_at: 't', items: [{ run_id: 'r2', custom_id: 'r2', attempt: 2 }] },
    { type: 'submitting', seq: 3, model: ANTHROPIC, requests: 5, at: 't' },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const ledger = readLedger(file);
  assert.deepEqual(openBatches(ledger).map((b) => b.batch_id), ['b2']);
  assert.deepEqual(ledger.unconfirmed.map((u) => u.seq), [3]);
  assert.equal(ledger.nextSeq, 4);
  const next = nextAttempts(ledger);
  assert.equal(next('r1'), 1, 'r1 ended in b1 (not marked for retry)');
  assert.equal(next('r2'), 1, 'b2 is not collected yet, so no retry decision exists');
  appendFileSync(file, JSON.stringify({ type: 'collected', batch_id: 'b2', state: 'completed', retry: ['r2'] }) + '\n');
  assert.equal(nextAttempts(readLedger(file))('r2'), 3);
  appendFileSync(file, JSON.stringify({ type: 'collected', batch_id: 'nope', state: 'completed', retry: [] }) + '\n');
  assert.throws(() => readLedger(file), (e: Error) => e.name === 'InputError' && e.message.includes('batches.jsonl:8: collected batch nope was never submitted'));
});

test('the hash form is h_ + the first 40 hex digits of SHA-256 of the run ID (digest from sha256sum)', () => {
  // printf 'dom/ain.P0.o1.abc' | sha256sum → 68fdf42734431e6d8b0088000f148c03b89c6b3ab4d488525067328d93b8a49a
  assert.equal(customIdFor('anthropic', 'dom/ain.P0.o1.abc'), 'h_68fdf42734431e6d8b0088000f148c03b89c6b3a');
  assert.equal(customIdFor('openai', 'dom/ain.P0.o1.abc'), 'dom/ain.P0.o1.abc');
  // a repeated run ID (checkBatchRequests refuses it before this point) takes the hash form the second
  // time (printf 'x.y' | sha256sum → b24ca9b75eb7b75775b5fdd41e0ef5cfbb6d233f…) and is refused the third
  assert.deepEqual(customIdsFor('anthropic', ['x.y', 'x.y']), ['x_y', 'h_b24ca9b75eb7b75775b5fdd41e0ef5cfbb6d233f']);
  assert.throws(() => customIdsFor('anthropic', ['a.b', 'a.b', 'a.b']), /run ID a\.b is listed twice/);
});

test('submit_failed: created false confirms no batch exists; created unknown keeps the submission unconfirmed', () => {
  const file = join(tempDir(), 'batches.jsonl');
  assert.deepEqual(readLedger(file), { submitted: [], collected: new Map(), unconfirmed: [], nextSeq: 1 }, 'absent file: empty ledger');
  const lines = [
    { type: 'submitting', seq: 1, model: OPENAI, requests: 2 },
    { type: 'submit_failed', seq: 1, error_class: 'auth', created: false },
    { type: 'submitting', seq: 2, model: ANTHROPIC, requests: 2 },
    { type: 'submit_failed', seq: 2, error_class: 'timeout', created: 'unknown' },
  ];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const ledger = readLedger(file);
  assert.deepEqual(ledger.unconfirmed.map((u) => u.seq), [2]);
  assert.equal(ledger.nextSeq, 3);
});

test('bad ledger lines name file and line: an unknown type, a batch recorded twice', () => {
  const file = join(tempDir(), 'batches.jsonl');
  const submitted = { type: 'submitted', seq: 1, batch_id: 'b1', model: OPENAI, provider: 'openai', submitted_at: null, items: [{ run_id: 'r', custom_id: 'r', attempt: 1 }] };
  writeFileSync(file, `${JSON.stringify(submitted)}\n${JSON.stringify({ type: 'polled', batch_id: 'b1' })}\n`);
  assert.throws(() => readLedger(file), (e: Error) => e.name === 'InputError' && e.message.startsWith(`${file}:2: not a batch ledger line`));
  writeFileSync(file, `${JSON.stringify(submitted)}\n${JSON.stringify({ ...submitted, seq: 2 })}\n`);
  assert.throws(() => readLedger(file), (e: Error) => e.message === `${file}:2: batch b1 is recorded twice`);
});

test('appendLedger writes one scrubbed line', () => {
  const file = join(tempDir(), 'batches.jsonl');
  const secret = 'sk-ledger-SECRET-0123456789';
  appendLedger(file, { type: 'submit_failed', seq: 1, error_class: 'auth', created: false, message: `bad key ${secret}` }, makeRedactor({ OPENAI_API_KEY: secret }));
  assert.equal(readFileSync(file, 'utf8'), '{"type":"submit_failed","seq":1,"error_class":"auth","created":false,"message":"bad key [REDACTED:OPENAI_API_KEY]"}\n');
  assert.deepEqual(readLedger(file).unconfirmed, []);
});
