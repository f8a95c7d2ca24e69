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
