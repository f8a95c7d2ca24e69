/** Inferential helpers of §4.4: state-level means, paired contrasts, bootstrap, sign-flip test, Holm, ranks. */
export { mean, sum } from './mean';
export { assertFiniteValues } from './values';
export { percentileLinear } from './percentile';
export { bootstrapMeans, bootstrapMeanInterval } from './bootstrap';
export type { BootstrapOptions, BootstrapInterval } from './bootstrap';
export { EXACT_SIGN_FLIP_MAX_VALUES, exactSignFlipTest, signFlipTest, SIGN_FLIP_TIE_TOLERANCE } from './signflip';
export type { SignFlipOptions, SignFlipResult } from './signflip';
export { holm, significantAt } from './holm';
export { competitionRanks, compareNumbers, compareProportions } from './ranks';
export type { Compare, RankOptions, Proportion } from './ranks';
export { stateMeans, pairedDifferences } from './aggregate';
export type { StateAccessors, PairedDifferences } from './aggregate';
export { conditionContrast } from './contrast';
export type { ContrastOptions, ConditionContrast } from './contrast';
export { cohensKappa } from './kappa';
export type { KappaLabel } from './kappa';
