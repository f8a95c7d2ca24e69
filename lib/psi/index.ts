/**
 * Pedagogical Suitability Index (PSI): six sub-scores of how well a tutoring response fits a learner
 * and a course sequence, their composite, PSI-guided regeneration prompts, and the aggregations the
 * analysis notebooks use. See lib/psi/README.md for every formula, pattern list and choice.
 */
export {
  DEFAULT_PSI_PARAMETERS,
  EQUAL_WEIGHTS,
  SUBSCORES,
  SUBSCORE_LABELS,
  SUM_TOLERANCE,
  composite,
  resolvePsiParameters,
  validateWeights,
} from './parameters';
export type { PsiParameters, SubscoreName, Subscores } from './parameters';
export {
  BLOOM_LEVELS,
  COURSE_WEEKS,
  CourseInfoSchema,
  DEFECT_CATEGORIES,
  PsiRecordSchema,
  RecordedScoresSchema,
  ScenarioSchema,
  VARIANTS,
  getScenario,
  loadPsiCourse,
  loadPsiRecords,
  loadPsiTaxonomy,
  makePsiCourse,
  parsePsiRecords,
  parsePsiScenarios,
  parsePsiTaxonomy,
} from './schema';
export type { CourseInfo, DefectCategory, MemoryItem, PsiCourse, PsiRecord, PsiTaxonomy, RecordedScores, Scenario, Variant } from './schema';
export { isPythonBlock, propositions, segment } from './text';
export type { CodeBlock, Proposition } from './text';
export { findConcepts, keywordPattern } from './concepts';
export type { ConceptMention } from './concepts';
export { scoreKnowledgeDistance } from './knowledge-distance';
export type { KnowledgeDistanceEvidence } from './knowledge-distance';
export { scoreTemporalViolation } from './temporal-violation';
export type { TemporalViolationEvidence } from './temporal-violation';
export { LEARNER_REFERENCE_PATTERN, SCAFFOLD_INDICATORS, adaptationAlpha, findScaffolds, scoreScaffolding } from './scaffolding';
export type { ScaffoldCategory, ScaffoldIndicator, ScaffoldingEvidence } from './scaffolding';
export { scoreForgetting } from './forgetting';
export type { ForgettingEvidence } from './forgetting';
export { EXTRANEOUS_MARKERS, scoreCognitiveLoad } from './cognitive-load';
export type { CognitiveLoadEvidence, ExtraneousCategory } from './cognitive-load';
export { BLOOM_CUES, scoreBloomAlignment } from './bloom';
export type { BloomEvidence } from './bloom';
export { scoreResponse } from './score';
export type { PsiEvidence, PsiScoring } from './score';
export { DEFAULT_WEAK_THRESHOLD, selectWeakCases } from './selection';
export type { SelectionCandidate, WeakCaseOptions, WeakCaseSelection } from './selection';
export { DEFAULT_SEVERITY_CUTOFFS, diagnose, improvementChecklist, subscoreLabel } from './diagnosis';
export type { SeverityCutoffs, Severity, Weakness } from './diagnosis';
export { buildRegenerationPrompt, formatStudentContext, questionFor, tutorRole } from './regeneration';
export type { ScoringSummary } from './regeneration';
export {
  defectiveShifts,
  deltaSensitivity,
  leaveOneOutWeights,
  meanSubscoresByModel,
  pairRegenerations,
  psiByBloomLevel,
  regenerationResults,
  regenerationSubscoreChanges,
  scorePsiRecords,
  standardVsDefective,
  weightSensitivity,
} from './aggregate';
export type { MeanRow, RegenerationPair, RegenerationSummary, ScorePsiRecordsResult, ScoredRecord, ShiftRow } from './aggregate';
export { agreementWithPsi, cohensKappa } from './human-agreement';
export type { HumanJudgedCase } from './human-agreement';
