/**
 * lib/simulation/psi-tutor/fit.ts: the objective over the 30 targets, and the fit's gain: the shipped
 * (version 3, fitted) habits have a lower J than the hand-tuned version-2 habits they replaced
 * (test/fixtures/psi/tutor-profiles-v2.json), on seeds the search never used (`heldout1` …).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPsiCourse } from '../../../lib/psi/schema';
import { TUTOR_PROFILES, type TutorProfile, type TutorProfileId } from '../../../lib/simulation/psi-tutor/profiles';
import { PSI_FIT_COORDINATES, psiFitTable, psiObjective, type PsiFitPublished } from '../../../lib/simulation/psi-tutor/fit';

const root = join(__dirname, '..', '..', '..');
const course = loadPsiCourse(join(root, 'data/raw/psi'));
const published = JSON.parse(readFileSync(join(root, 'data/published/psi-2026.json'), 'utf8')) as PsiFitPublished;
const v2 = JSON.parse(readFileSync(join(root, 'test/fixtures/psi/tutor-profiles-v2.json'), 'utf8')) as Record<TutorProfileId, TutorProfile>;

test('the objective sums z² over the 30 targets, each z with the sd floored at half a printed unit', () => {
  const rows = psiFitTable(course, published, TUTOR_PROFILES, 2, 'heldout');
  assert.equal(rows.length, 30);
  for (const r of rows) assert.ok(Math.abs(r.z - (r.expected - r.published) / Math.max(r.sd, 0.5 * 10 ** -r.decimals)) < 1e-12, r.target);
  assert.ok(Math.abs(psiObjective(rows) - rows.reduce((s, r) => s + r.z ** 2, 0)) < 1e-9);
  // S_EF is the same for every text here, so its sd is 0 and the floor (0.0005) is what divides.
  const ef = rows.find((r) => r.target === 'Table I S_EF')!;
  assert.equal(ef.sd, 0);
});

test('a coordinate moves only its own habits, clamped to [0, 1]', () => {
  const p = PSI_FIT_COORDINATES.scaffolding!(v2['sim-tutor-a'], 2);
  assert.equal(p.habits.steps, 1);
  assert.equal(p.habits.hint, 1);
  assert.equal(p.habits.recap, v2['sim-tutor-a'].habits.recap);
  assert.deepEqual(p.regeneration, v2['sim-tutor-a'].regeneration);
});

test('the fit lowers the objective against the hand-tuned version-2 habits, on seeds the search did not use', () => {
  const before = psiObjective(psiFitTable(course, published, v2, 3, 'heldout'));
  const after = psiObjective(psiFitTable(course, published, TUTOR_PROFILES, 3, 'heldout'));
  assert.ok(after < before, `J after ${after.toFixed(2)} is not below J before ${before.toFixed(2)}`);
});
