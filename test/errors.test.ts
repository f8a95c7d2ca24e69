import { test } from 'node:test';
import assert from 'node:assert/strict';
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
