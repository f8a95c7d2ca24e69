/** Set measures of §3.3: response-level scores, presentation agreement and macro averages. */
export { overlapCounts } from './sets';
export type { OverlapCounts } from './sets';
export { symmetricDifference, exactMatch, precision, recall, f1Score, jaccard } from './measures';
export { scoreResponse, invalidResponseScores, MEASURES } from './response';
export type { ResponseScores, Measure } from './response';
export { setAgreement } from './set-agreement';
export type { SetAgreement } from './set-agreement';
export { macroAverage } from './macro';
export type { MacroScores } from './macro';
