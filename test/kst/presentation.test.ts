import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import { buildDomain, loadDomain, presentation, presentationOrders, presentationSeed } from '../../lib/kst';
import { join } from 'node:path';
import { tiny } from './random-poset';

const d = tiny(['A', 'B', 'C', 'D', 'E', 'F'], [['A', 'B']], 'slope');

test('seed is SHA-256 hex of kstbench:<id>:order:<k>', () => {
  const expected = createHash('sha256').update('kstbench:slope:order:1').digest('hex');
  assert.equal(presentationSeed('slope', 1), expected);
  assert.match(expected, /^[0-9a-f]{64}$/);
  const [first, second] = presentationOrders(d);
  assert.equal(first!.seed, expected);
  assert.equal(second!.seed, createHash('sha256').update('kstbench:slope:order:2').digest('hex'));
  assert.equal(first!.order, 1);
  assert.equal(second!.order, 2);
  assert.equal(first!.domain, 'slope');
});

test('permutation is Fisher–Yates driven by seedrandom(seed), written out independently', () => {
  for (const k of [1, 2, 3]) {
    const seed = createHash('sha256').update(`kstbench:slope:order:${k}`).digest('hex');
    const rng = seedrandom(seed);
    const items = ['A', 'B', 'C', 'D', 'E', 'F'];
    for (let i = 5; i >= 1; i--) {
      const j = Math.floor(rng() * (i + 1));
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    }
    assert.deepEqual(presentation(d, k).positions, items);
  }
});

test('positions are a permutation; toPosition and toId are inverse and 1-based', () => {
  const orders = presentationOrders(d, 3);
  assert.equal(orders.length, 3);
  for (const p of orders) {
    assert.deepEqual([...p.positions].sort(), d.ids);
    for (const id of d.ids) assert.equal(p.toId(p.toPosition(id)), id);
    assert.equal(p.toPosition(p.positions[0]!), 1);
    assert.equal(p.toId(6), p.positions[5]);
  }
  assert.notDeepEqual(orders[0]!.positions, orders[1]!.positions, 'two orders differ for this domain');
  assert.deepEqual(presentationOrders(d)[0]!.positions, orders[0]!.positions, 'deterministic');
});

test('unknown IDs and out-of-range positions raise InputError', () => {
  const [p] = presentationOrders(d, 1);
  for (const bad of [0, 7, 1.5, Number.NaN]) assert.throws(() => p!.toId(bad), InputError);
  assert.throws(() => p!.toPosition('Z'), (e: unknown) => e instanceof InputError && /"Z"/.test(e.message));
  assert.throws(() => presentationOrders(d, 0), InputError);
  assert.throws(() => presentation(d, 0), InputError);
});

test('an order that repeats an earlier permutation is redrawn while distinct orders exist', () => {
  // For id "duo" the plain seeds of orders 1 and 2 both give X,Y (checked by hand), so order 2 is redrawn.
  const pair = buildDomain({ id: 'duo', title: 'Duo', source: 't', components: [{ id: 'X', description: 'x' }, { id: 'Y', description: 'y' }], prerequisites: [] });
  const [first, second] = presentationOrders(pair, 2);
  assert.deepEqual(first!.positions, ['X', 'Y']);
  assert.deepEqual(second!.positions, ['Y', 'X']);
  // Redraws 1 and 2 also give X,Y; redraw 3 is the first to give Y,X (worked out from the seeds).
  assert.equal(second!.seed, presentationSeed('duo', 2, 3));
  // Only two permutations exist: a third order necessarily repeats one and is taken as drawn.
  const third = presentationOrders(pair, 3)[2]!;
  assert.equal(third.seed, createHash('sha256').update('kstbench:duo:order:3').digest('hex'));
  // The redraw rule never fires for the study domains' two orders (their seeds are the plain ones).
  for (const file of ['linear-modelling', 'slope', 'graph-to-equation', 'equation-to-graph']) {
    const d = loadDomain(join(__dirname, '..', '..', 'data', 'raw', 'domains', `${file}.json`));
    presentationOrders(d).forEach((p, i) => assert.equal(p.seed, createHash('sha256').update(`kstbench:${d.id}:order:${i + 1}`).digest('hex')));
  }
});
