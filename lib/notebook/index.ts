/**
 * Notebook machinery: the ipynb format, papermill-style parameters, the headless tslab runner and
 * environment.md. Notebooks themselves only need `projectRoot`/`enterProjectRoot` from here (and
 * `../dist/lib/figures` for figures and tables); the runner requires tslab lazily.
 */
export * from './ipynb';
export * from './parameters';
export { OutputCollector } from './outputs';
export { NotebookSession, executeNotebook, NotebookExecutionError, describeFailure } from './execute';
export type { CellFailure, ExecuteOptions, ExecutionResult } from './execute';
export { projectRoot, enterProjectRoot } from './project';
export { collectEnvironment, renderEnvironment, hashRawInputs, sha256File } from './environment';
export type { EnvironmentInfo, RawInput } from './environment';
