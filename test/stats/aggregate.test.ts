import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { pairedDifferences, stateMeans } from '../../lib/stats';

interface Row { domain: string; state: string; model: string; exact: number }

test('stateMeans gives every state one mean over its models and orders', () => {
  const rows: Row[] = [
    { domain: 'slope', state: 's1', model: 'm1', exact: 1 },
    { domain: 'slope', state: 's1', model: 'm2', exact: 0 },
    { domain: 'slope', state: 's2', model: 'm1', exact: 1 },
    { domain: 'slope', state: 's1', model: 'm3', exact: 1 },
    { domain: 'slope', state: 's2', model: 'm2', exact: 1 },
  ];
  const means = stateMeans(rows, { state: (r) => `${r.domain}/${r.state}`, value: (r) => r.exact });
  assert.deepEqual([...means], [['slope/s1', 2 / 3], ['slope/s2', 1]]);
});

test('stateMeans rejects a non-finite value naming the record and state', () => {
  assert.throws(
    () => stateMeans([{ s: 'a', v: 1 }, { s: 'b', v: Number.NaN }], { state: (r) => r.s, value: (r) => r.v }),
    (err: unknown) => err instanceof InputError && /record 1 \(state b\)/.test(err.message),
  );
});

test('pairedDifferences pairs keys present in both, sorted, first minus second', () => {
  const first = new Map([['b', 1], ['a', 0.5], ['c', 1]]);
  const second = new Map([['a', 0.25], ['b', 1], ['d', 0]]);
  assert.deepEqual(pairedDifferences(first, second), {
    keys: ['a', 'b'],
    differences: [0.25, 0],
    onlyInFirst: ['c'],
    onlyInSecond: ['d'],
  });
});
