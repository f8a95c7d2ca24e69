import { writeSync } from 'node:fs';

/** The longest wait between two tries of a full pipe, in ms. */
const FULL_PIPE_MAX_WAIT_MS = 64;

/**
 * Writes the whole chunk. writeSync may write part of it and return what it wrote: a disk that fills
 * up in the middle of a write stores what fits and returns that count (the next write fails with
 * ENOSPC), and a pipe may take only part. So this loops until every byte is written or a write fails.
 * On a non-blocking pipe (standard output in a worker thread, or when Node set O_NONBLOCK) a full pipe
 * throws EAGAIN instead of waiting: the reader is slower than the writer, so this waits (1, 2, 4 …
 * 64 ms, asleep in Atomics.wait, which a worker's termination interrupts) and tries again.
 */
export function writeChunk(fd: number, chunk: string | Uint8Array, sleep: (ms: number) => void = sleepSync): void {
  const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
  let wait = 1;
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
      wait = 1;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      sleep(wait);
      wait = Math.min(wait * 2, FULL_PIPE_MAX_WAIT_MS);
    }
  }
}

/** Sleeps the thread for `ms` without spinning. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
