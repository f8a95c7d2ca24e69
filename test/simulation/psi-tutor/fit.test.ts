/**
 * lib/simulation/psi-tutor/fit.ts: the objective J over the 30 calibration targets, the coordinates the
 * search moves, and the score cache the search relies on (a cached re-run gives the same study).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPsiCourse } from '../../../lib/psi/schema';
import { TUTOR_PROFILES } from '../../../lib/simulation/psi-tutor/profiles';
import { simulatePsiStudy } from '../../../lib/simulation/psi-tutor/study';
import { PSI_FIT_COORDINATES, psiFitTable, psiObjective, type PsiFitPublished } from '../../../lib/simulation/psi-tutor/fit';

const root = join(__dirname, '..', '..', '..');
const course = loadPsiCourse(join(root, 'data/raw/psi'));
const published = JSON.parse(readFileSync(join(root, 'data/published/psi-2026.json'), 'utf8')) as PsiFitPublished;

test('the objective sums z² over the 30 targets, each z with the sd floored at half a printed unit', () => {
  const rows = psiFitTable(course, published, TUTOR_PROFILES, 2, 'heldout');
  assert.equal(rows.length, 30);
  assert.equal(new Set(rows.map((r) => r.target)).size, 30);
  for (const r of rows) assert.ok(Math.abs(r.z - (r.expected - r.published) / Math.max(r.sd, 0.5 * 10 ** -r.decimals)) < 1e-12, r.target);
  assert.ok(Math.abs(psiObjective(rows) - rows.reduce((s, r) => s + r.z ** 2, 0)) < 1e-9);
  // S_EF depends on scenario metadata only, so its sd is 0 and the floor (0.0005) divides.
  assert.equal(rows.find((r) => r.target === 'Table I S_EF')!.sd, 0);
  assert.equal(rows.find((r) => r.target === 'Table IV selected')!.published, 62);
});

test('a coordinate moves only its own habits, clamped to [0, 1]', () => {
  const a = TUTOR_PROFILES['sim-tutor-a'];
  const p = PSI_FIT_COORDINATES.scaffolding!(a, 2);
  assert.equal(p.habits.steps, 1);
  assert.equal(p.habits.hint, 1);
  assert.equal(p.habits.recap, a.habits.recap);
  assert.deepEqual(p.regeneration, a.regeneration);
  assert.equal(PSI_FIT_COORDINATES.complianceSd!(a, 0.5).regeneration.compliance.sd, Math.round(a.regeneration.compliance.sd * 0.5 * 1e4) / 1e4);
});

test('habits passed to the study are the ones used, and a shared score cache changes nothing', () => {
  const plain = simulatePsiStudy(course, { seed: 'heldout1' });
  const cache = new Map();
  const cached = simulatePsiStudy(course, { seed: 'heldout1', habits: TUTOR_PROFILES, scoreCache: cache });
  assert.deepEqual(cached.round1.map((r) => r.psi), plain.round1.map((r) => r.psi));
  assert.ok(cache.size > 0);
  const moved = simulatePsiStudy(course, { seed: 'heldout1', habits: { 'sim-tutor-a': PSI_FIT_COORDINATES.scaffolding!(TUTOR_PROFILES['sim-tutor-a'], 0) }, scoreCache: cache });
  const sd = (s: typeof plain) => s.round1.filter((r) => r.model === 'simulated:sim-tutor-a').reduce((t, r) => t + r.subscores.sd, 0);
  assert.ok(sd(moved) < sd(plain), 'no scaffolding must lower sim-tutor-a\'s S_SD');
  assert.deepEqual(moved.round1.filter((r) => r.model !== 'simulated:sim-tutor-a').map((r) => r.psi), plain.round1.filter((r) => r.model !== 'simulated:sim-tutor-a').map((r) => r.psi));
});

test('the level knob (judgingFraming) moves S_RA and never S_SD; at 0 it leaves every text as it was', () => {
  const b = TUTOR_PROFILES['sim-tutor-b'];
  const spec = 'simulated:sim-tutor-b';
  const at = (x: number) => simulatePsiStudy(course, { seed: 'heldout1', habits: { 'sim-tutor-b': { ...b, habits: { ...b.habits, judgingFraming: x } } } }).round1.filter((r) => r.model === spec);
  const none = at(0);
  const all = at(1);
  assert.deepEqual(none.map((r) => r.subscores.sd), all.map((r) => r.subscores.sd));
  assert.ok(none.some((r, i) => r.subscores.ra !== all[i]!.subscores.ra), 'the judging framing must move S_RA somewhere');
  assert.ok(none.some((r, i) => r.text !== all[i]!.text));
  // The coordinate is additive from 0 (a multiplier could not move it), clamped to [0, 1].
  assert.equal(PSI_FIT_COORDINATES.judgingFraming!({ ...b, habits: { ...b.habits, judgingFraming: 0 } }, 1.25).habits.judgingFraming, 0.25);
  assert.equal(PSI_FIT_COORDINATES.judgingFraming!({ ...b, habits: { ...b.habits, judgingFraming: 0.1 } }, 0.8).habits.judgingFraming, 0);
});
