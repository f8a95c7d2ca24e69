import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import {
  buildRegenerationPrompt,
  formatStudentContext,
  getScenario,
  scoreResponse,
} from '../../lib/psi';
import { fixtureCourse, fixtureCourseAs, STATISTICS_COURSE, T1 } from './helpers';

const course = fixtureCourse();
const s01 = getScenario(course, 'S01');
const t1 = scoreResponse(T1, s01, course);

test('buildRegenerationPrompt: the five parts in order (a) context, (b) round 1, (c) scores, (d) diagnosis, (e) checklist', () => {
  const { system, user, checklist } = buildRegenerationPrompt(course, s01, 'standard', T1, t1);
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
  const d = buildRegenerationPrompt(course, s01, 'defective', T1, t1).user;
  assert.ok(d.includes(s01.defective.question) && !d.includes(s01.question));
});

test('formatStudentContext refuses a variant that is neither standard nor defective in one line', () => {
  assert.ok(formatStudentContext(course, s01, 'defective').includes(s01.defective.question));
  assert.throws(
    () => formatStudentContext(course, s01, 'Defective' as never),
    (e: unknown) => e instanceof InputError && e.message === 'unknown variant "Defective" (known: standard, defective)',
  );
});

test('a course on another subject and of another length: the round-2 prompt names that course, not Python', () => {
  const stats = fixtureCourseAs(STATISTICS_COURSE);
  const s = getScenario(stats, 'S01');
  const { system, user } = buildRegenerationPrompt(stats, s, 'standard', T1, scoreResponse(T1, s, stats));
  assert.match(system, /^You are a patient tutor for a first-year statistics course\. You will see a student question/);
  const context = formatStudentContext(stats, s, 'standard');
  assert.equal(context.split('\n')[0], `Course: introductory statistics, week ${s.week} of 12.`);
  assert.ok(user.includes(`## (a) Student context and question\n${context}\n`));
  assert.doesNotMatch(system + context, /Python|of 15/);
  // Without tutor_for, the role is worded from the name.
  const named = fixtureCourseAs({ name: 'introductory statistics', weeks: 12 });
  assert.match(buildRegenerationPrompt(named, s, 'standard', T1, t1).system, /^You are a patient tutor for a course in introductory statistics\. You will/);
});

test('a course whose scenarios.json states no course: prompts name no subject and no length', () => {
  const { system } = buildRegenerationPrompt(course, s01, 'standard', T1, t1);
  assert.match(system, /^You are a patient tutor\. You will see/);
  const context = formatStudentContext(course, s01, 'standard');
  assert.equal(context.split('\n')[0], `Course week: ${s01.week}.`);
  assert.doesNotMatch(system + context, /Python| of \d/);
});
