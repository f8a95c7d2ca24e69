import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PsiRecordSchema, RecordedScoresSchema, VARIANTS } from '../../lib/records/psi-record';
import { edit, rejectsAt, shippedLine } from './helpers';

const r1 = shippedLine('data/raw/psi/round1.jsonl', 1);
const r2 = shippedLine('data/raw/psi/round2.jsonl', 1);
const scores = { psi: 0.6, kd: 0.9, tv: 1, sd: 0.2, ef: 0.37, cl: 0.8, ra: 0.4 };

test('shipped round-1 and round-2 records parse; extra fields (seed, checklist) are kept', () => {
  assert.deepEqual(VARIANTS, ['standard', 'defective']);
  assert.deepEqual(PsiRecordSchema.parse(r1), r1);
  assert.equal(PsiRecordSchema.parse(r1).seed, '1');
  const p2 = PsiRecordSchema.parse(r2);
  assert.equal(p2.round, 2);
  assert.match(p2.parent_run_id!, /^psi-r1-S\d\d-defective-/);
  assert.deepEqual(PsiRecordSchema.parse(edit(r1, { scores })).scores, scores);
});

test('a round-2 record without parent_run_id is refused at that path', () => {
  rejectsAt(PsiRecordSchema, edit(r2, { parent_run_id: undefined }), 'parent_run_id', /round-2 record needs parent_run_id/);
  // round 1 needs none
  assert.equal(PsiRecordSchema.safeParse(edit(r1, { parent_run_id: undefined })).success, true);
});

test('bad PSI records are refused naming the path', () => {
  rejectsAt(PsiRecordSchema, edit(r1, { round: 3 }), 'round');
  rejectsAt(PsiRecordSchema, edit(r1, { variant: 'broken' }), 'variant');
  rejectsAt(PsiRecordSchema, edit(r1, { status: 'scored' }), 'status');
  assert.equal(PsiRecordSchema.safeParse(edit(r1, { status: 'invalid', reason: 'truncated' })).success, true, 'invalid: an answer that is no answer, never scored');
  rejectsAt(PsiRecordSchema, edit(r1, { text: null }), 'text');
  rejectsAt(PsiRecordSchema, edit(r1, { scores: { ...scores, sd: 1.2 } }), 'scores.sd', /<=1/);
  rejectsAt(PsiRecordSchema, edit(r1, { scores: { ...scores, ra: undefined } }), 'scores.ra');
  rejectsAt(RecordedScoresSchema, { ...scores, psi: -0.1 }, 'psi');
});
