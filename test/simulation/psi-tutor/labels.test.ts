import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findConcepts } from '../../../lib/psi/concepts';
import { conceptLabel, laterConcepts, lowerFirst, nextConcept, recapCandidates, stripPeriod, upperFirst } from '../../../lib/simulation/psi-tutor/labels';
import { course } from './helpers';
import { fixtureCourse } from '../../psi/helpers';

test('laterConcepts: unknown concepts that depend on the objective, in course order (worked from taxonomy.json)', () => {
  // S28 (objective digital_images): digital_images → pillow_library → image_filters and
  // digital_images → tensorflow_intro; numpy_arrays and dependency_parsing are unknown but do not depend on it.
  assert.deepEqual(laterConcepts(course.taxonomy, course.scenarioById.get('S28')!), ['pillow_library', 'image_filters', 'tensorflow_intro']);
  // S27: the only unknown dependent of part_of_speech_tagging is dependency_parsing, itself an objective concept.
  assert.deepEqual(laterConcepts(course.taxonomy, course.scenarioById.get('S27')!), []);
});

test('conceptLabel: every concept label is recognised as that concept by the PSI detector', () => {
  for (const id of course.taxonomy.ids) {
    const label = conceptLabel(course.taxonomy, id);
    assert.ok(findConcepts(label, course.taxonomy).some((m) => m.id === id), `${id} -> ${label}`);
  }
  assert.equal(conceptLabel(course.taxonomy, 'for_loop'), 'for loop');
  assert.equal(conceptLabel(course.taxonomy, 'cpu'), 'CPU');
});

test('text helpers: lowerFirst, upperFirst, stripPeriod', () => {
  assert.equal(lowerFirst('Loops repeat'), 'loops repeat');
  assert.equal(upperFirst('loops'), 'Loops');
  assert.equal(lowerFirst(''), '');
  assert.equal(upperFirst(''), '');
  assert.equal(stripPeriod('Print the list. \n'), 'Print the list');
  assert.equal(stripPeriod('3.14'), '3.14');
  assert.equal(stripPeriod('Done...'), 'Done');
});

test('recap candidates, later and next concepts on the hand-made fixture course (worked from its taxonomy)', () => {
  const fixture = fixtureCourse();
  const s01 = fixture.scenarioById.get('S01')!; // objective for_loop; knows variables, print_function, strings, lists
  const s02 = fixture.scenarioById.get('S02')!; // objective list_comprehension; knows those and for_loop
  // S01: direct prerequisites of for_loop are variables, lists (canonical order); memory and deeper
  // prerequisites add nothing new → [variables, lists].
  assert.deepEqual(recapCandidates(fixture.taxonomy, s01), ['variables', 'lists']);
  // S02: direct prerequisites lists, for_loop; memory for_loop; deeper variables, lists, for_loop →
  // first-seen order lists, for_loop, variables (all known, none an objective).
  assert.deepEqual(recapCandidates(fixture.taxonomy, s02), ['lists', 'for_loop', 'variables']);
  // for_loop → list_comprehension is the only dependent of S01's objective; nothing depends on S02's.
  assert.deepEqual(laterConcepts(fixture.taxonomy, s01), ['list_comprehension']);
  assert.equal(nextConcept(fixture.taxonomy, s01), 'list_comprehension');
  assert.deepEqual(laterConcepts(fixture.taxonomy, s02), []);
  assert.equal(nextConcept(fixture.taxonomy, s02), undefined);
  // labels: the ID with spaces when the detector recognises it
  assert.equal(conceptLabel(fixture.taxonomy, 'list_comprehension'), 'list comprehension');
  assert.equal(conceptLabel(fixture.taxonomy, 'print_function'), 'print function');
});
