/**
 * How a failed notebook cell is recorded (the nbformat error) and what `npm run reproduce` prints for
 * it: pure functions of lib/notebook/execute.ts, without a tslab session.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { failureFrom, failureReport } from '../../lib/notebook/execute';

test('an InputError of a cell is recorded and reported as its one line; another error keeps its stack', () => {
  const root = '/checkout';
  const bad = new InputError('data/raw: cannot read ratings file (EISDIR)', { file: 'data/raw' });
  bad.stack = 'InputError: data/raw: cannot read ratings file (EISDIR)\n    at readUtf8File (/checkout/dist/lib/io/read.js:87:15)\n    at evalmachine.<anonymous>:7:39';
  const recorded = failureFrom([[bad]], root);
  assert.deepEqual(recorded, { ename: 'InputError', evalue: 'data/raw: cannot read ratings file (EISDIR)', traceback: ['InputError: data/raw: cannot read ratings file (EISDIR)'] });
  const at = { file: 'notebooks/13-x.ipynb', cellIndex: 12, cellId: 'ratings-load' };
  assert.equal(failureReport({ ...at, ...recorded }), 'notebooks/13-x.ipynb: cell 12 (id ratings-load) failed: InputError: data/raw: cannot read ratings file (EISDIR)');

  const bug = new RangeError('boom');
  bug.stack = 'RangeError: boom\n    at explode (/checkout/dist/lib/stats/values.js:23:15)\n    at evalmachine.<anonymous>:5:3\n    at Script.runInThisContext (node:vm:135:14)';
  const kept = failureFrom([[bug]], root);
  assert.deepEqual(kept.traceback, ['RangeError: boom', '    at explode (dist/lib/stats/values.js:23:15)', '    at evalmachine.<anonymous>:5:3']);
  assert.equal(failureReport({ ...at, ...kept }), `notebooks/13-x.ipynb: cell 12 (id ratings-load) failed: RangeError: boom\n${kept.traceback.join('\n')}`);

  // Compile diagnostics are the error's value already: printed once.
  const compile = { ename: 'CompileError', evalue: '1:16 - no overlap', traceback: ['1:16 - no overlap'] };
  assert.equal(failureReport({ ...at, ...compile }), 'notebooks/13-x.ipynb: cell 12 (id ratings-load) failed: CompileError: 1:16 - no overlap');
});
