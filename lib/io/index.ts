export { temporarySibling, writeFileAtomic, writeFilesAtomic } from './atomic';
export { readJsonl } from './jsonl';
export { escapeHtml } from './html';
export { csvField, csvText } from './csv';
export { checkJson, parseJsonFile, parseJsonl, readJsonFile, zodPathItem } from './json';
export type { JsonlLine, ParsedJsonl } from './json';
export { ensureDir } from './dirs';
export { isOsError, osErrorMeaning, osErrorMessage, osInputError, osWriteErrorAt } from './os-error';
