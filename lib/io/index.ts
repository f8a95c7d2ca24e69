export { writeFileAtomic, writeFilesAtomic } from './atomic';
export { readJsonl } from './jsonl';
export type { JsonlLine } from './jsonl';
