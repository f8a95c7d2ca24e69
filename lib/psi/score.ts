import { scoreBloomAlignment, type BloomEvidence } from './bloom';
import { scoreCognitiveLoad, type CognitiveLoadEvidence } from './cognitive-load';
import { findConcepts, type ConceptMention } from './concepts';
import { scoreForgetting, type ForgettingEvidence } from './forgetting';
import { scoreKnowledgeDistance, type KnowledgeDistanceEvidence } from './knowledge-distance';
import { composite, resolvePsiParameters, type PsiParameters, type Subscores } from './parameters';
import { adaptationAlpha, scoreScaffolding, type ScaffoldingEvidence } from './scaffolding';
import type { PsiCourse, Scenario } from './schema';
import { scoreTemporalViolation, type TemporalViolationEvidence } from './temporal-violation';

/** Everything scoreResponse found, per sub-score. */
export interface PsiEvidence {
  kd: KnowledgeDistanceEvidence;
  tv: TemporalViolationEvidence;
  sd: ScaffoldingEvidence;
  ef: ForgettingEvidence;
  cl: CognitiveLoadEvidence;
  ra: BloomEvidence;
  /** Every concept mention (first offset, count, keyword) shared by KD, TV, SD's α and EF. */
  mentions: ConceptMention[];
}

export interface PsiScoring {
  psi: number;
  subscores: Subscores;
  evidence: PsiEvidence;
}

/**
 * Scores one tutoring response for one scenario: the six sub-scores and the composite
 * PSI = Σ w_i S_i (parameters.ts `composite`). Concepts are detected once (concepts.ts) and shared:
 * KD compares them with the learner's known concepts, TV checks their first-mention order against
 * the prerequisite pairs, SD's α_adapt counts known and objective concepts, EF (response mode) uses
 * the mentioned memory concepts. Pure: same inputs, same output.
 *
 * `params` may be partial; it is merged into DEFAULT_PSI_PARAMETERS and validated.
 */
export function scoreResponse(
  text: string,
  scenario: Scenario,
  course: PsiCourse,
  params: Partial<PsiParameters> = {},
): PsiScoring {
  const p = resolvePsiParameters(params);
  const { taxonomy } = course;
  const mentions = findConcepts(text, taxonomy, p.matchPlurals);
  const found = mentions.map((m) => m.id);
  const known = new Set(scenario.learner.known_concepts);
  const objective = new Set(scenario.objective_concepts);

  const kd = scoreKnowledgeDistance(found, scenario.learner.known_concepts, p);
  const pairs = p.tvRelation === 'transitive' ? taxonomy.closure : taxonomy.prerequisites;
  const tv = scoreTemporalViolation(mentions, pairs, p.tvRelation);
  const alpha = adaptationAlpha(
    text,
    found.filter((id) => known.has(id)),
    found.filter((id) => objective.has(id)),
    p,
  );
  const sd = scoreScaffolding(text, alpha, p.codeBlockPropositions);
  const ef = scoreForgetting(scenario.learner.memory, p.efMode, found);
  const cl = scoreCognitiveLoad(text, p.codeBlockPropositions);
  const ra = scoreBloomAlignment(text, scenario.target_bloom, p);

  const subscores: Subscores = { kd: kd.score, tv: tv.score, sd: sd.score, ef: ef.score, cl: cl.score, ra: ra.score };
  return {
    psi: composite(subscores, p.weights),
    subscores,
    evidence: { kd: kd.evidence, tv: tv.evidence, sd: sd.evidence, ef: ef.evidence, cl: cl.evidence, ra: ra.evidence, mentions },
  };
}
