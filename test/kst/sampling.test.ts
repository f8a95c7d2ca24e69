import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { SAMPLING_SCHEME, checkState, enumerateStates, sampleStates } from '../../lib/kst';
import { randomSparseDomain, tiny } from './random-poset';

test('sample is deterministic for a seed, records its scheme and parameters, weights sum to 1', () => {
  const d = tiny(['A', 'B', 'C', 'D'], [['A', 'B'], ['A', 'C']]);
  const a = sampleStates(d, { size: 50, seed: 'alpha' });
  const b = sampleStates(d, { size: 50, seed: 'alpha' });
  assert.deepEqual(a, b);
  assert.equal(a.scheme, SAMPLING_SCHEME);
  assert.equal(a.seed, 'alpha');
  assert.equal(a.draws, 50);
  assert.equal(a.burnIn, 1000);
  assert.equal(a.thin, 8);
  assert.equal(a.counts.reduce((x, y) => x + y, 0), 50);
  assert.ok(Math.abs(a.weights.reduce((x, y) => x + y, 0) - 1) < 1e-12);
  a.weights.forEach((w, i) => assert.equal(w, a.counts[i]! / 50));
  for (const state of a.states) assert.equal(checkState(d, state).ok, true);
  assert.notDeepEqual(sampleStates(d, { size: 50, seed: 'beta' }).counts, a.counts);
});

test('states are distinct and sorted by size then canonical index', () => {
  const d = tiny(['A', 'B', 'C'], []);
  const s = sampleStates(d, { size: 400, seed: 'sorted' });
  assert.deepEqual(s.states, enumerateStates(d), 'all 8 states of a 3-antichain are hit in 400 draws');
});

test('draws are close to uniform over the states (chi-square, 11-state domain)', () => {
  // Slope-like 7-component order with 11 states.
  const d = tiny(['1', '2', '3', '4', '5', '6', '7'], [['1', '2'], ['2', '3'], ['1', '4'], ['3', '5'], ['4', '5'], ['5', '6'], ['5', '7']]);
  const all = enumerateStates(d);
  assert.equal(all.length, 11);
  const draws = 22000;
  const s = sampleStates(d, { size: draws, seed: 'uniformity', thin: 40 });
  assert.equal(s.states.length, 11);
  const expected = draws / 11;
  const chi2 = s.counts.reduce((t, c) => t + (c - expected) ** 2 / expected, 0);
  // 10 degrees of freedom: P(χ² > 29.6) ≈ 0.001 for independent draws.
  assert.ok(chi2 < 29.6, `chi-square ${chi2.toFixed(1)} too large: counts ${s.counts}`);
});

test('sampling works on a 5,000-task DAG and every sampled set is a state', () => {
  const d = randomSparseDomain('sample-big', 5000, 4);
  const s = sampleStates(d, { size: 20, seed: 'big', burnIn: 50_000, thin: 5000 });
  assert.equal(s.counts.reduce((x, y) => x + y, 0), 20);
  for (const state of s.states) assert.equal(checkState(d, state).ok, true);
  assert.ok(s.states.some((state) => state.length > 100), 'the chain moves far from the empty start');
});

test('bad options raise InputError', () => {
  const d = tiny(['A'], []);
  assert.throws(() => sampleStates(d, { size: 0, seed: 'x' }), InputError);
  assert.throws(() => sampleStates(d, { size: 2.5, seed: 'x' }), InputError);
  assert.throws(() => sampleStates(d, { size: 1, seed: 'x', thin: 0 }), InputError);
  assert.throws(() => sampleStates(d, { size: 1, seed: 'x', burnIn: -1 }), InputError);
});
