/**
 * A seeded behavioural model of an LLM tutor answering PSI scenarios, reachable as a collector
 * Provider (`createSimulatedTutor('sim-tutor-a')`). It writes Markdown tutoring responses from
 * building blocks — recap of prerequisites, the key correction, concept explanations, a worked code
 * example with its output, numbered steps, hints, a comprehension check, an analogy, Bloom-level
 * vocabulary, and the occasional pleasantry, hedge or off-topic aside — with habits that differ per
 * profile (lib/psi/simulated-profiles.ts).
 *
 * Randomness: every draw comes from seedrandom (ARC4) seeded with
 * `psi-tutor|<seed>|<model>|<scenario>|<variant>` for the base plan and the same string plus
 * `|round2` for the regeneration choices, so equal inputs give byte-identical text, and a round-2
 * answer is a revision of the exact round-1 answer it regenerates (same base plan).
 *
 * The text is simulated. It exists to exercise and test the PSI pipeline end to end; it is not
 * evidence about any real model.
 */
import seedrandom from 'seedrandom';
import { z } from 'zod';
import { InputError } from '../errors';
import type { CompletionRequest, CompletionResult, Provider } from '../collect/providers/types';
import { findConcepts } from './concepts';
import type { PsiCourse, PsiTaxonomy, Scenario } from './schema';
import { SIMULATED_MATERIAL, type ScenarioMaterial } from './simulated-material';
import { AMBIGUOUS_DEFECTS, CONTEXT_POOR_DEFECTS, TUTOR_PROFILES, type TutorProfile, type TutorProfileId } from './simulated-profiles';

export { TUTOR_PROFILES, TUTOR_PROFILE_IDS } from './simulated-profiles';
export type { TutorProfile, TutorProfileId } from './simulated-profiles';

/** Sub-scores a checklist item can target. */
export type ChecklistTarget = 'kd' | 'tv' | 'sd' | 'cl' | 'ra' | 'ef';

/** One regeneration checklist item: free text, optionally tagged with the sub-score it addresses. */
export type ChecklistItem = string | { subscore?: string; text?: string; requirement?: string };

/** What the simulated tutor needs to answer one PSI request. */
export interface PsiTutorRequest {
  course: PsiCourse;
  scenario: Scenario;
  variant: 'standard' | 'defective';
  round: 1 | 2;
  /** Round 2: the checklist of the regeneration prompt. */
  checklist?: readonly ChecklistItem[];
  /** Run-level seed (recorded by the collector); default "0". */
  seed?: string;
}

type Rng = () => number;

function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

function intBetween(rng: Rng, [lo, hi]: readonly [number, number]): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

function lowerFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toLowerCase() + s.slice(1);
}

function upperFirst(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

function stripPeriod(s: string): string {
  return s.replace(/[.\s]+$/, '');
}

const labelCache = new WeakMap<PsiTaxonomy, Map<string, string>>();

/**
 * The phrase the tutor uses for a concept: the first of (ID with spaces, the concept's word-like
 * keywords, its code keywords in backticks) that the PSI concept detector recognises as this
 * concept, so a mention in prose is a mention for the scorer too. Very short labels are upper-cased
 * (`cpu` → `CPU`). Example: `for_loop` → "for loop", `type_function` → "`type()`".
 */
export function conceptLabel(taxonomy: PsiTaxonomy, id: string): string {
  let cache = labelCache.get(taxonomy);
  if (!cache) labelCache.set(taxonomy, (cache = new Map()));
  const hit = cache.get(id);
  if (hit !== undefined) return hit;
  const keywords = taxonomy.keywords.get(id) ?? [];
  const candidates = [
    id.replace(/_/g, ' '),
    ...keywords.filter((k) => /^[a-z][a-z -]*[a-z]$/.test(k)),
    ...keywords.map((k) => `\`${k.trim()}${k.trim().endsWith('(') ? ')' : ''}\``),
  ];
  let label = candidates.find((c) => findConcepts(c, taxonomy).some((m) => m.id === id)) ?? id.replace(/_/g, ' ');
  if (/^[a-z]{2,4}$/.test(label)) label = label.toUpperCase();
  cache.set(id, label);
  return label;
}

/** Every strict prerequisite of `ids` (transitive closure), in canonical taxonomy order. */
function prerequisitesOf(taxonomy: PsiTaxonomy, ids: readonly string[]): string[] {
  const target = new Set(ids);
  const out = new Set<string>();
  for (const [p, q] of taxonomy.closure) if (target.has(q) && !target.has(p)) out.add(p);
  return taxonomy.ids.filter((id) => out.has(id));
}

/**
 * Known concepts worth recapping before the answer, most relevant first: direct prerequisites of
 * the objective concepts, then the learner's memory concepts, then deeper prerequisites (each group
 * in canonical order).
 */
export function recapCandidates(taxonomy: PsiTaxonomy, scenario: Scenario): string[] {
  const known = new Set(scenario.learner.known_concepts);
  const objective = new Set(scenario.objective_concepts);
  const direct = new Set<string>();
  for (const [p, q] of taxonomy.prerequisites) if (objective.has(q) && !objective.has(p)) direct.add(p);
  const memory = new Set(scenario.learner.memory.map((m) => m.concept));
  const deeper = new Set(prerequisitesOf(taxonomy, scenario.objective_concepts));
  const ordered = [
    ...taxonomy.ids.filter((id) => direct.has(id)),
    ...taxonomy.ids.filter((id) => memory.has(id)),
    ...taxonomy.ids.filter((id) => deeper.has(id)),
  ];
  return [...new Set(ordered)].filter((id) => known.has(id) && !objective.has(id));
}

/**
 * Concepts the learner has not met that lie just beyond the objective: every unknown, non-objective
 * concept with an objective concept among its (transitive) prerequisites, in canonical (course) order.
 * These are what a tutor names when it guesses that an ambiguous question might be about something
 * further along. Example: objective `while_loop` → `infinite_loop`, `counter_variable`, … if not known.
 */
export function laterConcepts(taxonomy: PsiTaxonomy, scenario: Scenario): string[] {
  const known = new Set(scenario.learner.known_concepts);
  const objective = new Set(scenario.objective_concepts);
  const out = new Set<string>();
  for (const [p, q] of taxonomy.closure) if (objective.has(p) && !objective.has(q) && !known.has(q)) out.add(q);
  return taxonomy.ids.filter((id) => out.has(id));
}

/** Everything the renderer needs, drawn from the profile's habits. */
export interface ResponsePlan {
  opener: 'none' | 'filler' | 'restate';
  recap: { style: 'learner' | 'basics'; concepts: string[]; references: boolean[] } | null;
  recapFirst: boolean;
  objectiveOrder: string[];
  /** Defective prompts: not-yet-known concepts named while covering another reading of the question. */
  alternatives: string[];
  prose: number[];
  code: boolean;
  exampleIntro: boolean;
  output: boolean;
  steps: number;
  actionSteps: boolean;
  /**
   * Round 2: concepts the numbered steps walk through, top-down — the objective concepts first, then
   * what they rely on. Placed before the recap, such a walk-through names a concept before its
   * prerequisites. Empty = generic steps.
   */
  stepConcepts: string[];
  scaffoldFirst: boolean;
  hint: boolean;
  checks: number;
  analogy: boolean;
  bloomMatch: boolean;
  explainWhy: boolean;
  extension: boolean;
  recommendation: boolean;
  hedge: boolean;
  tangent: boolean;
  closingFiller: boolean;
  headings: boolean;
  /** Round 2: a closing pointer to the next, not yet known concept of the course. */
  lookAhead: boolean;
  /** Round 2: a closing build-your-own challenge. */
  challenge: boolean;
}

/** Round-1 plan: the profile's habits, shifted by a defective prompt. */
export function drawPlan(profile: TutorProfile, req: PsiTutorRequest, rng: Rng): ResponsePlan {
  const h = profile.habits;
  const defective = req.variant === 'defective';
  const d = profile.defective;
  const { taxonomy } = req.course;
  const scenario = req.scenario;
  const scaffoldScale = defective ? d.scaffolding : 1;
  const candidates = recapCandidates(taxonomy, scenario);

  let recap: ResponsePlan['recap'] = null;
  let recapFirst = false;
  const wantsRecap = chance(rng, h.recap * (defective ? d.learnerRecap : 1));
  const recapBeforeAnswer = chance(rng, h.recapFirst);
  const categories = scenario.defective.categories as readonly string[];
  const contextPoor = categories.some((c) => CONTEXT_POOR_DEFECTS.includes(c));
  const ambiguous = categories.some((c) => AMBIGUOUS_DEFECTS.includes(c));
  const basics = defective && chance(rng, contextPoor ? d.basicsRecap.contextPoor : d.basicsRecap.other);
  if (basics && candidates.length > 0) {
    // No learner context: fall back to the course's default order, from the basics up.
    const n = Math.min(candidates.length, intBetween(rng, h.recapConcepts) + intBetween(rng, d.basicsExtra));
    const chosen = new Set(candidates.slice(0, n));
    recap = { style: 'basics', concepts: taxonomy.ids.filter((id) => chosen.has(id)), references: [] };
    recap.references = recap.concepts.map(() => false);
    recapFirst = true;
  } else if (wantsRecap && candidates.length > 0) {
    const n = Math.min(candidates.length, intBetween(rng, h.recapConcepts));
    const concepts = candidates.slice(0, n);
    const pRef = h.learnerReference * (defective ? d.learnerReference : 1);
    recap = { style: 'learner', concepts, references: concepts.map(() => chance(rng, pRef)) };
    recapFirst = recapBeforeAnswer;
  }

  const inPrereqOrder = chance(rng, h.prerequisiteOrder);
  const objectiveOrder = inPrereqOrder
    ? taxonomy.ids.filter((id) => scenario.objective_concepts.includes(id))
    : [...scenario.objective_concepts].reverse();

  const nProse = intBetween(rng, h.proseSentences);
  const prose = Array.from({ length: nProse }, () => Math.floor(rng() * 1e6));
  const code = chance(rng, h.codeExample);
  const output = code && chance(rng, h.showOutput);
  const exampleIntro = code && chance(rng, (h.showOutput + h.steps) / 2);
  const steps = chance(rng, h.steps * scaffoldScale) ? intBetween(rng, h.stepCount) : 0;
  const hint = chance(rng, h.hint * scaffoldScale);
  const checks = chance(rng, h.check * scaffoldScale) ? 1 : 0;
  const analogy = chance(rng, h.analogy);
  const bloomMatch = chance(rng, h.bloomMatch[scenario.target_bloom - 1] ?? 0);
  let alternatives: string[] = [];
  if (defective && chance(rng, ambiguous ? d.alternatives.ambiguous : d.alternatives.other)) {
    alternatives = laterConcepts(taxonomy, scenario).slice(0, intBetween(rng, d.alternativeConcepts));
  }
  const opener = defective && chance(rng, d.restate) ? 'restate' : chance(rng, h.filler) ? 'filler' : 'none';
  return {
    opener,
    recap,
    recapFirst,
    objectiveOrder,
    alternatives,
    prose,
    code,
    exampleIntro,
    output,
    steps,
    actionSteps: false,
    stepConcepts: [],
    scaffoldFirst: false,
    hint,
    checks,
    analogy,
    bloomMatch,
    explainWhy: chance(rng, h.explainWhy),
    extension: chance(rng, h.extension),
    recommendation: chance(rng, h.recommendation),
    hedge: chance(rng, h.hedge),
    tangent: chance(rng, h.tangent),
    closingFiller: chance(rng, h.filler),
    headings: h.steps >= 0.5,
    lookAhead: false,
    challenge: false,
  };
}

/**
 * Reads which sub-scores a checklist addresses: an item's `subscore` tag when present, otherwise
 * key words of its text (scaffold → sd, prerequisite/order → tv, known/familiar/distance → kd,
 * Bloom/cognitive level → ra, filler/hedging/extraneous → cl).
 */
export function checklistTargets(checklist: readonly ChecklistItem[]): Set<ChecklistTarget> {
  const out = new Set<ChecklistTarget>();
  const tags: Record<string, ChecklistTarget> = { kd: 'kd', tv: 'tv', sd: 'sd', cl: 'cl', ra: 'ra', ef: 'ef' };
  for (const item of checklist) {
    if (typeof item !== 'string' && item.subscore && tags[item.subscore.toLowerCase()]) {
      out.add(tags[item.subscore.toLowerCase()]!);
      continue;
    }
    const text = typeof item === 'string' ? item : `${item.text ?? ''} ${item.requirement ?? ''}`;
    if (/scaffold|worked (?:code )?example|numbered steps|step-by-step|comprehension[- ]check|\bhint\b|analogy/i.test(text)) out.add('sd');
    if (/prerequisite|\border\b|explain \S+ before using|temporal/i.test(text)) out.add('tv');
    if (/already (?:knows?|learned)|known concepts|familiar|knowledge distance|zone of proximal|one step beyond/i.test(text)) out.add('kd');
    if (/bloom|cognitive level|the \w+ level\b/i.test(text)) out.add('ra');
    if (/filler|hedg|extraneous|side remarks|tangent|cognitive load/i.test(text)) out.add('cl');
    if (/retention|forgetting|\brecap\b|last practised/i.test(text)) out.add('ef');
  }
  return out;
}

/**
 * Round-2 revision of a round-1 plan under a checklist. Each targeted item is followed with the
 * profile's compliance probability. Following a scaffolding item adds a worked example with output,
 * numbered steps, a hint and comprehension checks — placed before the recap with probability
 * `scaffoldFirst` (which can put a concept before its prerequisites) and phrased as actions with
 * probability `actionPhrasing` (which pulls the detected Bloom level toward Apply): the trade-offs the
 * paper reports for its regeneration round.
 */
export function revisePlan(plan: ResponsePlan, profile: TutorProfile, req: PsiTutorRequest, rng: Rng): ResponsePlan {
  const r = profile.regeneration;
  const targets = checklistTargets(req.checklist ?? []);
  const next: ResponsePlan = { ...plan, recap: plan.recap && { ...plan.recap } };
  const { taxonomy } = req.course;
  if (targets.has('sd') && chance(rng, r.compliance.sd)) {
    next.code = true;
    next.output = true;
    next.exampleIntro = true;
    next.steps = Math.max(next.steps, intBetween(rng, profile.habits.stepCount));
    next.hint = true;
    next.checks = Math.max(next.checks, 1) + intBetween(rng, r.extraScaffolds);
    next.headings = true;
    next.scaffoldFirst = chance(rng, r.scaffoldFirst);
    next.actionSteps = chance(rng, r.actionPhrasing);
    if (next.scaffoldFirst) {
      // A walk-through placed first goes top-down: the objective, then what it relies on.
      const below = recapCandidates(taxonomy, req.scenario).slice(0, Math.max(1, 4 - next.objectiveOrder.length));
      next.stepConcepts = [...next.objectiveOrder, ...below];
      next.steps = next.stepConcepts.length;
    }
    next.challenge = chance(rng, r.challenge);
    // Revisions also grow their explanation: two more plain sentences.
    next.prose = [...next.prose, Math.floor(rng() * 1e6), Math.floor(rng() * 1e6)];
    if (next.actionSteps) next.bloomMatch = false;
  }
  const beyond = (req.checklist ?? []).some((item) => /one step beyond|instead of restating/i.test(typeof item === 'string' ? item : `${item.text ?? ''}`));
  if (targets.has('kd') && chance(rng, r.compliance.kd)) {
    if (beyond) {
      // Too much familiar material: trim the recap and point ahead to the next concept in the course.
      if (next.recap) next.recap = { ...next.recap, concepts: next.recap.concepts.slice(0, 1), references: next.recap.references.slice(0, 1) };
      next.lookAhead = true;
    } else {
      const candidates = recapCandidates(taxonomy, req.scenario);
      if (candidates.length > 0) {
        const n = Math.min(candidates.length, Math.max(next.recap?.concepts.length ?? 0, 1) + 1);
        const concepts = candidates.slice(0, n);
        next.recap = { style: 'learner', concepts, references: concepts.map(() => true) };
      }
    }
    next.tangent = false;
  }
  if (targets.has('ef') && chance(rng, r.compliance.ef)) {
    // Recap the stalest memory concept the response does not recap yet.
    const stalest = [...req.scenario.learner.memory].sort(
      (a, b) => a.days_since_exposure / a.strength_days - b.days_since_exposure / b.strength_days,
    ).pop();
    if (stalest && !(next.recap?.concepts.includes(stalest.concept) ?? false)) {
      const recap = next.recap ?? { style: 'learner' as const, concepts: [], references: [] };
      next.recap = { style: 'learner', concepts: [...recap.concepts, stalest.concept], references: [...recap.references, true] };
    }
  }
  // A recap the revision adds or enlarges is often appended after the answer ("as you saw in week 3 ...").
  const recapGrew = next.recap !== null && (plan.recap === null || next.recap.concepts.length > plan.recap.concepts.length);
  if (recapGrew && chance(rng, r.appendRecap)) next.recapFirst = false;
  if (targets.has('tv') && chance(rng, r.compliance.tv)) {
    next.recapFirst = true;
    next.scaffoldFirst = false;
    next.objectiveOrder = taxonomy.ids.filter((id) => req.scenario.objective_concepts.includes(id));
  }
  if (targets.has('ra') && chance(rng, r.compliance.ra)) next.bloomMatch = true;
  if (targets.has('cl') && chance(rng, r.compliance.cl)) {
    next.opener = next.opener === 'filler' ? 'none' : next.opener;
    next.closingFiller = false;
    next.hedge = false;
    next.tangent = false;
  }
  if (next.recap && next.recap.style === 'basics' && targets.size > 0) {
    // A revision is written with the learner context of the regeneration prompt in view.
    next.recap.style = 'learner';
  }
  return next;
}

/** The first concept (canonical order) that directly depends on an objective concept and is not yet known. */
function nextConcept(taxonomy: PsiTaxonomy, scenario: Scenario): string | undefined {
  const objective = new Set(scenario.objective_concepts);
  const known = new Set(scenario.learner.known_concepts);
  const after = new Set<string>();
  for (const [p, q] of taxonomy.prerequisites) if (objective.has(p) && !objective.has(q) && !known.has(q)) after.add(q);
  return taxonomy.ids.find((id) => after.has(id));
}

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

/** Turns a plan into Markdown. Deterministic given the plan and the rng state. */
export function renderPlan(plan: ResponsePlan, req: PsiTutorRequest, material: ScenarioMaterial, rng: Rng): string {
  const { taxonomy } = req.course;
  const scenario = req.scenario;
  const labels = plan.objectiveOrder.map((id) => conceptLabel(taxonomy, id));
  const blocks: string[][] = [];
  const push = (...lines: string[]) => blocks.push(lines);

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

  const recap: string[] = [];
  if (plan.recap) {
    plan.recap.concepts.forEach((id, i) =>
      recap.push(recapSentence(rng, taxonomy, scenario, id, plan.recap!.references[i]!, plan.recap!.style, i)),
    );
  }

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
  if (plan.explainWhy) {
    answer.push(
      'Put simply, the explanation is that Python follows the rule literally; in other words, it does exactly what the line says.',
      'The reason this matters is that the same idea comes back in almost every program you will meet.',
    );
  }
  if (plan.bloomMatch) answer.push(...bloomSentences(scenario.target_bloom, labels));

  const example: string[] = [];
  if (plan.code) {
    example.push(plan.exampleIntro ? 'Here is an example:' : 'The corrected version:');
    example.push('', '```python', material.code, '```');
    if (plan.output) example.push('', 'Output:', '', '```text', material.output, '```');
  }
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
  if (plan.checks > 0) {
    const checks = [`Quick check: ${material.check}`];
    const extra = [
      'Can you predict what each variable holds when print() runs in your original code?',
      'Could you explain the fix back in your own words, in one sentence?',
      'Try changing one value in the example and predict the new output first.',
    ];
    for (let i = 1; i < plan.checks; i++) checks.push(extra[(i - 1) % extra.length]!);
    push(...heading('Check your understanding'), checks.join('\n\n'));
  }
  if (plan.recommendation) {
    push(
      `The best way to avoid this next time is the version shown here; I recommend it over quick workarounds because it is more readable and easier to judge at a glance.`,
    );
  }
  if (plan.extension) {
    push(
      `Next step: build your own small program that combines ${labels[0] ?? 'this idea'} with something from an earlier week, and design one test input for it.`,
    );
  }
  if (plan.challenge) {
    push('Mini-challenge: design and build your own variation of the example: plan it first, then extend it and combine it with something from an earlier week.');
  }
  if (plan.lookAhead) {
    const next = nextConcept(taxonomy, scenario);
    if (next) push(`This also prepares you for ${conceptLabel(taxonomy, next)}, which comes up later in the course.`);
  }
  if (plan.tangent) push(material.tangent);
  if (plan.closingFiller) push(pick(rng, FILLER_CLOSINGS));
  return `${blocks.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

/** The profile for a model name, or InputError listing the known profiles. */
export function getTutorProfile(model: string): TutorProfile {
  const profile = (TUTOR_PROFILES as Record<string, TutorProfile>)[model];
  if (!profile) {
    throw new InputError(`unknown simulated tutor "${model}" (known: ${Object.keys(TUTOR_PROFILES).join(', ')})`, { item: model });
  }
  return profile;
}

/**
 * Writes one simulated tutoring response. Example:
 * `simulateTutorResponse('sim-tutor-a', { course, scenario, variant: 'standard', round: 1, seed: '1' })`.
 */
export function simulateTutorResponse(model: string, req: PsiTutorRequest): string {
  const profile = getTutorProfile(model);
  const material = SIMULATED_MATERIAL[req.scenario.id];
  if (!material) throw new InputError(`simulated tutor has no material for scenario "${req.scenario.id}"`, { item: req.scenario.id });
  const base = `psi-tutor|${req.seed ?? '0'}|${model}|${req.scenario.id}|${req.variant}`;
  const planRng = seedrandom(base);
  let plan = drawPlan(profile, req, planRng);
  if (req.round === 2) plan = revisePlan(plan, profile, req, seedrandom(`${base}|round2`));
  return renderPlan(plan, req, material, seedrandom(`${base}|render|${req.round}`));
}

/** Shape of `CompletionRequest.context` for PSI requests to the simulated tutor. */
const PsiContextSchema = z.object({
  kind: z.literal('psi'),
  scenario: z.union([z.string().min(1), z.object({ id: z.string().min(1) }).loose()]),
  variant: z.enum(['standard', 'defective']),
  round: z.union([z.literal(1), z.literal(2)]),
  checklist: z.array(z.union([z.string(), z.object({}).loose()])).optional(),
  seed: z.union([z.string(), z.number()]).optional(),
  course: z.unknown().optional(),
});

/** Rough token count (words and punctuation runs), reported as usage so cost accounting has numbers. */
function roughTokens(text: string): number {
  return (text.match(/[A-Za-z0-9_]+|[^\sA-Za-z0-9_]/g) ?? []).length;
}

/**
 * The simulated tutor as a collector Provider. `req.context` must be
 * `{ kind: 'psi', scenario: <id or Scenario>, variant, round, checklist?, seed?, course? }`; the course
 * (taxonomy and scenarios) comes from `context.course` or, failing that, `options.course`.
 * Invalid context → InputError naming the run. Never throws ProviderError: the simulation has no
 * transport to fail.
 */
export function createSimulatedTutor(model: string, options: { course?: PsiCourse } = {}): Provider {
  const profile = getTutorProfile(model);
  return {
    provider: 'simulated',
    model,
    simulated: true,
    async complete(req: CompletionRequest): Promise<CompletionResult> {
      const parsed = PsiContextSchema.safeParse(req.context);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new InputError(
          `simulated tutor ${model}, run ${req.runId}: context.${issue.path.join('.') || '(top)'}: ${issue.message}`,
          { item: req.runId },
        );
      }
      const ctx = parsed.data;
      const course = (ctx.course as PsiCourse | undefined) ?? options.course;
      if (!course || !course.scenarioById) {
        throw new InputError(`simulated tutor ${model}, run ${req.runId}: no PSI course given (context.course or options.course)`, {
          item: req.runId,
        });
      }
      const scenarioId = typeof ctx.scenario === 'string' ? ctx.scenario : ctx.scenario.id;
      const scenario = course.scenarioById.get(scenarioId);
      if (!scenario) throw new InputError(`simulated tutor ${model}, run ${req.runId}: unknown scenario "${scenarioId}"`, { item: scenarioId });
      const text = simulateTutorResponse(model, {
        course,
        scenario,
        variant: ctx.variant,
        round: ctx.round,
        checklist: ctx.checklist as ChecklistItem[] | undefined,
        seed: ctx.seed === undefined ? undefined : String(ctx.seed),
      });
      return {
        text,
        finishReason: 'stop',
        refusal: null,
        modelVersion: `${model}@${profile.version}`,
        usage: { inputTokens: roughTokens(`${req.system}\n${req.user}`), outputTokens: roughTokens(text) },
        httpStatus: null,
        requestId: null,
      };
    },
  };
}
