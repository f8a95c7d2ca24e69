/**
 * Behavioural profiles of the simulated PSI tutors. Each profile is a set of habits — how often a
 * response scaffolds, explains prerequisites before the answer, refers to what the learner already
 * knows, shows code, hedges or wanders off-topic — and how those habits change under a defective
 * student prompt and under a PSI regeneration checklist.
 *
 * The profiles imitate the *behaviour pattern* the PSI paper reports for four real tutors; they carry
 * neutral names so that no simulated output can be mistaken for a real model's:
 *
 * | profile       | mirrors (paper) | habit in one line                                              |
 * |---------------|-----------------|----------------------------------------------------------------|
 * | `sim-tutor-a` | ChatGPT         | heavy scaffolding: steps, worked examples, hints, checks        |
 * | `sim-tutor-b` | Gemini          | concise prose answer, little scaffolding, answer first          |
 * | `sim-tutor-c` | Gemma 4         | explanatory prose, occasional example, answer first             |
 * | `sim-tutor-d` | Qwen 3          | moderate scaffolding, often recaps prerequisites first          |
 *
 * All probabilities are per response (or per element where stated). Version 2 was tuned by hand against
 * this project's PSI scorer (lib/psi/score.ts); version 3 (these) is the fit of
 * lib/simulation/psi-tutor/fit.ts started from version 2 (`node --import tsx scripts/fit-psi.ts
 * --search-replicates 10 --holdout-replicates 8 --passes 2 --confirm-replicates 12`): every step was
 * kept only if it also lowered the objective on held-out seeds, and on 12 fresh seeds J fell from 161.2
 * to 81.3 (data/replicates/psi-fit.json, against the version-2 habits of profiles-v2.ts).
 * lib/simulation/psi-tutor/README.md has the before/after table.
 * No score is set directly: every number comes from the text the habits produce.
 * Bump `version` when a habit changes (it is recorded as `model_version` in every record).
 */

export type TutorProfileId = 'sim-tutor-a' | 'sim-tutor-b' | 'sim-tutor-c' | 'sim-tutor-d';

/** Defect categories that hide where the learner stands (no level, no course context). */
export const CONTEXT_POOR_DEFECTS: readonly string[] = ['missing_context', 'too_short', 'keyword_only'];
/** Defect categories that leave the question itself open to several readings. */
export const AMBIGUOUS_DEFECTS: readonly string[] = ['unclear_goal', 'multi_issue', 'wrong_terminology', 'vague_error', 'code_dump'];

export interface TutorHabits {
  /** P(the response recaps known prerequisite concepts at all — a learner-specific recap). */
  recap: number;
  /** P(the recap, or a basics recap, comes before the answer rather than after it). */
  recapFirst: number;
  /** Number of known concepts recapped (min, max) when a recap is written. */
  recapConcepts: readonly [number, number];
  /** P(a recap sentence names the learner's history: "you already know", "from week 3"). */
  learnerReference: number;
  /** P(objective concepts are explained in prerequisite order rather than in question order). */
  prerequisiteOrder: number;
  /** Plain explanatory sentences added after the key correction (min, max). */
  proseSentences: readonly [number, number];
  /** P(a worked code example); P(its output is shown) given an example. */
  codeExample: number;
  showOutput: number;
  /** P(numbered steps); number of steps (min, max). */
  steps: number;
  stepCount: readonly [number, number];
  /** P(a hint), P(a comprehension check), P(an analogy). */
  hint: number;
  check: number;
  analogy: number;
  /**
   * P(the response adds vocabulary of the scenario's target Bloom level), by target level
   * (Remember … Create). Tutors readily state facts, explain and show how to apply an idea; asking the
   * learner to analyse (trace, find the root cause) is a less habitual move, so the probability falls
   * with the level.
   */
  bloomMatch: readonly [number, number, number, number, number, number];
  /**
   * P(an explanatory framing — "the explanation is …, in other words …" — whatever the target level).
   * Explaining is a tutor's default register: it pulls the detected Bloom level toward Understand,
   * which fits Understand targets and falls short of Apply and Analyze ones.
   */
  explainWhy: number;
  /**
   * P(the explanatory framing, when written, is worded as a judgement — "judging by the rule", "the
   * trade-off to assess" — instead of an explanation). The same two sentences with the same number of
   * propositions and no scaffolding indicator, so it moves S_RA (and with it the tutor's PSI level)
   * without moving S_SD: the per-tutor level knob of the fit (lib/simulation/psi-tutor/fit.ts).
   * Drawn last in the plan, so 0 leaves every other draw, and every text, as it was.
   */
  judgingFraming: number;
  /** P(a closing "next step" suggestion to build or design something new — Create-level vocabulary). */
  extension: number;
  /** P(a recommendation of the best approach — Evaluate-level vocabulary). */
  recommendation: number;
  /** P(an opening pleasantry / closing filler), P(a hedged sentence), P(an off-topic aside). */
  filler: number;
  hedge: number;
  tangent: number;
}

/**
 * How a defective (noisy, context-poor) student prompt changes the habits. What the tutor does
 * depends on the scenario's defect categories: a prompt that hides the learner's level
 * (`CONTEXT_POOR_DEFECTS`) invites a "from the basics" recap in course order; an ambiguous one
 * (`AMBIGUOUS_DEFECTS`) invites covering other readings of the question, which names concepts the
 * learner has not met. Both keep the course order and lose learner calibration (the paper's
 * S_TV up, S_KD down).
 */
export interface DefectiveShift {
  /** Multiplier of `learnerReference` (the prompt hides who the learner is). */
  learnerReference: number;
  /** Multiplier of the probability of a learner-specific recap (the tutor cannot tell what the learner knows). */
  learnerRecap: number;
  /**
   * P(a "start from the basics" recap in course order, written without learner references), when
   * the prompt has a context-poor defect / when it has none.
   */
  basicsRecap: { contextPoor: number; other: number };
  /** Extra concepts recapped from the basics beyond the usual recap size (min, max). */
  basicsExtra: readonly [number, number];
  /**
   * P(covering another reading of the question, naming not-yet-known neighbouring concepts), when the
   * prompt has an ambiguous defect / when it has none (a terse prompt can be misread too).
   */
  alternatives: { ambiguous: number; other: number };
  /** Number of not-yet-known concepts named when covering another reading (min, max). */
  alternativeConcepts: readonly [number, number];
  /** Multiplier of hint / check / steps probabilities. */
  scaffolding: number;
  /** P(the response first restates what it thinks the question is). */
  restate: number;
}

/** How the tutor follows a PSI regeneration checklist (round 2). */
export interface RegenerationHabits {
  /**
   * P(complying with a checklist item, per targeted sub-score). Concrete, instruction-like requests
   * (add an example, remove filler) are followed more reliably than requests that need pedagogical
   * judgement (prerequisite order, cognitive level), as the paper observes.
   */
  compliance: Readonly<Record<'sd' | 'kd' | 'tv' | 'ra' | 'cl' | 'ef', number>>;
  /** P(new scaffolding is placed before the prerequisite recap), which can break prerequisite order. */
  scaffoldFirst: number;
  /**
   * P(a recap the revision adds or enlarges is appended after the answer — "as you saw in week 3 …" —
   * rather than placed before it). The recap names prerequisites after the concepts that depend on
   * them, which S_TV counts as violations.
   */
  appendRecap: number;
  /** P(the added steps are phrased as actions: use / run / change), shifting the Bloom level to Apply. */
  actionPhrasing: number;
  /** P(a "mini-challenge" to build a variation is added with the scaffolding, pulling the Bloom level up to Create). */
  challenge: number;
  /** Extra comprehension checks / hints added when complying with a scaffolding item (min, max). */
  extraScaffolds: readonly [number, number];
}

export interface TutorProfile {
  id: TutorProfileId;
  /** The paper's model whose reported behaviour this profile imitates. */
  mirrors: 'ChatGPT' | 'Gemini' | 'Gemma 4' | 'Qwen 3';
  /** Version tag reported as `modelVersion`; bump when habits change so old corpora stay attributable. */
  version: string;
  habits: TutorHabits;
  defective: DefectiveShift;
  regeneration: RegenerationHabits;
}

export const TUTOR_PROFILES: Readonly<Record<TutorProfileId, TutorProfile>> = {
  'sim-tutor-a': {
    id: 'sim-tutor-a',
    mirrors: 'ChatGPT',
    version: '3',
    habits: {
      recap: 0.75,
      recapFirst: 0.25,
      recapConcepts: [2, 4],
      learnerReference: 0.8,
      prerequisiteOrder: 0.3,
      proseSentences: [4, 6],
      codeExample: 0.95,
      showOutput: 0.9,
      steps: 1,
      stepCount: [3, 4],
      hint: 1,
      check: 1,
      analogy: 0.75,
      bloomMatch: [0.6, 0.5, 0.4, 0.2, 0.2, 0.2],
      explainWhy: 0.75,
      judgingFraming: 0,
      extension: 0.8,
      recommendation: 0.7,
      filler: 0.005,
      hedge: 0.005,
      tangent: 0.008,
    },
    defective: { learnerReference: 0.4, learnerRecap: 0.3, basicsRecap: { contextPoor: 0.1, other: 0.03 }, basicsExtra: [2, 4], alternatives: { ambiguous: 0.5, other: 0.25 }, alternativeConcepts: [3, 5], scaffolding: 0.7, restate: 0.7 },
    regeneration: { compliance: { sd: 0.85, kd: 0.6, tv: 0.05, ra: 0.1, cl: 0.9, ef: 0.5 }, scaffoldFirst: 0.7, appendRecap: 0.9, actionPhrasing: 0.3, challenge: 0.75, extraScaffolds: [0, 1] },
  },
  'sim-tutor-b': {
    id: 'sim-tutor-b',
    mirrors: 'Gemini',
    version: '3',
    habits: {
      recap: 0.75,
      recapFirst: 0.25,
      recapConcepts: [2, 3],
      learnerReference: 0.3,
      prerequisiteOrder: 0.3,
      proseSentences: [8, 11],
      codeExample: 0.6,
      showOutput: 0.2,
      steps: 0.05,
      stepCount: [3, 3],
      hint: 0.05,
      check: 0.05,
      analogy: 0.1,
      bloomMatch: [0.5, 0.4, 0.3, 0.1, 0.1, 0.1],
      explainWhy: 0.75,
      judgingFraming: 0.25,
      extension: 0.8,
      recommendation: 0.7,
      filler: 0.005,
      hedge: 0.005,
      tangent: 0.008,
    },
    defective: { learnerReference: 0.4, learnerRecap: 0.4, basicsRecap: { contextPoor: 0.1, other: 0.03 }, basicsExtra: [2, 4], alternatives: { ambiguous: 0.75, other: 0.5 }, alternativeConcepts: [3, 5], scaffolding: 0.56, restate: 0.7 },
    regeneration: { compliance: { sd: 0.72, kd: 0.6, tv: 0.05, ra: 0.1, cl: 0.9, ef: 0.5 }, scaffoldFirst: 0.7, appendRecap: 0.9, actionPhrasing: 0.3, challenge: 0.75, extraScaffolds: [0, 1] },
  },
  'sim-tutor-c': {
    id: 'sim-tutor-c',
    mirrors: 'Gemma 4',
    version: '3',
    habits: {
      recap: 0.9375,
      recapFirst: 0.25,
      recapConcepts: [2, 3],
      learnerReference: 0.5,
      prerequisiteOrder: 0.3,
      proseSentences: [5, 8],
      codeExample: 0.8,
      showOutput: 0.35,
      steps: 0.128,
      stepCount: [3, 4],
      hint: 0.096,
      check: 0.064,
      analogy: 0.16,
      bloomMatch: [0.4, 0.32, 0.24, 0.08, 0.08, 0.08],
      explainWhy: 0.75,
      judgingFraming: 0,
      extension: 0.8,
      recommendation: 0.7,
      filler: 0.005,
      hedge: 0.005,
      tangent: 0.008,
    },
    defective: { learnerReference: 0.4, learnerRecap: 0.6, basicsRecap: { contextPoor: 0.1, other: 0.03 }, basicsExtra: [2, 4], alternatives: { ambiguous: 0.9375, other: 0.625 }, alternativeConcepts: [3, 5], scaffolding: 0.32, restate: 0.7 },
    regeneration: { compliance: { sd: 0.85, kd: 0.6, tv: 0.05, ra: 0.1, cl: 0.9, ef: 0.5 }, scaffoldFirst: 0.7, appendRecap: 0.9, actionPhrasing: 0.3, challenge: 0.75, extraScaffolds: [0, 1] },
  },
  'sim-tutor-d': {
    id: 'sim-tutor-d',
    mirrors: 'Qwen 3',
    version: '3',
    habits: {
      recap: 0.75,
      recapFirst: 0.25,
      recapConcepts: [2, 4],
      learnerReference: 0.6,
      prerequisiteOrder: 0.3,
      proseSentences: [4, 6],
      codeExample: 0.85,
      showOutput: 0.6,
      steps: 0.32,
      stepCount: [3, 4],
      hint: 0.256,
      check: 0.256,
      analogy: 0.224,
      bloomMatch: [0.55, 0.45, 0.35, 0.15, 0.15, 0.15],
      explainWhy: 0.75,
      judgingFraming: 0,
      extension: 0.8,
      recommendation: 0.7,
      filler: 0.005,
      hedge: 0.005,
      tangent: 0.008,
    },
    defective: { learnerReference: 0.4, learnerRecap: 0.4, basicsRecap: { contextPoor: 0.1, other: 0.03 }, basicsExtra: [2, 4], alternatives: { ambiguous: 0.6, other: 0.4 }, alternativeConcepts: [3, 5], scaffolding: 0.448, restate: 0.7 },
    regeneration: { compliance: { sd: 0.68, kd: 0.6, tv: 0.05, ra: 0.1, cl: 0.9, ef: 0.5 }, scaffoldFirst: 0.7, appendRecap: 0.9, actionPhrasing: 0.3, challenge: 0.75, extraScaffolds: [0, 1] },
  },
};

export const TUTOR_PROFILE_IDS = Object.keys(TUTOR_PROFILES) as TutorProfileId[];
