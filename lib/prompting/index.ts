/**
 * Prompting for the KST benchmark: the four prompt conditions P0–P3, the structured-response schema
 * sent to providers, local validation of the answers, and the position <-> canonical ID mapping.
 * See README.md in this folder.
 */
export { CONDITIONS, CONDITION_LABELS, isCondition } from '../conditions';
export type { Condition } from '../conditions';
export { buildPrompt, promptHash, relationsBlock, statesBlock, SYSTEM_PROMPT } from './prompt';
export type { Prompt } from './prompt';
export { responseJsonSchema, responseSchema, responseSchemaName } from './schema';
export type { ParsedResponse } from './schema';
export {
  validateResponse,
  extractJson,
  INVALID_REASONS,
  TRUNCATION_FINISH_REASONS,
  REFUSAL_FINISH_REASONS,
} from './validate';
export type { InvalidReason, ValidationContext, ValidationResult } from './validate';
export { idsToPositions, positionsToIds, positionIndex } from './positions';
