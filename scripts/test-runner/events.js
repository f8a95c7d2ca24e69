// node:test reporter of the test processes: one JSON line per event scripts/run-tests.js needs (file
// started / finished, a test passed, failed or was skipped), written to the pipe it reads (fd 3).
// Written with writeSync, not yielded to a --test-reporter-destination: the pipe is a socket, which
// /dev/fd/3 cannot open, and a synchronous write is never lost when the process exits.
'use strict';
const { readFileSync, writeSync } = require('node:fs');
const { inspect } = require('node:util');

function send(record) {
  const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(3, bytes, at);
    } catch (err) {
      // the pipe is full (non-blocking): wait for the reader
      if (err.code !== 'EAGAIN') throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/**
 * CPU seconds this process and the children it has waited for have used so far (user + system; from
 * /proc/self/stat, so Linux only: undefined elsewhere). A child's own waited-for children count too;
 * processes re-parented away from their starter (Chromium's renderers) do not.
 */
function cpuSoFar() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // utime, stime, cutime, cstime (fields 14-17 of proc(5)), in clock ticks of 1/100 s
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

function describeError(error) {
  if (!error) return undefined;
  // node:test wraps a test's own error (failureType testCodeFailure) in its cause.
  const own = error.cause instanceof Error || (error.cause && typeof error.cause === 'object') ? error.cause : error;
  return inspect(own, { depth: 4, breakLength: 120 });
}

// An async generator that yields nothing: node:test's reporter contract.
module.exports = async function* events(source) {
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:dequeue' && data.nesting === 0) {
      send({ type: 'file-start', file: data.name });
    } else if (type === 'test:diagnostic' && data.nesting === 0 && /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /.test(data.message) === false) {
      send({ type: 'diagnostic', message: data.message });
    } else if (type === 'test:pass' || type === 'test:fail') {
      const details = data.details ?? {};
      send({
        type: type === 'test:pass' ? 'pass' : 'fail',
        name: data.name,
        file: data.file,
        nesting: data.nesting,
        suite: details.type === 'suite',
        skip: data.skip !== undefined && data.skip !== false,
        skipReason: typeof data.skip === 'string' ? data.skip : undefined,
        todo: data.todo !== undefined && data.todo !== false,
        ms: details.duration_ms,
        cpu: data.nesting === 0 ? cpuSoFar() : undefined,
        error: type === 'test:fail' ? describeError(details.error) : undefined,
        // a suite that failed only because a test in it failed (that test is reported itself)
        onlySubtests: details.error?.failureType === 'subtestsFailed',
      });
    }
  }
  send({ type: 'end' });
};
