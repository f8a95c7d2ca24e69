export { allowedCounts, roundsTo, differenceInterval } from './counts';
export { auditKstPaper } from './kst-paper';
export type { AuditCheck } from './kst-paper';
