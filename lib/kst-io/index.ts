/**
 * The KST ecosystem's file formats (kstIO: matrix, KST Tools, SRBT v2.0, CSV, surmise-function CSV):
 * parsing, writing, import to and export from domain files. See lib/kst-io/README.md.
 */
export { MATRIX_FORMATS, SRBT_STRUCTS, detectFormat, formatMatrix, formatMatrixChunks, matrixRow, parseMatrixFile, shown, splitLines } from './formats';
export type { MatrixFormat, ParsedMatrix, SrbtStruct } from './formats';
export { EXPORT_FORMATS, EXPORT_WHATS, STRUCTURE_KINDS, exportStructure, exportedItemNames, importStructure, itemIdsFromNames, readItemDescriptions } from './convert';
export type { ExportWhat, ImportOptions, ItemDescriptions, StructureKind } from './convert';
export { consumingSink, streamStates, writeSpaceJsonLines } from './stream';
export type { ChunkSink } from './stream';
export { openFileSink, stdoutSink } from './sink';
export type { FileSink } from './sink';
