export { writeFileAtomic, writeFilesAtomic } from './atomic';
export { readJsonl } from './jsonl';
export { checkJson, parseJsonFile, parseJsonl, zodPathItem } from './json';
export type { JsonlLine, ParsedJsonl } from './json';
