/**
 * Order agreement per model, condition and domain on the hand-worked analyze fixture (see the header
 * of fixture.test.ts: 34 pairs overall, five of them differ — d1/d2 m2 P0 tiny ∅ J ½, d3 m2 P0 tiny ABC
 * J 0, d8 m1 P0 tiny A J ½, d9 m1 P0 tiny AC J ½, d6 m2 P1 tiny C J 0; d4 (m1 P0 pair ∅, invalid) and
 * d5 (m1 P1 pair X, missing) leave their combinations without a pair).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadDomainDir } from '../../lib/kst';
import { loadResponses, orderAgreement } from '../../lib/analysis';
import { orderAgreementBy } from '../../lib/analysis/order-agreement';

const fixture = join(__dirname, '..', 'fixtures', 'analyze');
const records = loadResponses(join(fixture, 'responses.jsonl'), loadDomainDir(join(fixture, 'domains')));

const rounded = (rows: ReturnType<typeof orderAgreementBy>) =>
  rows.map((r) => [r.group, r.pairs, r.exact_agreement, r.mean_jaccard]);

test('per model: m1 16 pairs (2 differ), m2 18 pairs (3 differ)', () => {
  assert.deepEqual(rounded(orderAgreementBy(records, 'model')), [
    ['m1', 16, 14 / 16, 15 / 16],
    ['m2', 18, 15 / 18, 15.5 / 18],
  ]);
});

test('per condition: P0 17 pairs (4 differ), P1 17 pairs (1 differs)', () => {
  assert.deepEqual(rounded(orderAgreementBy(records, 'condition')), [
    ['P0', 17, 13 / 17, 14.5 / 17],
    ['P1', 17, 16 / 17, 16 / 17],
  ]);
});

test('per domain, and by a function of the record; groups add up to the overall agreement', () => {
  assert.deepEqual(rounded(orderAgreementBy(records, 'domain')), [
    ['pair', 10, 1, 1],
    ['tiny', 24, 19 / 24, 20.5 / 24],
  ]);
  const one = orderAgreementBy(records, () => 'all');
  const overall = orderAgreement(records);
  assert.deepEqual(one, [{ group: 'all', ...overall }]);
  assert.deepEqual([overall.pairs, overall.exact_agreement], [34, 29 / 34]);
});

test('a group with no combination answered under two orders has 0 pairs and null means', () => {
  const onlyInvalid = records.filter((r) => r.model === 'm1' && r.condition === 'P0' && r.stateKey === 'pair:{}');
  assert.deepEqual(orderAgreementBy(onlyInvalid, 'model'), [{ group: 'm1', pairs: 0, exact_agreement: null, mean_jaccard: null }]);
});
