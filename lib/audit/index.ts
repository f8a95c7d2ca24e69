export { allowedCounts, roundsTo, differenceInterval } from './counts';
export { auditKstPaper, auditSummary } from './kst-paper';
export type { AuditCheck } from './kst-paper';
