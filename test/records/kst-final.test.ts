import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KstFinalRecordSchema } from '../../lib/records/kst-final';
import { edit, rejectsAt, shippedLine, shippedLineWhere } from './helpers';

const valid = shippedLine('data/raw/kst/responses.jsonl', 1);

test('shipped final records parse: a valid P1 answer with its prerequisites, and an invalid one', () => {
  assert.equal(valid.status, 'valid');
  assert.deepEqual(KstFinalRecordSchema.parse(valid), valid);
  const invalid = shippedLineWhere('data/raw/kst/responses.jsonl', (r) => r.status === 'invalid');
  assert.equal(KstFinalRecordSchema.parse(invalid).recommended, null);
  // a batch record with settings and a --retry-missing marker is valid as well
  const batch = edit(valid, { batch_id: 'b1', custom_id: 'c1', supersedes_missing: true, settings: { api: 'responses', temperature: 0 } });
  assert.equal(KstFinalRecordSchema.parse(batch).supersedes_missing, true);
});

test('bad final records are refused naming the path', () => {
  rejectsAt(KstFinalRecordSchema, edit(valid, { prompt: { system: 's' } }), 'prompt.user');
  rejectsAt(KstFinalRecordSchema, edit(valid, { prerequisites: [['LM1']] }), 'prerequisites[0]');
  rejectsAt(KstFinalRecordSchema, edit(valid, { attempts: 0 }), 'attempts');
  rejectsAt(KstFinalRecordSchema, edit(valid, { supersedes_missing: false }), 'supersedes_missing');
  rejectsAt(KstFinalRecordSchema, edit(valid, { recommended_positions: ['6'] }), 'recommended_positions[0]');
  rejectsAt(KstFinalRecordSchema, edit(valid, { usage: { inputTokens: 1 } }), 'usage.outputTokens');
  rejectsAt(KstFinalRecordSchema, edit(valid, { completed_at: undefined }), 'completed_at');
  rejectsAt(KstFinalRecordSchema, edit(valid, { condition: 'p1' }), 'condition');
});
