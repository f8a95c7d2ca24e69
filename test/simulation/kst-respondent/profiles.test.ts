import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONDITIONS } from '../../../lib/conditions';
import { DOMAIN_DIFFICULTY, SIMULATED_PROFILES, domainDifficulty, findSimulatedProfile } from '../../../lib/simulation/kst-respondent/profiles';

test('profiles: six, named sim-*, each mirroring a different Table 4 row with the published numbers', () => {
  assert.equal(SIMULATED_PROFILES.length, 6);
  for (const p of SIMULATED_PROFILES) assert.match(p.name, /^sim-/);
  assert.equal(new Set(SIMULATED_PROFILES.map((p) => p.name)).size, 6);
  // Table 4 of [KST-2026], typed in from the paper.
  const table4: Record<string, [number, number, number, number]> = {
    'Claude Fable 5': [76, 70, 98, 100],
    'Claude Sonnet 5': [60, 61, 85, 96],
    'GPT-5.6 Sol': [62, 61, 100, 100],
    'GPT-5.6 Terra': [57, 63, 95, 93],
    'Gemini 3.1 Pro Preview': [51, 63, 100, 100],
    'Gemini 3.7 Flash': [62, 59, 100, 100],
  };
  assert.deepEqual(new Set(SIMULATED_PROFILES.map((p) => p.mirrors)), new Set(Object.keys(table4)));
  for (const p of SIMULATED_PROFILES) assert.deepEqual(CONDITIONS.map((c) => p.published[c]), table4[p.mirrors]);
});

test('findSimulatedProfile and domainDifficulty: own table, shared table, 1 when not listed', () => {
  assert.equal(findSimulatedProfile('sim-c'), SIMULATED_PROFILES[2]);
  assert.equal(findSimulatedProfile('sim-z'), undefined);
  const own = { domainDifficulty: { slope: { P0: 0.5, P1: 0.75 } } };
  assert.equal(domainDifficulty('slope', 'P0', own), 0.5);
  assert.equal(domainDifficulty('slope', 'P1', own), 0.75);
  assert.equal(domainDifficulty('linear-modelling', 'P0', own), 1);
  // without a profile table the shared DOMAIN_DIFFICULTY applies
  for (const [id, d] of Object.entries(DOMAIN_DIFFICULTY)) {
    assert.equal(domainDifficulty(id, 'P0'), d.P0);
    assert.equal(domainDifficulty(id, 'P1'), d.P1);
  }
  assert.equal(domainDifficulty('no-such-domain', 'P1'), 1);
  // a profile's own table replaces the shared one entirely (also for domains it does not list)
  assert.equal(domainDifficulty(Object.keys(DOMAIN_DIFFICULTY)[0]!, 'P0', { domainDifficulty: {} }), 1);
});
