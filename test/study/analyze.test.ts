import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figure3Cell } from '../../lib/study/analyze';

const r = (model: string, domain: string, condition: 'P0' | 'P1', exact: number) => ({ model, domain, condition, scores: { exact } }) as never;

test('figure3Cell: the cell whose models differ most; ties to the first domain and condition; one model → most responses', () => {
  const scored = [r('a', 'x', 'P0', 1), r('b', 'x', 'P0', 1), r('a', 'x', 'P1', 1), r('b', 'x', 'P1', 0), r('a', 'y', 'P0', 1), r('b', 'y', 'P0', 0)];
  assert.deepEqual(figure3Cell(scored), { domain: 'x', condition: 'P1' });
  assert.deepEqual(figure3Cell([r('a', 'y', 'P0', 1), r('a', 'x', 'P1', 0), r('a', 'x', 'P1', 1)]), { domain: 'x', condition: 'P1' });
  assert.equal(figure3Cell([]), null);
});
