/**
 * lib/claims/psi.ts: PSI claims rebuilt from the course files and records. Here the design claims on the
 * hand-made course of test/fixtures/psi (S01: target Apply, defects too short + keyword only; S02:
 * target Understand, defects wrong terminology + missing context; 7 concepts), worked by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ClaimEntry } from '../../lib/records/published-claims';
import { loadPublishedPsi } from '../../lib/records/published-psi';
import { PSI_REBUILDS, psiClaimRows } from '../../lib/claims/psi';
import { fixtureCourse } from '../psi/helpers';

const published = loadPublishedPsi(join(__dirname, '..', '..', 'data/published/psi-2026.json'));

test('every rebuilt PSI claim has exactly one rebuild, every rebuild serves a claim, and reasons are not used for rebuildable claims', () => {
  for (const c of published.claims as readonly ClaimEntry[]) {
    const hits = PSI_REBUILDS.filter(([re]) => re.test(c.id)).length;
    if (c.rebuilt) assert.ok(hits >= 1, `claim ${c.id}: no rebuild matches it`);
    else assert.equal(hits, 0, `claim ${c.id} says it is not rebuildable, but a rebuild matches it`);
  }
  for (const [re] of PSI_REBUILDS) assert.ok(published.claims.some((c) => c.rebuilt && re.test(c.id)), `rebuild ${re} serves no claim`);
});

test('the design claims on the fixture course: scenarios, Bloom targets, defect categories, concepts, records', () => {
  const rows = psiClaimRows({ published, course: fixtureCourse(), round1: [], round2: [] }, { cells: ['claims-design'] });
  const computed = Object.fromEntries(rows.map((r) => [r.id, r.computed]));
  assert.equal(computed['psi.design.scenarios'], '2');
  assert.equal(computed['psi.design.concepts'], '7');
  assert.equal(computed['psi.design.round1'], '0');
  assert.deepEqual(
    ['remember', 'understand', 'apply', 'analyze'].map((l) => computed[`psi.design.bloom.${l}`]),
    ['0', '1', '1', '0'],
  );
  assert.deepEqual(
    ['too_short', 'keyword_only', 'wrong_terminology', 'missing_context', 'code_dump', 'unclear_goal'].map((d) => computed[`psi.design.defect.${d}`]),
    ['1', '1', '1', '1', '0', '0'],
  );
  // Printed beside them: the paper's 30 scenarios; no records means nothing is simulated, so it differs.
  const scenarios = rows.find((r) => r.id === 'psi.design.scenarios')!;
  assert.deepEqual([scenarios.printed, scenarios.status, scenarios.cell], ['30', 'differs', 'notebooks/11-psi-round1.ipynb#claims-design']);
  assert.ok(rows.every((r) => r.cell === 'notebooks/11-psi-round1.ipynb#claims-design'));
});

test('Table VI: without ratings the two claims stay not rebuildable; with a hand-made ratings file they are rebuilt by the rule', async () => {
  const { loadRatings } = await import('../../lib/psi/ratings');
  const { psiRatingsClaimRows, PSI_RATINGS_REBUILDS } = await import('../../lib/claims/psi');
  const ids = ['psi.table6.weaknesses-resolved', 'psi.table6.meaningful-improvement'];
  const without = psiClaimRows({ published, course: fixtureCourse(), round1: [], round2: [] }).filter((r) => ids.includes(r.id));
  assert.deepEqual(without.map((r) => r.status), ['not rebuildable', 'not rebuildable']);
  // Every entry marked rebuilt_with_ratings has its rebuild, and every rebuild serves one.
  const marked = published.claims.filter((c) => c.rebuilt_with_ratings).map((c) => c.id);
  assert.deepEqual(marked, ids);
  for (const [re] of PSI_RATINGS_REBUILDS) assert.ok(marked.some((id) => re.test(id)), `${re} serves no claim`);

  const file = join(__dirname, '..', 'fixtures', 'psi', 'ratings-table6.json');
  const given = { ratings: loadRatings(file), file };
  const all = psiClaimRows({ published, course: fixtureCourse(), round1: [], round2: [], ratings: given });
  assert.equal(all.length, published.claims.length, 'the rated rows replace the not-rebuildable ones in place');
  const rows = all.filter((r) => ids.includes(r.id));
  // 8/10 = 80.0 against the printed 82.3 and 7/10 = 70.0 against 74.2: real ratings, so the plain rule: differs.
  assert.deepEqual(rows.map((r) => [r.id, r.computed.split(' ')[0], r.printed, r.status]), [
    ['psi.table6.weaknesses-resolved', '80.00', '82.3', 'differs'],
    ['psi.table6.meaningful-improvement', '70.00', '74.2', 'differs'],
  ]);
  assert.equal(rows[0]!.cell, 'notebooks/13-psi-sensitivity-and-ratings.ipynb#claims-table6');
  // A file whose rates print as the paper's: match.
  const matching = { ...given.ratings, ratings: Array.from({ length: 62 }, (_, i) => ({ rater: 'I1', run_id: `c${i}`, weaknesses_resolved: i < 51, meaningful_improvement: i < 46 })) };
  assert.deepEqual(psiRatingsClaimRows(published, { ratings: matching, file }).map((r) => [r.computed.split(' ')[0], r.status]), [
    ['82.26', 'match'],
    ['74.19', 'match'],
  ]);
  // Only the cell named for them gets them when cells are asked for.
  assert.deepEqual(psiRatingsClaimRows(published, given, { cells: ['claims-table1'] }), []);
  assert.equal(psiRatingsClaimRows(published, given, { cells: ['claims-table6'] }).length, 2);
  // Simulated ratings have no spread to judge by: a clear error naming the file and the field.
  assert.throws(() => psiRatingsClaimRows(published, { ratings: { ...given.ratings, simulated: true }, file }), /ratings-table6\.json: simulated: the ratings say they are simulated/);
});
