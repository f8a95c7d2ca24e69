import { diagnose, improvementChecklist, subscoreLabel, type SeverityCutoffs, type Weakness } from './diagnosis';
import { SUBSCORES, type Subscores } from './parameters';
import { InputError } from '../errors';
import { BLOOM_LEVELS, VARIANTS, type PsiCourse, type Scenario, type Variant } from './schema';
import type { PsiEvidence } from './score';

/** The scoring a regeneration prompt reports: composite, six sub-scores, and evidence if available. */
export interface ScoringSummary {
  psi: number;
  subscores: Subscores;
  evidence?: Partial<PsiEvidence>;
}

/**
 * The question the student asked under a prompt variant; any other variant (a notebook's `variant`
 * parameter mistyped) is refused in one line naming the two.
 * @example
 * questionFor({ id: 'S1', question: 'q', defective: { question: 'd' } } as never, 'defective'); // => 'd'
 * questionFor({ id: 'S1', question: 'q' } as never, 'Standard' as never); // throws /^unknown variant "Standard" \(known: standard, defective\)$/
 */
export function questionFor(scenario: Scenario, variant: Variant): string {
  if (!(VARIANTS as readonly string[]).includes(variant)) {
    throw new InputError(`unknown variant ${JSON.stringify(variant)} (known: ${VARIANTS.join(', ')})`, { item: String(variant) });
  }
  return variant === 'defective' ? scenario.defective.question : scenario.question;
}

/**
 * The tutor's role, the opening sentence of the round-1 and round-2 system prompts: "You are a patient
 * tutor for <course.info.tutor_for>." (default "a course in <name>"). A course whose scenarios.json
 * states no `course` gets the role with no subject: better no subject than another course's.
 * @example
 * tutorRole({ info: { name: 'introductory statistics', weeks: 12 } } as never); // => 'You are a patient tutor for a course in introductory statistics.'
 * tutorRole({} as never); // => 'You are a patient tutor.'
 */
export function tutorRole(course: Pick<PsiCourse, 'info'>): string {
  const info = course.info;
  return info === undefined ? 'You are a patient tutor.' : `You are a patient tutor for ${info.tutor_for ?? `a course in ${info.name}`}.`;
}

/** The context's first line: the course's name, and the week out of its length (no subject if unstated). */
function courseLine(course: Pick<PsiCourse, 'info'>, scenario: Scenario): string {
  const info = course.info;
  return info === undefined ? `Course week: ${scenario.week}.` : `Course: ${info.name}, week ${scenario.week} of ${info.weeks}.`;
}

/**
 * The learner context given to a tutor: the course and its week, learning objective, target cognitive
 * level, mastered concepts, recently practised concepts, and the student's question for `variant`.
 * Shared by round-1 prompts and part (a) of the regeneration prompt so both show the same context.
 */
export function formatStudentContext(course: Pick<PsiCourse, 'info'>, scenario: Scenario, variant: Variant): string {
  const recent = scenario.learner.memory.map((m) => `${m.concept} (${m.days_since_exposure} days ago)`).join(', ');
  return [
    courseLine(course, scenario),
    `Learning objective: ${scenario.learning_objective}`,
    `Target cognitive level: ${BLOOM_LEVELS[scenario.target_bloom - 1]} (Bloom level ${scenario.target_bloom}).`,
    `Concepts the student has already learned: ${scenario.learner.known_concepts.join(', ') || '(none yet)'}.`,
    `Last practised: ${recent}.`,
    '',
    "Student's question:",
    questionFor(scenario, variant),
  ].join('\n');
}

const REGENERATION_TASK = [
  'You will see a student question, your earlier answer, and an automatic evaluation of how well that answer fits',
  "this student's knowledge and the course sequence. Write an improved answer addressed to the student.",
  'Fix every item of the checklist while keeping the answer correct; reply with the new answer only.',
].join(' ');

/**
 * Builds the PSI-guided regeneration prompt. The user message has five parts, in this order:
 * (a) the original student context and question, (b) the round-1 response, (c) the overall PSI and
 * all six sub-scores, (d) a structured diagnosis (sub-score, severity, issue), (e) the improvement
 * checklist. The system prompt opens with the course's `tutorRole`. Weaknesses are computed with
 * `diagnose` unless given.
 */
export function buildRegenerationPrompt(
  course: Pick<PsiCourse, 'info'>,
  scenario: Scenario,
  variant: Variant,
  round1Text: string,
  scoring: ScoringSummary,
  options: { weaknesses?: readonly Weakness[]; cutoffs?: SeverityCutoffs } = {},
): { system: string; user: string; weaknesses: Weakness[]; checklist: string[] } {
  const weaknesses = [...(options.weaknesses ?? diagnose(scoring.subscores, scoring.evidence, options.cutoffs))];
  const checklist = improvementChecklist(weaknesses);
  const scores = SUBSCORES.map((name) => `- ${subscoreLabel(name)}: ${scoring.subscores[name].toFixed(3)}`);
  const diagnosis =
    weaknesses.length === 0
      ? ['- No sub-score is below the weakness cut-offs.']
      : weaknesses.map((w) => `- [${w.severity.toUpperCase()}] ${subscoreLabel(w.subscore)} = ${w.score.toFixed(3)}: ${w.issue}`);
  const items = checklist.length === 0 ? ['- [ ] Keep the answer as clear and well-sequenced as it is.'] : checklist.map((c) => `- [ ] ${c}`);
  const user = [
    '## (a) Student context and question',
    formatStudentContext(course, scenario, variant),
    '',
    '## (b) Your previous answer (round 1)',
    round1Text,
    '',
    '## (c) Pedagogical Suitability Index of that answer (0 = poor fit, 1 = ideal)',
    `- Overall PSI: ${scoring.psi.toFixed(3)}`,
    ...scores,
    '',
    '## (d) Diagnosis',
    ...diagnosis,
    '',
    '## (e) Improvement checklist',
    ...items,
    '',
    'Now write the improved answer to the student.',
  ].join('\n');
  return { system: `${tutorRole(course)} ${REGENERATION_TASK}`, user, weaknesses, checklist };
}
