export { figure1Spec, figure2Spec, figure3Spec, modelComparison } from './kst-figures';
export type { FigureSpec } from './kst-figures';
export { table3Comparison, table4Comparison, domainConditionComparison, contrastComparison, orderAgreementComparison } from './kst-tables';
export type { PublishedKst } from './kst-tables';
