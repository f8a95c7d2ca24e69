/**
 * The simulated PSI tutor's plan of one response: which building blocks it uses and how many of each,
 * drawn from the profile's habits (round 1, `drawPlan`) and revised under the regeneration checklist
 * (round 2, `revisePlan`). Every draw comes from the seeded generator the caller passes in.
 */
import type { PsiCourse, Scenario } from '../../psi/schema';
import { laterConcepts, recapCandidates } from './labels';
import { AMBIGUOUS_DEFECTS, CONTEXT_POOR_DEFECTS, type TutorProfile } from './profiles';

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

/** A seeded source of uniform numbers in [0, 1) (a seedrandom generator). */
export type Rng = () => number;

export function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

export function intBetween(rng: Rng, [lo, hi]: readonly [number, number]): number {
  return lo + Math.floor(rng() * (hi - lo + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
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
  /** The explanatory framing is worded as a judgement (Evaluate vocabulary) rather than an explanation. */
  judgingFraming: boolean;
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

/**
 * The recap of a round-1 plan and whether it opens the answer. The draws come in a fixed order (wants a
 * recap, recap first, basics fallback, then the concept counts), which the seeded corpus depends on.
 */
function drawRecap(profile: TutorProfile, req: PsiTutorRequest, rng: Rng): Pick<ResponsePlan, 'recap' | 'recapFirst'> {
  const h = profile.habits;
  const d = profile.defective;
  const defective = req.variant === 'defective';
  const { taxonomy } = req.course;
  const candidates = recapCandidates(taxonomy, req.scenario);
  const wantsRecap = chance(rng, h.recap * (defective ? d.learnerRecap : 1));
  const recapBeforeAnswer = chance(rng, h.recapFirst);
  const contextPoor = (req.scenario.defective.categories as readonly string[]).some((c) => CONTEXT_POOR_DEFECTS.includes(c));
  const basics = defective && chance(rng, contextPoor ? d.basicsRecap.contextPoor : d.basicsRecap.other);
  if (basics && candidates.length > 0) {
    // No learner context: fall back to the course's default order, from the basics up.
    const n = Math.min(candidates.length, intBetween(rng, h.recapConcepts) + intBetween(rng, d.basicsExtra));
    const chosen = new Set(candidates.slice(0, n));
    const concepts = taxonomy.ids.filter((id) => chosen.has(id));
    return { recap: { style: 'basics', concepts, references: concepts.map(() => false) }, recapFirst: true };
  }
  if (wantsRecap && candidates.length > 0) {
    const n = Math.min(candidates.length, intBetween(rng, h.recapConcepts));
    const concepts = candidates.slice(0, n);
    const pRef = h.learnerReference * (defective ? d.learnerReference : 1);
    return { recap: { style: 'learner', concepts, references: concepts.map(() => chance(rng, pRef)) }, recapFirst: recapBeforeAnswer };
  }
  return { recap: null, recapFirst: false };
}

/** Round-1 plan: the profile's habits, shifted by a defective prompt. */
export function drawPlan(profile: TutorProfile, req: PsiTutorRequest, rng: Rng): ResponsePlan {
  const h = profile.habits;
  const defective = req.variant === 'defective';
  const d = profile.defective;
  const { taxonomy } = req.course;
  const scenario = req.scenario;
  const scaffoldScale = defective ? d.scaffolding : 1;
  const { recap, recapFirst } = drawRecap(profile, req, rng);
  const ambiguous = (scenario.defective.categories as readonly string[]).some((c) => AMBIGUOUS_DEFECTS.includes(c));

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
    // Last draw of the plan: a profile without the habit (0) keeps every earlier draw and text unchanged.
    judgingFraming: chance(rng, h.judgingFraming),
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

