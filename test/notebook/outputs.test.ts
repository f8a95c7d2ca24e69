/** lib/notebook/outputs.ts: a run's outputs in nbformat shapes, as Jupyter's client records them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OutputCollector } from '../../lib/notebook/outputs';

test('consecutive writes to one stream merge; another stream or a display starts a new output; empty text is dropped', () => {
  const c = new OutputCollector();
  const cell = c.startCell();
  c.stream('stdout', 'a\n');
  c.stream('stdout', '');
  c.stream('stdout', 'b\n');
  c.stream('stderr', 'warn\n');
  c.stream('stdout', 'c\n');
  c.display({ 'text/html': '<b>x</b>' }, {});
  c.stream('stdout', 'd\n');
  assert.deepEqual(cell, [
    { output_type: 'stream', name: 'stdout', text: 'a\nb\n' },
    { output_type: 'stream', name: 'stderr', text: 'warn\n' },
    { output_type: 'stream', name: 'stdout', text: 'c\n' },
    { output_type: 'display_data', data: { 'text/html': '<b>x</b>' }, metadata: {} },
    { output_type: 'stream', name: 'stdout', text: 'd\n' },
  ]);
});

test('an update for a display id rewrites every earlier output shown under it, in any cell, and adds none', () => {
  const c = new OutputCollector();
  const first = c.startCell();
  c.display({ 'text/plain': 'v1' }, { a: 1 }, 'id-1');
  c.display({ 'text/plain': 'other' }, {}, 'id-2');
  const second = c.startCell();
  c.display({ 'text/plain': 'v1 again' }, {}, 'id-1');
  c.display({ 'text/plain': 'v2' }, { b: 2 }, 'id-1', true);
  assert.deepEqual(first, [
    { output_type: 'display_data', data: { 'text/plain': 'v2' }, metadata: { b: 2 } },
    { output_type: 'display_data', data: { 'text/plain': 'other' }, metadata: {} },
  ]);
  assert.deepEqual(second, [{ output_type: 'display_data', data: { 'text/plain': 'v2' }, metadata: { b: 2 } }]);
  // An update for an id never shown changes nothing; the bundle is copied, not shared with the caller.
  const data = { 'text/plain': 'mine' };
  c.display(data, {}, 'id-unknown', true);
  c.display(data, {});
  data['text/plain'] = 'changed';
  assert.deepEqual(second.map((o) => (o.data as Record<string, unknown>)['text/plain']), ['v2', 'mine']);
});

test('a failure is an error output of the current cell; a new cell starts empty', () => {
  const c = new OutputCollector();
  const cell = c.startCell();
  c.stream('stdout', 'before\n');
  c.error('InputError', 'x.json: bad', ['InputError: x.json: bad']);
  assert.deepEqual(cell[1], { output_type: 'error', ename: 'InputError', evalue: 'x.json: bad', traceback: ['InputError: x.json: bad'] });
  assert.deepEqual(c.startCell(), []);
  assert.equal(cell.length, 2);
});
