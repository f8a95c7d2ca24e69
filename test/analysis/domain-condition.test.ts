import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainCondition } from '../../lib/analysis/domain-condition';
import { scoredRecord as rec } from './helpers';

test('domainCondition: exact accuracy per domain × condition, domains by ID, conditions canonical, empty cells absent', () => {
  const rows = domainCondition([
    rec({ domain: 'zeta', condition: 'P3' }, { exact: 1 }),
    rec({ domain: 'alpha', condition: 'P1' }, { exact: 0 }),
    rec({ domain: 'alpha', condition: 'P0' }, { exact: 1 }),
    rec({ domain: 'alpha', condition: 'P1' }, { exact: 1 }),
    rec({ domain: 'alpha', condition: 'P1' }, { exact: 1 }),
  ]);
  assert.deepEqual(rows, [
    { domain: 'alpha', condition: 'P0', n: 1, exact: 1 },
    { domain: 'alpha', condition: 'P1', n: 3, exact: 2 / 3 },
    { domain: 'zeta', condition: 'P3', n: 1, exact: 1 },
  ]);
});
