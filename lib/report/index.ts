export { figure1Spec, figure2Spec, figure3Spec } from './kst-figures';
// Analysis, not presentation (lib/analysis); re-exported for the notebooks, which import the report.
export { modelComparison } from '../analysis/model-comparison';
export { terminalSummary } from '../analysis/terminal';
export type { FigureSpec } from '../figures/spec';
export { table3Comparison, table4Comparison, domainConditionComparison, contrastComparison, orderAgreementComparison } from './kst-tables';
export type { PublishedKstTables } from './kst-tables';
export { describeContrast, formatP } from './contrast-text';
export { contrastDifferences, contrastRow, bootstrapDistribution, inferenceSeeds, bootstrapHistogramSpec, contrastTable } from './kst-inference';
export { paperRowFor, paperRows, modelLabel, shortModelName } from './mirrors';
export { simulatedNotice, simulatedShare, anySimulated, markSimulated } from './simulated';
export { paperDomainOrder, paperFigure3For, figure1WithPaper, figure2WithPaper, figure3WithPaper, figure3Comparison } from './kst-paper-figures';
export type { PublishedKstFigures } from './kst-paper-figures';
export { agreementTable, terminalComparison } from './kst-presentation-agreement';
export type { TerminalSummary } from '../analysis/terminal';
export { graphSummaryTable, graphVerdictSpec, graphRowsTable, idSetCell } from './graphs';
export { overallComparison } from './overall';
export * from './kst-diagrams';
export * from './kst-foundations';
export * from './kst-collection';
export * from './kst-scoring';
// The PSI helpers share names with the KST ones (table4Comparison, …), so they come as namespaces,
// one per notebook as the files are (psiTables: what they share).
export * as psiTables from './psi-tables';
export * as psiScoring from './psi-scoring';
export * as psiRound1 from './psi-round1';
export * as psiRegeneration from './psi-regeneration';
export * as psiSensitivityAndRatings from './psi-sensitivity-and-ratings';
export * as psiFigures from './psi-figures';
export * from './frames';
