/**
 * lib/simulation/psi-tutor/fit-evidence.ts: the fit's objective J decreases against the previous
 * (hand-tuned, version-2) habits. The 24 studies behind it are computed once by `npm run fit-evidence`
 * into data/replicates/psi-fit.json; here the stored file must be made from today's habits (both
 * fingerprints), every stored mean, sd, z and J must be what its per-replicate values give, J must have
 * fallen, and a re-run of one seeded replicate of each habit table must give the stored values exactly.
 * Each check is shown failing on a file made wrong on purpose: other habits, a stale replicate, an
 * edited number, a J that did not fall.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadPsiCourse } from '../../../lib/psi/schema';
import { loadPublishedPsi } from '../../../lib/records/published-psi';
import { FitEvidenceSchema, fitEvidenceText, loadFitEvidence, type FitEvidence } from '../../../lib/records/fit-evidence';
import { FIT_EVIDENCE_FILE, FIT_EVIDENCE_SEEDS, fitEvidenceProblems, habitsFingerprint } from '../../../lib/simulation/psi-tutor/fit-evidence';
import { psiFitRows, psiObjective } from '../../../lib/simulation/psi-tutor/fit';
import { TUTOR_PROFILES } from '../../../lib/simulation/psi-tutor/profiles';
import { TUTOR_PROFILES_V2 } from '../../../lib/simulation/psi-tutor/profiles-v2';

const root = join(__dirname, '..', '..', '..');
const course = loadPsiCourse(join(root, 'data/raw/psi'));
const published = loadPublishedPsi(join(root, 'data/published/psi-2026.json'));
const stored = loadFitEvidence(join(root, FIT_EVIDENCE_FILE));
const expectation = { published, baseline: TUTOR_PROFILES_V2, current: TUTOR_PROFILES };
/** Scoring is pure: the re-runs below share their scores. */
const scoreCache = new Map();
const copy = (): FitEvidence => FitEvidenceSchema.parse(JSON.parse(JSON.stringify(stored)));

test('the stored fit evidence is today\'s: fingerprints, targets, every number from its values, and J fell', () => {
  assert.deepEqual(fitEvidenceProblems(stored, expectation), []);
  assert.deepEqual(stored.seeds, FIT_EVIDENCE_SEEDS);
  assert.equal(stored.targets.length, 30);
  assert.ok(stored.current.objective < stored.baseline.objective, `J ${stored.current.objective} is not below ${stored.baseline.objective}`);
  // The file is what the writer makes of its own content (stable bytes, one schema for both ends).
  assert.equal(fitEvidenceText(stored), fitEvidenceText(copy()));
});

test('one seeded replicate of each habit table, re-run now, gives the stored values exactly', () => {
  assert.deepEqual(fitEvidenceProblems(stored, { ...expectation, rerun: { course, indices: [0], scoreCache } }), []);
});

test('other habits than the file was made from are refused (wrong habits, or habits changed since)', () => {
  const problems = fitEvidenceProblems(stored, { ...expectation, baseline: TUTOR_PROFILES });
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(problems[0]!, /^baseline \(version 2 \(hand-tuned\)\): made from habits with fingerprint [0-9a-f]{16}, not from the habits given .*stale/);
  const a = TUTOR_PROFILES['sim-tutor-a'];
  const nudged = { ...TUTOR_PROFILES, 'sim-tutor-a': { ...a, habits: { ...a.habits, hint: 0.99 } } };
  assert.notEqual(habitsFingerprint(nudged), habitsFingerprint(TUTOR_PROFILES));
  assert.match(fitEvidenceProblems(stored, { ...expectation, current: nudged }).join('\n'), /^current .*not from the habits given/);
});

test('a stale replicate (the simulator changed under the same habits) is caught by the re-run', () => {
  const stale = copy();
  stale.current.values[0]![5] = stale.current.values[0]![5]! + 1e-9;
  // Kept consistent on purpose, as a file written by an older simulator would be: rows and J from its
  // values, fingerprints unchanged. Only the re-run can tell.
  const rows = psiFitRows(published, stale.current.values);
  stale.current.rows = rows.map(({ target, expected, sd, z }) => ({ target, expected, sd, z }));
  stale.current.objective = psiObjective(rows);
  assert.deepEqual(fitEvidenceProblems(stale, expectation), []);
  const rerun = fitEvidenceProblems(stale, { ...expectation, rerun: { course, indices: [0], scoreCache } });
  assert.ok(rerun.some((p) => /^current .*replicate fresh1 re-run gives Table I S_SD ChatGPT = .*stored .*the simulator changed/.test(p)), rerun.join('\n'));
});

test('an edited number is caught: a mean, a J, a J that did not fall, targets of another ledger', () => {
  const mean = copy();
  mean.current.rows[0]!.expected = 0.638;
  assert.match(fitEvidenceProblems(mean, expectation).join('\n'), /current .*the stored row "Table I PSI ChatGPT" is not what its replicate values give/);
  const j = copy();
  j.baseline.objective = j.baseline.objective + 0.5;
  assert.match(fitEvidenceProblems(j, expectation).join('\n'), /baseline .*the stored J .* is not the Σ z² of its values/);
  const swapped = copy();
  [swapped.baseline, swapped.current] = [{ ...stored.current, label: stored.baseline.label }, { ...stored.baseline, label: stored.current.label }];
  const fell = fitEvidenceProblems(swapped, { ...expectation, baseline: TUTOR_PROFILES, current: TUTOR_PROFILES_V2 });
  assert.deepEqual(fell, [`the fit did not lower J: version 3 (fitted, shipped) ${stored.baseline.objective.toFixed(1)}, version 2 (hand-tuned) ${stored.current.objective.toFixed(1)}`]);
  const targets = copy();
  targets.targets[3]!.published = 0.5;
  assert.match(fitEvidenceProblems(targets, expectation)[0]!, /stored targets are not today's/);
});
