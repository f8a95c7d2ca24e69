import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExtractedLineSchema, ResponseLineSchema } from '../../lib/records/extracted';
import { edit, rejectsAt, shippedLine } from './helpers';

const line = shippedLine('data/raw/kst/extracted.jsonl', 1);

test('a shipped extracted line parses under both schemas; the analyze line may omit simulated and recommended', () => {
  assert.deepEqual(ExtractedLineSchema.parse(line), line);
  assert.deepEqual(ResponseLineSchema.parse(line), line);
  const minimal = edit(line, { simulated: undefined, recommended: undefined, status: 'missing' });
  assert.equal(ResponseLineSchema.parse(minimal).status, 'missing');
  // extracted.jsonl always records simulated
  rejectsAt(ExtractedLineSchema, edit(line, { simulated: undefined }), 'simulated');
});

test('ResponseLineSchema strips unknown fields (collector extras do not reach the analysis)', () => {
  assert.equal('note' in ResponseLineSchema.parse(edit(line, { note: 'x' })), false);
});

test('bad response lines are refused naming the path', () => {
  rejectsAt(ResponseLineSchema, edit(line, { condition: 'P4' }), 'condition');
  rejectsAt(ResponseLineSchema, edit(line, { order: 0 }), 'order');
  rejectsAt(ResponseLineSchema, edit(line, { state: ['LM1', 2] }), 'state[1]');
  rejectsAt(ResponseLineSchema, edit(line, { recommended: 'LM6' }), 'recommended');
  rejectsAt(ResponseLineSchema, edit(line, { status: 'ok' }), 'status');
  rejectsAt(ResponseLineSchema, edit(line, { run_id: undefined }), 'run_id');
  rejectsAt(ResponseLineSchema, edit(line, { model: '' }), 'model');
});
