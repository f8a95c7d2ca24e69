import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditKstPaper, auditSummary } from '../../lib/audit';

const published = () => JSON.parse(readFileSync(join(__dirname, '..', '..', 'data', 'published', 'kst-benchmark-2026.json'), 'utf8'));

test('the published KST numbers agree with each other', () => {
  const checks = auditKstPaper(published());
  const failed = checks.filter((c) => !c.ok);
  assert.deepEqual(failed, []);
  const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
  // Worked by hand: Table 4 P0 column 76+60+62+57+51+62 = 368 → 368/600 = 61.33 %.
  assert.match(byId['table4-mean-P0']!.computed, /368\/600 = 61\.33 %/);
  // 368 + 377 + 578 + 589 = 1912 correct of 2400 = 79.67 %.
  assert.match(byId['overall-exact']!.computed, /1912\/2400 = 79\.67 %/);
  // 85.25 % of 1200 pairs = 1023 pairs.
  assert.match(byId['order-agreement']!.computed, /^1023 pairs/);
  // Domain overall counts 326 + 387 + 856 + 343 add up to the 1912 correct responses.
  assert.match(byId['domain-total']!.computed, /= 1912$/);
  assert.ok(checks.length >= 30);
});

test('the audit catches an inconsistent number', () => {
  const p = published();
  p.table3.rows[0].exact = 62.3; // Table 4's P0 column still sums to 368/600 = 61.33 %
  p.table4.rows[0].P2 = [98, 3]; // printed rank no longer matches the scores
  const failed = auditKstPaper(p).filter((c) => !c.ok).map((c) => c.id);
  assert.deepEqual(failed.sort(), ['table4-mean-P0', 'table4-ranks-P2'].sort());
});

test('auditSummary: the count line, then one INCONSISTENT line per failing check, in order (notebook 00)', () => {
  const check = (id: string, ok: boolean) => ({ id, where: `Table ${id}`, claim: `${id} printed`, computed: `${id} computed`, ok });
  assert.equal(auditSummary([check('a', true), check('b', true)]), '2 checks, 2 consistent, 0 inconsistent');
  assert.equal(
    auditSummary([check('a', false), check('b', true), check('c', false)]),
    '3 checks, 1 consistent, 2 inconsistent\nINCONSISTENT a (Table a): a printed vs a computed\nINCONSISTENT c (Table c): c printed vs c computed',
  );
  assert.equal(auditSummary([]), '0 checks, 0 consistent, 0 inconsistent');
});
