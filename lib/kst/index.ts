/**
 * Knowledge Space Theory core: domain files, surmise/cover relations, knowledge-space enumeration,
 * fringes, state sampling and presentation permutations. See lib/kst/README.md.
 */
export { ComponentSchema, DomainFileSchema, IdSchema, STRUCTURE_FORMS, buildDomain, loadDomain, loadDomainDir, parseDomain } from './domain';
export type { Component, Domain, DomainFile } from './domain';
export { compileStructure, idsToBits, bitsToIds, unknownIds } from './structure';
export type { CompiledStructure } from './structure';
export { coverRelation, surmiseRelation } from './relation';
export {
  DEFAULT_MAX_STATES,
  compareMasks,
  countForJson,
  countStates,
  countStatesExact,
  enumerateStates,
  forEachStateBits,
  forEachStateMask,
  isClosedUnderUnionAndIntersection,
  KEPT_STATES_BYTES,
  walkSpace,
} from './space';
export type { WalkedSpace } from './space';
export { checkState, innerFringe, innerFringeBits, isStateBits, outerFringe, outerFringeBits } from './fringe';
export type { StateCheck } from './fringe';
export { SAMPLING_SCHEME, sampleStates } from './sampling';
export type { SampleOptions, StateSample } from './sampling';
export { presentation, presentationOrders, presentationSeed } from './presentation';
export type { Presentation } from './presentation';
export type { StructureForm } from './forms';
export { basisOfStateRows } from './forms';
export { basisBits, checkSpace, domainBasisModel, knowledgeBasis, outerFringeNotions, reduceNotions, surmiseFunction } from './general';
export type { SpaceCheck } from './general';
export { atomCodes, basisModel, countUnionStates, decisionOrder, forEachUnionState, innerFringeFromBasis, isStateFromBasis, outerFringeFromBasis } from './basis';
export type { BasisModel } from './basis';
export { MAX_UNIFORM_SAMPLE_STATES, UNIFORM_SCHEME } from './sampling';
export { BudgetError, DEFAULT_WORK_BUDGET, UNLIMITED, requireBudget, spend, workBudget } from './budget';
export type { WorkBudget } from './budget';
