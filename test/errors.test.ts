import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { z } from 'zod';
import { describeZodIssues, InputError, locate } from '../lib/errors';

test('InputError carries its name, message and where; where defaults to {}', () => {
  const e = new InputError('d.json:3: bad', { file: 'd.json', line: 3, item: 'x' });
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'InputError');
  assert.equal(e.message, 'd.json:3: bad');
  assert.deepEqual(e.where, { file: 'd.json', line: 3, item: 'x' });
  assert.deepEqual(new InputError('m').where, {});
  assert.match(String(e), /^InputError: d\.json:3: bad$/);
});

test('an InputError prints as one line (console.error, a notebook kernel); a plain Error keeps its stack', () => {
  const e = new InputError('slope.json: not a knowledge state: SL3 is in the state but its prerequisite SL2 is not');
  assert.equal(inspect(e), 'InputError: slope.json: not a knowledge state: SL3 is in the state but its prerequisite SL2 is not');
  assert.ok((e.stack ?? '').split('\n').length > 1, 'the stack is still there for a developer');
  assert.ok(inspect(new Error('x')).split('\n').length > 1, 'other errors are printed with their stack');
});

test('locate: "file:line: ", "file: " or nothing', () => {
  assert.equal(locate('data/x.jsonl', 12), 'data/x.jsonl:12: ');
  assert.equal(locate('data/x.jsonl', 0), 'data/x.jsonl:0: ');
  assert.equal(locate('data/x.jsonl'), 'data/x.jsonl: ');
  assert.equal(locate(undefined, 4), '');
});

test('describeZodIssues: one "path: message" per issue, indices in brackets, joined by "; "', () => {
  assert.equal(
    describeZodIssues([
      { path: ['state', 2], message: 'expected string, received number' },
      { path: [0, 'id'], message: 'required' },
      { path: [], message: 'not an object' },
      { path: ['a', 'b', 3, 4], message: 'm' },
    ]),
    'state[2]: expected string, received number; [0].id: required; not an object; a.b[3][4]: m',
  );
  // on a real zod error
  const parsed = z.object({ state: z.array(z.string()) }).safeParse({ state: ['a', 'b', 7] });
  assert.equal(parsed.success, false);
  assert.equal(describeZodIssues(parsed.error!.issues), 'state[2]: Invalid input: expected string, received number');
});
