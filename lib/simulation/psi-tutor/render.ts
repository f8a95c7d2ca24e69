/**
 * Turns a simulated PSI tutor's plan into Markdown: recap, key correction, explanation, worked example
 * with its output, numbered steps, hint, comprehension check, analogy, Bloom-level vocabulary and the
 * occasional pleasantry, hedge or aside. Deterministic given the plan and the generator's state.
 */
import type { PsiTaxonomy, Scenario } from '../../psi/schema';
import { conceptLabel, lowerFirst, nextConcept, stripPeriod, upperFirst } from './labels';
import type { ScenarioMaterial } from './material';
import { chance, pick, type PsiTutorRequest, type ResponsePlan, type Rng } from './plan';

const FILLER_OPENERS = ['Great question!', 'Sure, happy to help with this.', 'Good question, this trips up a lot of people.'];
const FILLER_CLOSINGS = ['Hope this helps!', 'Happy coding!', 'Feel free to ask if anything is unclear.'];
const HEDGES = [
  'I think that covers the main issue.',
  'This is probably the part that caused the surprise.',
  'It seems that this one detail is the whole problem.',
];

function generalSentences(scenario: Scenario): string[] {
  return [
    `The learning goal here is to ${lowerFirst(stripPeriod(scenario.learning_objective))}.`,
    'Python is strict about this on purpose, so that mistakes show up early.',
    'Once this clicks, the rest of the task becomes much easier.',
    `Many students stumble over exactly this in week ${scenario.week}.`,
    'What you saw is Python doing exactly what the code says, not a random glitch.',
    'Nothing else in your program needs to be rewritten for this.',
    'It is a small detail with a big effect on the result.',
    'The same rule holds everywhere in Python, not only in this task.',
    'This means the fix is small, even if the symptom looked big.',
    'Reading the error message carefully usually points straight at the line involved.',
    'Small test programs are the fastest way to see a rule like this in action.',
    'Getting this right now will save time in the later weeks of the course.',
    'The rule is easy to state and easy to forget under time pressure.',
  ];
}

function bloomSentences(level: number, labels: string[]): string[] {
  const joined = labels.join(' and ');
  switch (level) {
    case 1:
      return [`The terms to remember are ${joined}.`, 'It helps to memorise what each part is called and what it stands for.'];
    case 2:
      return [
        `The reason matters more than the fix here, so make sure you understand what ${joined} means.`,
        'In other words, the behaviour you saw is what Python is designed to do.',
      ];
    case 3:
      return ['Use this pattern whenever you write similar code, and run it after each change.'];
    default:
      return [
        'To analyse a problem like this, trace the values and look for the root cause before changing anything.',
        'Asking why does this line produce that value is the quickest way to diagnose it.',
      ];
  }
}

function recapSentence(rng: Rng, taxonomy: PsiTaxonomy, scenario: Scenario, id: string, reference: boolean, style: 'learner' | 'basics', index: number): string {
  const label = conceptLabel(taxonomy, id);
  const description = lowerFirst(stripPeriod(taxonomy.components[taxonomy.index.get(id)!]!.description));
  const week = taxonomy.weeks.get(id)!;
  if (style === 'basics') {
    return index === 0 ? `Let's start from the basics: ${label}, ${description}.` : `It also relies on ${label}, ${description}.`;
  }
  if (!reference) return `This builds on ${label}: ${description}.`;
  const memory = scenario.learner.memory.find((m) => m.concept === id);
  if (memory && chance(rng, 0.5)) {
    return `You've practised ${label} ${memory.days_since_exposure} days ago, so it should still feel familiar: ${description}.`;
  }
  return pick(rng, [
    `You already know ${label} from week ${week}: ${description}.`,
    `As you saw in week ${week}, ${label} is about this: ${description}.`,
    `Remember from class how ${label} works: ${description}.`,
  ]);
}

function stepLines(plan: ResponsePlan, labels: string[], taxonomy: PsiTaxonomy): string[] {
  if (plan.stepConcepts.length > 0) {
    return plan.stepConcepts.map((id, i) => {
      const label = conceptLabel(taxonomy, id);
      return `${i + 1}. ${plan.actionSteps ? `Run the example again and watch what ${label} does.` : `Find where the example relies on ${label}.`}`;
    });
  }
  const main = labels[0] ?? 'this';
  const action = [
    'Use the corrected line from the example in your program.',
    'Run the program and compare what it prints with the expected output.',
    'Change one value and run it again to see the effect.',
    'Write a second small test case and check that it works as well.',
  ];
  const neutral = [
    `Find the line in your code that involves ${main}.`,
    'Compare it with the example above, line by line.',
    'Check which value each name holds at that point.',
    'Look at the result and see whether it matches what you predicted.',
  ];
  return (plan.actionSteps ? action : neutral).slice(0, plan.steps).map((s, i) => `${i + 1}. ${s}`);
}

/** The opening sentence(s); a restating opener may name the guessed readings up front. */
function openerParts(plan: ResponsePlan, taxonomy: PsiTutorRequest['course']['taxonomy'], rng: Rng): { opener: string[]; guessUpFront: boolean; alternativeNames: string } {
  const opener: string[] = [];
  if (plan.opener === 'filler') opener.push(pick(rng, FILLER_OPENERS));
  const alternativeNames = plan.alternatives.map((id) => conceptLabel(taxonomy, id)).join(' or ');
  // A restating opener puts the guessed readings first, before the concepts they build on.
  const guessUpFront = plan.opener === 'restate' && plan.alternatives.length > 0;
  if (plan.opener === 'restate') {
    opener.push(
      guessUpFront
        ? `It sounds like you're stuck on something from this week's material, maybe ${alternativeNames}, so here is the short version first.`
        : "It sounds like you're stuck on something from this week's material, so here is the short version first.",
    );
  }
  return { opener, guessUpFront, alternativeNames };
}

/** The answer paragraph: the key, each objective concept, general prose, an optional hedge, the why, Bloom-level sentences. */
function answerSentences(plan: ResponsePlan, req: PsiTutorRequest, material: ScenarioMaterial, labels: string[], rng: Rng): string[] {
  const { taxonomy } = req.course;
  const scenario = req.scenario;
  const answer: string[] = [material.key];
  for (const id of plan.objectiveOrder) {
    const c = taxonomy.components[taxonomy.index.get(id)!]!;
    answer.push(`${upperFirst(conceptLabel(taxonomy, id))}: ${lowerFirst(stripPeriod(c.description))}.`);
  }
  const pool = generalSentences(scenario);
  const used = new Set<number>();
  for (const r of plan.prose) {
    let k = r % pool.length;
    while (used.has(k) && used.size < pool.length) k = (k + 1) % pool.length;
    if (used.has(k)) break;
    used.add(k);
    answer.push(pool[k]!);
  }
  if (plan.hedge) answer.splice(1 + Math.floor(rng() * (answer.length - 1)), 0, pick(rng, HEDGES));
  if (plan.explainWhy && plan.judgingFraming) {
    // Same two sentences and propositions as the explanation below, in Evaluate vocabulary (S_RA only).
    answer.push(
      'Put simply, judging by the rule, Python follows it literally; assessed as written, it does exactly what the line says.',
      'The trade-off to assess is that the same idea comes back in almost every program you will meet.',
    );
  } else if (plan.explainWhy) {
    answer.push(
      'Put simply, the explanation is that Python follows the rule literally; in other words, it does exactly what the line says.',
      'The reason this matters is that the same idea comes back in almost every program you will meet.',
    );
  }
  if (plan.bloomMatch) answer.push(...bloomSentences(scenario.target_bloom, labels));
  return answer;
}

/** The worked example (code, and its output when planned). */
function exampleLines(plan: ResponsePlan, material: ScenarioMaterial): string[] {
  if (!plan.code) return [];
  const example = [plan.exampleIntro ? 'Here is an example:' : 'The corrected version:', '', '```python', material.code, '```'];
  if (plan.output) example.push('', 'Output:', '', '```text', material.output, '```');
  return example;
}

/** The comprehension checks: the scenario's own, then generic ones. */
function checkParagraphs(plan: ResponsePlan, material: ScenarioMaterial): string {
  const checks = [`Quick check: ${material.check}`];
  const extra = [
    'Can you predict what each variable holds when print() runs in your original code?',
    'Could you explain the fix back in your own words, in one sentence?',
    'Try changing one value in the example and predict the new output first.',
  ];
  for (let i = 1; i < plan.checks; i++) checks.push(extra[(i - 1) % extra.length]!);
  return checks.join('\n\n');
}

/** The closing blocks after the checks: recommendation, extension, challenge, look-ahead, tangent, filler (the filler draws last). */
function closingBlocks(plan: ResponsePlan, req: PsiTutorRequest, material: ScenarioMaterial, labels: readonly string[], rng: Rng): string[] {
  const { taxonomy } = req.course;
  const blocks: string[] = [];
  if (plan.recommendation) {
    blocks.push(
      `The best way to avoid this next time is the version shown here; I recommend it over quick workarounds because it is more readable and easier to judge at a glance.`,
    );
  }
  if (plan.extension) {
    blocks.push(
      `Next step: build your own small program that combines ${labels[0] ?? 'this idea'} with something from an earlier week, and design one test input for it.`,
    );
  }
  if (plan.challenge) {
    blocks.push('Mini-challenge: design and build your own variation of the example: plan it first, then extend it and combine it with something from an earlier week.');
  }
  if (plan.lookAhead) {
    const next = nextConcept(taxonomy, req.scenario);
    if (next) blocks.push(`This also prepares you for ${conceptLabel(taxonomy, next)}, which comes up later in the course.`);
  }
  if (plan.tangent) blocks.push(material.tangent);
  if (plan.closingFiller) blocks.push(pick(rng, FILLER_CLOSINGS));
  return blocks;
}

/**
 * Turns a plan into Markdown. Deterministic given the plan and the rng state: the pieces draw in the
 * order opener → recap → answer → closing, which the seeded corpus depends on.
 */
export function renderPlan(plan: ResponsePlan, req: PsiTutorRequest, material: ScenarioMaterial, rng: Rng): string {
  const { taxonomy } = req.course;
  const scenario = req.scenario;
  const labels = plan.objectiveOrder.map((id) => conceptLabel(taxonomy, id));
  const blocks: string[][] = [];
  const push = (...lines: string[]) => blocks.push(lines);
  const { opener, guessUpFront, alternativeNames } = openerParts(plan, taxonomy, rng);
  const recap = plan.recap
    ? plan.recap.concepts.map((id, i) => recapSentence(rng, taxonomy, scenario, id, plan.recap!.references[i]!, plan.recap!.style, i))
    : [];
  const answer = answerSentences(plan, req, material, labels, rng);
  const example = exampleLines(plan, material);
  const steps = plan.steps > 0 ? ['To work through it:', '', ...stepLines(plan, labels, taxonomy)] : [];

  const heading = (title: string) => (plan.headings ? [`### ${title}`, ''] : []);
  if (opener.length > 0) push(opener.join(' '));
  if (plan.scaffoldFirst) {
    if (example.length > 0) push(...heading('Worked example'), ...example);
    if (steps.length > 0) push(...steps);
  }
  if (plan.recapFirst && recap.length > 0) push(...heading('What you already have'), recap.join(' '));
  push(...heading("What's going on"), answer.join(' '));
  if (!plan.recapFirst && recap.length > 0) push(recap.join(' '));
  if (plan.alternatives.length > 0 && !guessUpFront) {
    push(`If your question was really about ${alternativeNames}, that is a later topic of the course that builds on what is shown here.`);
  }
  if (!plan.scaffoldFirst) {
    if (example.length > 0) push(...heading('Example'), ...example);
    if (steps.length > 0) push(...steps);
  }
  if (plan.analogy) push(material.analogy);
  if (plan.hint) push(`Hint: ${material.hint}`);
  if (plan.checks > 0) push(...heading('Check your understanding'), checkParagraphs(plan, material));
  for (const block of closingBlocks(plan, req, material, labels, rng)) push(block);
  return `${blocks.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}
