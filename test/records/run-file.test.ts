import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_STATUSES, RunFileSchema, RunResultSchema } from '../../lib/records/run-file';
import { edit, rejectsAt, ROOT } from './helpers';

const shipped = JSON.parse(readFileSync(join(ROOT, 'data', 'raw', 'kst', 'run.json'), 'utf8')) as Record<string, unknown>;

test('the shipped run.json parses and keeps its study-specific fields', () => {
  const run = RunFileSchema.parse(shipped);
  assert.equal(run.status, 'complete');
  assert.deepEqual(run.result?.written, { valid: 2390, invalid: 10 });
  assert.deepEqual(run, shipped);
  // a running file has no result and no finished_at
  assert.equal(RunFileSchema.parse(edit(shipped, { status: 'running', result: undefined, finished_at: undefined })).status, 'running');
  assert.deepEqual(RUN_STATUSES, ['running', 'complete', 'incomplete', 'quota_stopped', 'interrupted', 'failed']);
  // a failed run states its reason and remedy
  const failed = RunResultSchema.parse({ reason: 'ENOSPC writing responses.jsonl', remedy: 'free disk space and run the same command' });
  assert.equal(failed.remedy, 'free disk space and run the same command');
});

test('bad run files are refused naming the path', () => {
  rejectsAt(RunFileSchema, edit(shipped, { status: 'done' }), 'status');
  rejectsAt(RunFileSchema, edit(shipped, { fingerprint: 'abc' }), 'fingerprint');
  rejectsAt(RunFileSchema, edit(shipped, { started_at: undefined }), 'started_at');
  rejectsAt(RunFileSchema, edit(shipped, { result: { ...(shipped.result as object), pending: -1 } }), 'result.pending');
  rejectsAt(RunFileSchema, edit(shipped, { result: { ...(shipped.result as object), written: { valid: 1.5 } } }), 'result.written.valid');
  rejectsAt(RunResultSchema, {}, 'reason');
});
