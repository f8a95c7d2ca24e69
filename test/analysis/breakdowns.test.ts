import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellLeaders, consistentLeaders, domainAccuracy, modelAverages, modelDomainCondition, overallMeans } from '../../lib/analysis/breakdowns';
import type { ScoredRecord } from '../../lib/analysis/score';
import type { Table4Row } from '../../lib/analysis/table4';

// A minimal scored record: only the fields the breakdowns read.
const rec = (model: string, domain: string, condition: 'P0' | 'P1', exact: 0 | 1, f1: number = exact): ScoredRecord =>
  ({ model, domain, condition, scores: { exact, precision: f1, recall: f1, f1, jaccard: f1 } }) as unknown as ScoredRecord;

// Two models, two domains, two conditions; worked by hand below.
const scored = [
  rec('a', 'd1', 'P0', 1), rec('a', 'd1', 'P0', 1), rec('b', 'd1', 'P0', 1), rec('b', 'd1', 'P0', 0),
  rec('a', 'd1', 'P1', 0), rec('a', 'd1', 'P1', 1), rec('b', 'd1', 'P1', 1), rec('b', 'd1', 'P1', 0),
  rec('a', 'd2', 'P0', 0), rec('a', 'd2', 'P0', 0), rec('b', 'd2', 'P0', 1), rec('b', 'd2', 'P0', 0, 0.5),
];

test('overall means and domain accuracy pool every response', () => {
  const o = overallMeans(scored);
  assert.equal(o.n, 12);
  assert.equal(o.exact, 6 / 12);
  assert.equal(o.f1, 6.5 / 12);
  assert.deepEqual(domainAccuracy(scored), [
    { domain: 'd1', n: 8, exact: 5 / 8 },
    { domain: 'd2', n: 4, exact: 1 / 4 },
  ]);
});

test('model × domain × condition: accuracy and competition rank within each cell', () => {
  const rows = modelDomainCondition(scored);
  const get = (m: string, d: string, c: string) => rows.find((r) => r.model === m && r.domain === d && r.condition === c)!;
  assert.deepEqual([get('a', 'd1', 'P0').exact, get('a', 'd1', 'P0').rank], [1, 1]);
  assert.deepEqual([get('b', 'd1', 'P0').exact, get('b', 'd1', 'P0').rank], [0.5, 2]);
  // d1 × P1: both 1/2 → a shared first place.
  assert.deepEqual([get('a', 'd1', 'P1').rank, get('b', 'd1', 'P1').rank], [1, 1]);
  assert.deepEqual([get('a', 'd2', 'P0').rank, get('b', 'd2', 'P0').rank], [2, 1]);
  assert.equal(rows.length, 6);
});

test('leaders per cell count shared first places; nobody leads all three cells here', () => {
  const rows = modelDomainCondition(scored);
  const leaders = cellLeaders(rows);
  assert.deepEqual(leaders.find((l) => l.domain === 'd1' && l.condition === 'P1')!.leaders, ['a', 'b']);
  const c = consistentLeaders(rows);
  assert.equal(c.cells, 3);
  assert.deepEqual(c.cellsLed, { a: 2, b: 2 });
  assert.deepEqual(c.everywhere, []);
  // Drop the cell b wins: now a leads every remaining cell (d1 × P1 jointly).
  assert.deepEqual(consistentLeaders(rows.filter((r) => r.domain === 'd1')).everywhere, ['a']);
});

test('model averages weight each condition equally', () => {
  const t4 = [
    { model: 'x', condition: 'P0', n: 100, exact: 0.76, rank: 1 },
    { model: 'x', condition: 'P1', n: 100, exact: 0.7, rank: 1 },
    { model: 'x', condition: 'P2', n: 100, exact: 0.98, rank: 4 },
    { model: 'x', condition: 'P3', n: 100, exact: 1, rank: 1 },
  ] as Table4Row[];
  const [avg] = modelAverages(t4);
  assert.equal(avg!.conditions, 4);
  assert.ok(Math.abs(avg!.average - 0.86) < 1e-12); // (76 + 70 + 98 + 100) / 4 = 86 %
});
