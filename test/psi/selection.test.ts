import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { DEFAULT_WEAK_THRESHOLD, selectWeakCases, type SelectionCandidate } from '../../lib/psi/selection';

const c = (run_id: string, model: string, psi: number, extra: Partial<SelectionCandidate> = {}): SelectionCandidate => ({ run_id, model, variant: 'defective', psi, ...extra });

test('threshold and quota, worked by hand: PSI {a 0.5, b 0.6, c 0.5} → below 0.59 [a, c]; quota 1 → [a]', () => {
  const records = [c('b', 'm1', 0.6), c('c', 'm2', 0.5), c('a', 'm1', 0.5)];
  const sel = selectWeakCases(records, { threshold: 0.59 });
  assert.deepEqual(sel.selected.map((r) => r.run_id), ['a', 'c']); // tie at 0.5 broken by run_id
  assert.deepEqual(sel.perModel, { m1: 1, m2: 1 });
  assert.deepEqual(sel.consideredPerModel, { m1: 2, m2: 1 });
  assert.equal(sel.considered, 3);
  assert.deepEqual(selectWeakCases(records, { threshold: 0.59, quota: 1 }).selected.map((r) => r.run_id), ['a']);
  // no threshold: the quota lowest
  assert.deepEqual(selectWeakCases(records, { threshold: null, quota: 3 }).selected.map((r) => r.run_id), ['a', 'c', 'b']);
});

test('only round-1 cases of the variant with a finite PSI are eligible; the order of the input does not matter', () => {
  const records = [
    c('s1', 'm1', 0.1, { variant: 'standard' }),
    c('r2', 'm1', 0.1, { round: 2 }),
    c('miss', 'm1', 0.1, { status: 'missing' }),
    c('nan', 'm2', Number.NaN),
    c('d1', 'm2', 0.4),
    c('d2', 'm1', 0.58),
  ];
  const sel = selectWeakCases(records);
  assert.equal(DEFAULT_WEAK_THRESHOLD, 0.59);
  assert.deepEqual(sel.selected.map((r) => r.run_id), ['d1', 'd2']);
  assert.equal(sel.considered, 2);
  assert.deepEqual(selectWeakCases([...records].reverse()).selected.map((r) => r.run_id), ['d1', 'd2']);
  assert.deepEqual(selectWeakCases(records, { variant: 'standard' }).selected.map((r) => r.run_id), ['s1']);
});

test('a bad threshold or quota is an InputError', () => {
  assert.throws(() => selectWeakCases([], { threshold: Number.NaN }), (e: unknown) => e instanceof InputError && /threshold/.test(e.message));
  assert.throws(() => selectWeakCases([], { quota: 1.5 }), (e: unknown) => e instanceof InputError && /quota/.test(e.message));
  assert.throws(() => selectWeakCases([], { quota: -1 }), InputError);
});

const cands: SelectionCandidate[] = [
  { run_id: 'r-b', model: 'A', variant: 'defective', psi: 0.6 },
  { run_id: 'r-c', model: 'B', variant: 'defective', psi: 0.5 },
  { run_id: 'r-d', model: 'B', variant: 'standard', psi: 0.58 },
  { run_id: 'r-e', model: 'A', variant: 'defective', psi: 0.4, status: 'missing' },
  { run_id: 'r-f', model: 'B', variant: 'defective', psi: 0.589 },
  { run_id: 'r-a', model: 'A', variant: 'defective', psi: 0.5 },
];

test('selectWeakCases: threshold 0.59 default, ties by run_id, quota, reproducible under reordering', () => {
  // eligible (defective, not missing): a .50, b .60, c .50, f .589 → below 0.59: a, c (tie → run_id), f
  const sel = selectWeakCases(cands);
  assert.deepEqual(sel.selected.map((r) => r.run_id), ['r-a', 'r-c', 'r-f']);
  assert.equal(sel.considered, 4);
  assert.deepEqual(sel.perModel, { A: 1, B: 2 });
  assert.deepEqual(sel.consideredPerModel, { A: 2, B: 2 }); // A: r-a, r-b (r-e missing); B: r-c, r-f
  assert.deepEqual(selectWeakCases([...cands].reverse()).selected, sel.selected);
  assert.deepEqual(selectWeakCases(cands, { quota: 2 }).selected.map((r) => r.run_id), ['r-a', 'r-c']);
  assert.deepEqual(selectWeakCases(cands, { threshold: null, quota: 1 }).selected.map((r) => r.run_id), ['r-a']);
  assert.deepEqual(selectWeakCases(cands, { variant: 'standard' }).selected.map((r) => r.run_id), ['r-d']);
  assert.throws(() => selectWeakCases(cands, { quota: -1 }), /quota/);
});

test('the threshold is strict: a case exactly at it is not weak, one just below is', () => {
  const below = 0.59 - 2 ** -40;
  const records = [c('at', 'm1', 0.59), c('below', 'm1', below), c('above', 'm1', 0.6)];
  assert.deepEqual(selectWeakCases(records, { threshold: 0.59 }).selected.map((r) => r.run_id), ['below']);
  // The default threshold, the same way.
  assert.deepEqual(selectWeakCases([c('x', 'm1', DEFAULT_WEAK_THRESHOLD)]).selected, []);
});
