import { test } from 'node:test';
import assert from 'node:assert/strict';
import { anySimulated, markSimulated, simulatedNotice, simulatedShare } from '../../lib/report/simulated';

const sim = { simulated: true };
const real = { simulated: false };

test('simulatedNotice: the same notice for both studies, naming what the records are and who wrote them', () => {
  assert.equal(
    simulatedNotice([sim, sim, sim], { what: 'records of round1.jsonl', study: 'psi' }),
    "**Simulated data.** All 3 records of round1.jsonl come from this project's seeded simulated tutors, not from a language model. Every number, table and figure below describes that simulation; the paper's published values are set beside them for comparison only.",
  );
  assert.equal(
    simulatedNotice(Array.from({ length: 2400 }, () => sim)),
    "**Simulated data.** All 2,400 responses in this input come from the seeded simulated respondent, not from a language model. Every number, table and figure below describes that simulation; the paper's published values are set beside them for comparison only.",
  );
  assert.equal(
    simulatedNotice([sim], { what: 'response (run r7)', study: 'psi' }),
    "**Simulated data.** The response (run r7) comes from this project's seeded simulated tutors, not from a language model. Every number, table and figure below describes that simulation; the paper's published values are set beside them for comparison only.",
  );
  assert.equal(
    simulatedNotice([sim, real, real], { what: 'records of r.jsonl', study: 'psi' }),
    "**Partly simulated data.** 1 of 3 records of r.jsonl come from this project's seeded simulated tutors, not from a language model; the tables and figures below mix them with the others.",
  );
  assert.equal(simulatedNotice([real, real], { study: 'psi' }), '');
  assert.equal(simulatedNotice([]), '');
});

test('anySimulated; markSimulated is re-exported from lib/figures (tested in test/figures/simulated.test.ts)', () => {
  assert.equal(markSimulated('Figure 1', true, 'responses'), 'Figure 1 — SIMULATED responses');
  assert.equal(anySimulated([real, sim]), true);
  assert.equal(anySimulated([real]), false);
  assert.equal(anySimulated([]), false);
});

test('simulated notices say how much of the input is simulated', () => {
  assert.equal(simulatedNotice([{ simulated: false }]), '');
  assert.match(simulatedNotice([{ simulated: true }, { simulated: true }]), /^\*\*Simulated data\.\*\* All 2 responses/);
  assert.match(simulatedNotice([{ simulated: true }, { simulated: false }]), /1 of 2 responses/);
  assert.equal(markSimulated('Table 3', true), 'Table 3 — SIMULATED data');
  assert.equal(markSimulated('Table 3', false), 'Table 3');
});

test('simulatedShare counts the simulated records among all (notebook 00\'s inputs line)', () => {
  assert.equal(simulatedShare([{ simulated: true }, { simulated: false }, { simulated: true }]), '2 of 3 simulated');
  assert.equal(simulatedShare([{ simulated: false }]), '0 of 1 simulated');
  assert.equal(simulatedShare([]), '0 of 0 simulated');
});
