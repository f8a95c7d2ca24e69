/**
 * Work budgets and exact counts: counting is BigInt end to end (checked against BigInt products of
 * chains), the split and the union-closure walk are charged to a budget whose error names the flag,
 * and the algorithms whose depth grew with the input (enumeration, counting, cycle detection,
 * presentation orders) now run iteratively on inputs that broke them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import seedrandom from 'seedrandom';
import { InputError } from '../../lib/errors';
import {
  BudgetError,
  buildDomain,
  compileStructure,
  countForJson,
  countStates,
  countStatesExact,
  forEachStateBits,
  presentationOrders,
  requireBudget,
  spend,
  workBudget,
  type DomainFile,
} from '../../lib/kst';

const comp = (id: string) => ({ id, description: id });

/** Disjoint chains of the given lengths (a chain of l tasks has l + 1 states; the space is the product). */
function chains(lengths: readonly number[]): DomainFile {
  const components: Array<{ id: string; description: string }> = [];
  const prerequisites: Array<[string, string]> = [];
  lengths.forEach((l, c) => {
    for (let i = 0; i < l; i++) {
      components.push(comp(`c${c}_${i}`));
      if (i > 0) prerequisites.push([`c${c}_${i - 1}`, `c${c}_${i}`]);
    }
  });
  return { id: 'chains', title: 'chains', source: 'test', components, prerequisites };
}

/** Items i0..i(k−1), each its own basis element, and x with one atom {x, i_j} per item: not quasi-ordinal, connected. */
function routes(k: number): DomainFile {
  const items = Array.from({ length: k }, (_, i) => `i${i}`);
  return { id: 'routes', title: 'r', source: 't', components: [...items, 'x'].map(comp), basis: [...items.map((i) => [i]), ...items.map((i) => [i, 'x'])] };
}

const product = (lengths: readonly number[]): bigint => lengths.reduce((t, l) => t * BigInt(l + 1), 1n);

test('counts of products of chains equal the BigInt product: 2^64, 3^40, 2^1100, and seeded random mixes', () => {
  assert.equal(countStatesExact(buildDomain(chains(Array(64).fill(1)))), 2n ** 64n);
  assert.equal(countStatesExact(buildDomain(chains(Array(40).fill(2)))), 3n ** 40n);
  assert.equal(countStatesExact(buildDomain(chains(Array(1100).fill(1)))), 2n ** 1100n);
  const rng = seedrandom('chain-products');
  for (let k = 0; k < 20; k++) {
    const lengths = Array.from({ length: 1 + Math.floor(rng() * 40) }, () => 1 + Math.floor(rng() * 30));
    assert.equal(countStatesExact(buildDomain(chains(lengths))), product(lengths), `chains ${lengths.join(',')}`);
  }
  // The same through the basis form (not quasi-ordinal code path): 70 independent pairs of equivalent items.
  const components = Array.from({ length: 140 }, (_, i) => comp(`i${i}`));
  const basis = Array.from({ length: 70 }, (_, i) => [`i${2 * i}`, `i${2 * i + 1}`]);
  assert.equal(countStatesExact(buildDomain({ id: 'pairs', title: 'p', source: 't', components, basis })), 2n ** 70n);
});

test('countStates (number) is refused above 2^53 instead of rounding; JSON carries big counts as digit strings', () => {
  assert.throws(() => countStates(buildDomain(chains(Array(64).fill(1)))), /18446744073709551616 states is above 2\^53/);
  assert.equal(countStates(buildDomain(chains([3, 4]))), 20);
  assert.equal(countForJson(2n ** 53n - 1n), 9007199254740991);
  assert.equal(countForJson(2n ** 64n), '18446744073709551616');
});

test('a chain of 8,000 tasks is counted (8,001) and one of 12,000 enumerated, with no recursion that deep', () => {
  assert.equal(countStatesExact(buildDomain(chains([8_000]))), 8_001n);
  const s = compileStructure(buildDomain(chains([12_000])));
  let largest = 0;
  assert.equal(
    forEachStateBits(s, (bits) => {
      largest = Math.max(largest, bits.reduce((t, w) => t + (w === 0 ? 0 : 1), 0));
    }),
    12_001,
  );
  assert.equal(largest, Math.ceil(12_000 / 32), 'the last state is the whole chain');
});

test('budgets: spend and requireBudget throw a BudgetError naming the flag; counting stops at the budget', () => {
  const budget = workBudget(10, '--max-states');
  spend(budget, 10, 'x');
  assert.throws(() => spend(budget, 1, 'counting x'), (err: unknown) => err instanceof BudgetError && /counting x needs more than 10 steps, over the work budget --max-states 10; raise --max-states/.test((err as Error).message));
  assert.throws(() => requireBudget(workBudget(5), 6n, 'streaming 6 states'), /streaming 6 states needs 6 steps/);
  requireBudget(workBudget(0), 2n ** 100n, 'anything'); // 0 = no limit
  // A connected space that is not quasi-ordinal (x has 40 atoms {x, i_k}), about 2^41 states: the walk stops at the budget.
  const wide = buildDomain(routes(40));
  assert.throws(() => countStatesExact(wide, workBudget(1000)), BudgetError);
  assert.equal(countStatesExact(buildDomain(routes(8))), 2n ** 8n + (2n ** 8n - 1n));
  // A quasi-ordinal count that must split (an a×b grid has C(a+b, a) down-sets): charged per split.
  const grid = (a: number, b: number): DomainFile => {
    const id = (i: number, j: number) => `g${i}_${j}`;
    const components = [];
    const prerequisites: Array<[string, string]> = [];
    for (let i = 0; i < a; i++) {
      for (let j = 0; j < b; j++) {
        components.push(comp(id(i, j)));
        if (i > 0) prerequisites.push([id(i - 1, j), id(i, j)]);
        if (j > 0) prerequisites.push([id(i, j - 1), id(i, j)]);
      }
    }
    return { id: 'grid', title: 'g', source: 't', components, prerequisites };
  };
  assert.equal(countStatesExact(buildDomain(grid(3, 30)), workBudget(50_000_000)), 5456n); // C(33, 3)
  assert.throws(() => countStatesExact(buildDomain(grid(3, 30)), workBudget(3)), BudgetError);
});

test('a 200,000-task prerequisite cycle is reported on one short line (no stack overflow, no 2 MB message)', () => {
  const n = 200_000;
  const components = Array.from({ length: n }, (_, i) => comp(`Y${i}`));
  const prerequisites: Array<[string, string]> = components.map((_, i) => [`Y${i}`, `Y${(i + 1) % n}`]);
  assert.throws(
    () => buildDomain({ id: 'cy', title: 'c', source: 't', components, prerequisites }),
    (err: unknown) => err instanceof InputError && /prerequisite cycle Y0 -> Y1 .* more … .* -> Y0 \(200000 components\)/.test(err.message) && err.message.length < 300,
  );
});

test('presentation orders are drawn in one pass: 24 orders of a domain in well under a second, same as drawing each alone', () => {
  const d = buildDomain(chains([6, 5]));
  const started = Date.now();
  const orders = presentationOrders(d, 24);
  assert.ok(Date.now() - started < 1000, 'the recursive draw took 2^k steps');
  assert.equal(new Set(orders.map((o) => o.positions.join(','))).size, 24);
  const again = presentationOrders(d, 3);
  assert.deepEqual(again.map((o) => o.positions), orders.slice(0, 3).map((o) => o.positions));
});
