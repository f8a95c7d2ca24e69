import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { pointerValue } from '../../lib/records/published-claims';
import { loadPublishedKst, parsePublishedKst } from '../../lib/records/published-kst';
import { ROOT } from './helpers';

const KST = join(ROOT, 'data', 'published', 'kst-benchmark-2026.json');
const kstJson = () => JSON.parse(readFileSync(KST, 'utf8'));
const rejects = (doc: unknown, pattern: RegExp) =>
  assert.throws(() => parsePublishedKst(JSON.stringify(doc), 'k.json'), (e: unknown) => e instanceof InputError && /^k\.json: /.test(e.message) && pattern.test(e.message));

test('the shipped KST published file parses under its schema, with a claims ledger', () => {
  const kst = loadPublishedKst(KST);
  assert.ok(kst.claims.length > 100);
  // The pointer of a claim reads the value printed elsewhere in the same file (one home per number).
  const c = kst.claims.find((x) => x.id === 'kst.table3.P0.exact')!;
  assert.equal(pointerValue(kst, c.value), 61.3);
  // Table 3 lists the four conditions in order; Table 4 cells are [percent, rank]
  assert.deepEqual(kst.table3.rows.map((r) => r.condition), ['P0', 'P1', 'P2', 'P3']);
  for (const row of kst.table4.rows) for (const cell of [row.P0, row.P1, row.P2, row.P3]) assert.ok(Number.isInteger(cell[1]) && cell[1] >= 1);
});

test('KST-specific fields are checked: condition names, rank cells, percent bounds, counts', () => {
  const badCondition = kstJson();
  badCondition.table3.rows[0].condition = 'P9';
  rejects(badCondition, /table3\.rows\[0\]\.condition/);
  const rankZero = kstJson();
  rankZero.table4.rows[0].P0[1] = 0;
  rejects(rankZero, /table4\.rows\[0\]\.P0\[1\]/);
  const overHundred = kstJson();
  overHundred.overall.exact = 101;
  rejects(overHundred, /overall\.exact/);
  const fractionalCount = kstJson();
  fractionalCount.design.states = 2.5;
  rejects(fractionalCount, /design\.states/);
  const unknownTop = kstJson();
  unknownTop.table9 = {};
  rejects(unknownTop, /table9/);
});
