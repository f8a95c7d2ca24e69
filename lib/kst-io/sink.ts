/** The streaming atomic writer lives in lib/io (one home for atomic writes, targets and temporary files). */
export { openFileSink, stdoutSink, type FileSink } from '../io/sink';
