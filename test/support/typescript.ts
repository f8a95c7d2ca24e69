import { join } from 'node:path';

/**
 * Node options that let a child process run the project's TypeScript: tsc's compiled copy in dist/
 * when it is current, else the source transpiled in memory (scripts/test-runner/hook.js). A start
 * costs about 0.1 s of CPU, where `--import tsx` cost about 0.5 s.
 */
export const RUN_TYPESCRIPT: readonly string[] = ['--require', join(__dirname, '..', '..', 'scripts', 'test-runner', 'hook.js')];
