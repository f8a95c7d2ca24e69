import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import {
  buildRegenerationPrompt,
  formatStudentContext,
  getScenario,
  scoreResponse,
} from '../../lib/psi';
import { fixtureCourse, T1 } from './helpers';

const course = fixtureCourse();
const s01 = getScenario(course, 'S01');
const t1 = scoreResponse(T1, s01, course);

test('buildRegenerationPrompt: the five parts in order (a) context, (b) round 1, (c) scores, (d) diagnosis, (e) checklist', () => {
  const { system, user, checklist } = buildRegenerationPrompt(s01, 'standard', T1, t1);
  assert.match(system, /tutor/);
  const marks = ['## (a)', s01.question, '## (b)', T1, '## (c)', 'Overall PSI: 0.635', '## (d)', '[HIGH]', '## (e)', '- [ ] Explain lists before using for_loop.'];
  let at = -1;
  for (const m of marks) {
    const i = user.indexOf(m, at + 1);
    assert.ok(i > at, `"${m}" must appear after position ${at}`);
    at = i;
  }
  // all six sub-scores with their values
  for (const [k, v] of [['KD', '0.983'], ['TV', '0.000'], ['SD', '0.625'], ['EF', '0.371'], ['CL', '0.833'], ['RA', '1.000']] as const) {
    assert.match(user, new RegExp(`- ${k} \\(.*\\): ${v.replace('.', '\\.')}`));
  }
  assert.equal(checklist.length, 4);
  // the defective variant shows the defective question, not the standard one
  const d = buildRegenerationPrompt(s01, 'defective', T1, t1).user;
  assert.ok(d.includes(s01.defective.question) && !d.includes(s01.question));
});

test('formatStudentContext refuses a variant that is neither standard nor defective in one line', () => {
  assert.ok(formatStudentContext(s01, 'defective').includes(s01.defective.question));
  assert.throws(
    () => formatStudentContext(s01, 'Defective' as never),
    (e: unknown) => e instanceof InputError && e.message === 'unknown variant "Defective" (known: standard, defective)',
  );
});
