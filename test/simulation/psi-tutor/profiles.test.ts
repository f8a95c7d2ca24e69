import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AMBIGUOUS_DEFECTS, CONTEXT_POOR_DEFECTS, TUTOR_PROFILE_IDS, TUTOR_PROFILES } from '../../../lib/simulation/psi-tutor/profiles';
import { course } from './helpers';

test('profiles: four neutral names, each documented with the paper model it mirrors', () => {
  assert.deepEqual(TUTOR_PROFILE_IDS, ['sim-tutor-a', 'sim-tutor-b', 'sim-tutor-c', 'sim-tutor-d']);
  assert.deepEqual(
    TUTOR_PROFILE_IDS.map((id) => TUTOR_PROFILES[id].mirrors),
    ['ChatGPT', 'Gemini', 'Gemma 4', 'Qwen 3'],
  );
});

test('defect groups: context-poor and ambiguous are disjoint and together the eight categories used by the course', () => {
  assert.deepEqual([...CONTEXT_POOR_DEFECTS], ['missing_context', 'too_short', 'keyword_only']);
  assert.equal(CONTEXT_POOR_DEFECTS.filter((d) => AMBIGUOUS_DEFECTS.includes(d)).length, 0);
  const used = new Set(course.scenarios.flatMap((s) => s.defective.categories));
  assert.deepEqual([...new Set([...CONTEXT_POOR_DEFECTS, ...AMBIGUOUS_DEFECTS])].sort(), [...used].sort());
  // each profile's id is its key
  for (const id of TUTOR_PROFILE_IDS) assert.equal(TUTOR_PROFILES[id].id, id);
});
