import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  linkSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { fsync, write } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../errors';
import { ensureDir } from '../io/dirs';
import { readFileNamed, withPath } from '../io/target';
import { processAlive } from '../io/temporaries';
import { writeChunk } from '../io/write-all';
import { parseJsonl, type ParsedJsonl } from '../io/json';
import { decodeInputText } from '../io/read';

/**
 * Append-only JSON Lines files for the collector's audit trail.
 *
 * Crash safety: each record is serialised to one line and handed to the kernel in ONE `write` on a file
 * opened with O_APPEND, then fsync'ed before the call returns. A process killed at any point therefore
 * leaves either the whole line or (rarely, e.g. power loss) a torn final fragment without its newline;
 * the next run repairs it before reading (see `repairTail`). Nothing is ever rewritten in place.
 */

/** What `repairTail` found and did at the end of a file. */
export type TailRepair =
  | { kind: 'clean' }
  /** The last line was a complete JSON record missing only its newline: the newline was added. */
  | { kind: 'newline_added'; line: number }
  /** The last line was an unparsable fragment: it was copied to `tornFile` and truncated away. */
  | { kind: 'torn_moved'; line: number; bytes: number; tornFile: string };

/**
 * Checks the end of `file`. A complete JSON last line without newline keeps its data (newline added);
 * an unparsable last fragment (a torn write) is appended to `tornFile` as `{file, line, text}` and then
 * truncated away, so the data is preserved for audit and the JSONL file becomes whole again. An
 * unparsable line anywhere else is not a torn write but corruption: InputError naming file and line.
 */
export function repairTail(file: string, tornFile: string): TailRepair {
  if (!existsSync(file)) return { kind: 'clean' };
  const bytes = readFileNamed(file);
  const { text, tornTail } = auditText(bytes, file, { tornTailAllowed: true });
  const parsed = parseAuditLines(text, file);
  if (tornTail === null && (text.length === 0 || text.endsWith('\n'))) return { kind: 'clean' };
  const tailStart = bytes.lastIndexOf(0x0a) + 1;
  const tail = tornTail ?? text.slice(text.lastIndexOf('\n') + 1);
  const line = text.split('\n').length;
  // A blank fragment is not a record either: moved aside like any torn write.
  const parses = tornTail === null && parsed.torn === undefined && tail.trim() !== '';
  const fd = openSync(file, 'r+');
  try {
    if (parses) {
      writeSync(fd, '\n', bytes.length);
    } else {
      appendLine(tornFile, JSON.stringify({ file, line, text: tail }));
      // Cut at the byte after the last newline: not at a length computed from the decoded text, which
      // is wrong when the write stopped inside a multibyte character (decoded as U+FFFD, 3 bytes).
      ftruncateSync(fd, tailStart);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return parses
    ? { kind: 'newline_added', line }
    : { kind: 'torn_moved', line, bytes: bytes.length - tailStart, tornFile };
}

/**
 * An audit file's text through lib/io's strict decoder (an invalid byte is refused with its line, as the
 * analysis's reader refuses it). Only the fragment after the last newline may fail, when torn lines are
 * allowed: a write torn inside a multibyte character leaves part of one there. A fragment that fails
 * strict decoding is torn by definition, never data (a complete record with an invalid byte was read
 * with U+FFFD): `text` then stops at the last newline and `tornTail` is the fragment's lenient text, for
 * the copy repairTail moves aside.
 */
function auditText(bytes: Buffer, file: string, options: { tornTailAllowed: boolean }): { text: string; tornTail: string | null } {
  if (!options.tornTailAllowed) return { text: decodeInputText(bytes, file), tornTail: null };
  const tailStart = bytes.lastIndexOf(0x0a) + 1;
  const lines = decodeInputText(bytes.subarray(0, tailStart), file);
  const tail = bytes.subarray(tailStart);
  try {
    return { text: lines + decodeInputText(tail, file), tornTail: null };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { text: lines, tornTail: tail.toString('utf8') };
  }
}

/**
 * The lines of an audit file through lib/io's JSONL reader, an unparsable last line without its newline
 * returned as `torn`; an unparsable line anywhere else is corruption, named with what to do about it.
 */
function parseAuditLines(text: string, file: string): ParsedJsonl<unknown> {
  try {
    return parseJsonl(text, file, { allowTornTail: true });
  } catch (err) {
    const line = err instanceof InputError ? err.where.line : undefined;
    if (line === undefined) throw err;
    throw new InputError(`${file}:${line}: not valid JSON (corrupted audit file; fix or move it before resuming)`, { file, line });
  }
}

/** Appends one line (newline added) and fsyncs it; a short write is continued (lib/io/write-all.ts). For occasional use; see Appender. */
export function appendLine(file: string, line: string): void {
  ensureDir(dirname(file));
  const fd = openSync(file, 'a');
  try {
    writeChunk(fd, `${line}\n`);
    fsyncSync(fd);
  } catch (err) {
    throw withPath(err, file); // write and fsync name no file of their own
  } finally {
    closeSync(fd);
  }
}

/**
 * An open append-only JSONL file with group commit. `append` fixes the record's place in the file
 * synchronously (FIFO) and returns a promise that resolves once the line is on disk. Pending lines are
 * written with one `write` and made durable with one `fsync` on the libuv thread pool, so the event loop
 * never blocks on the disk and concurrent cells share an fsync (on this machine an fsync costs ~4 ms;
 * blocking on two per cell capped the collector at about half of its network-bound rate).
 * Each line is complete JSON and ends with a newline, so a torn write can only leave a partial LAST line,
 * which `repairTail` handles on the next open.
 */
export class Appender {
  private fd: number | null;
  private queue: Array<{ bytes: Buffer; resolve: () => void; reject: (err: Error) => void }> = [];
  private flushing: Promise<void> | null = null;
  private failed: Error | null = null;

  constructor(
    readonly file: string,
    private readonly transform: (line: string) => string = (line) => line,
  ) {
    ensureDir(dirname(file));
    this.fd = openSync(file, 'a');
  }

  /** Serialises `record` to one line and queues it; resolves when it is written and fsync'ed. */
  append(record: unknown): Promise<void> {
    if (this.fd === null) return Promise.reject(new Error(`${this.file}: appender is closed`));
    if (this.failed) return Promise.reject(this.failed);
    const line = this.transform(JSON.stringify(record));
    if (line.includes('\n')) return Promise.reject(new Error('internal: a JSONL record must not contain a raw newline'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ bytes: Buffer.from(`${line}\n`, 'utf8'), resolve, reject });
      if (!this.flushing) this.flushing = this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0 && this.fd !== null) {
      const batch = this.queue.splice(0);
      try {
        await writeAll(this.fd, Buffer.concat(batch.map((b) => b.bytes)));
        await new Promise<void>((resolve, reject) => fsync(this.fd!, (err) => (err ? reject(err) : resolve())));
        for (const b of batch) b.resolve();
      } catch (err) {
        // write and fsync name no file: the collector's one-line message needs it ("cannot write (unknown path)").
        this.failed = withPath(err, this.file) as Error;
        for (const b of [...batch, ...this.queue.splice(0)]) b.reject(this.failed);
      }
    }
    this.flushing = null;
  }

  /** Resolves when every queued line is on disk. */
  async drain(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Drains, then closes the file. */
  async close(): Promise<void> {
    await this.drain();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** Writes all of `bytes` at the end of an O_APPEND file (loops over short writes). */
function writeAll(fd: number, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (offset: number) => {
      if (offset >= bytes.length) return resolve();
      write(fd, bytes, offset, bytes.length - offset, null, (err, written) => (err ? reject(err) : step(offset + written)));
    };
    step(0);
  });
}

/** The files of one collection directory (`--out DIR`). */
export interface StorePaths {
  dir: string;
  attempts: string;
  responses: string;
  extracted: string;
  run: string;
  torn: string;
  lock: string;
  /** Ledger of provider batches (`--batch`): submissions, their run ID ↔ custom_id maps, collections. */
  batches: string;
}

export function storePaths(dir: string): StorePaths {
  return {
    dir,
    attempts: join(dir, 'attempts.jsonl'),
    responses: join(dir, 'responses.jsonl'),
    extracted: join(dir, 'extracted.jsonl'),
    run: join(dir, 'run.json'),
    torn: join(dir, 'torn.jsonl'),
    lock: join(dir, '.collect.lock'),
    batches: join(dir, 'batches.jsonl'),
  };
}

/**
 * Reads the final records of responses.jsonl (after `repairTail`) into a map run_id → record. These
 * cells are complete and are never requested again (unless `--retry-missing` asks for the `missing`
 * ones).
 *
 * Superseding: a cell whose record has status `missing` may get a later record (written by a
 * `--retry-missing` run); the LAST record of a run_id wins, and the map keeps the winners in the file
 * order of the winning lines (so extracted.jsonl, built from this map, agrees with resume). A second
 * record after a `valid` or `invalid` one is corruption: InputError naming file and line.
 * Lines `a:missing`, `b:valid`, `a:valid` give the map order b, a with a = the valid record:
 * @example
 * const fs = require('node:fs');
 * const path = require('node:path');
 * const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'doctest-'));
 * const file = path.join(dir, 'responses.jsonl');
 * fs.writeFileSync(file, ['a:missing', 'b:valid', 'a:valid'].map((l) => JSON.stringify({ run_id: l.split(':')[0], status: l.split(':')[1] })).join('\n') + '\n');
 * const done = readCompleted(file);
 * fs.rmSync(dir, { recursive: true });
 * [...done.keys()]; // => ['b', 'a']
 * done.get('a'); // => { run_id: 'a', status: 'valid' }
 */
export function readCompleted(
  file: string,
  options: { tolerateTornTail?: boolean } = {},
): Map<string, Record<string, unknown>> {
  const done = new Map<string, Record<string, unknown>>();
  if (!existsSync(file)) return done;
  // A torn tail (last line, no newline) is repaired on open; read-only callers (--dry-run) skip it.
  const tolerate = options.tolerateTornTail === true;
  const { lines } = parseJsonl(auditText(readFileNamed(file), file, { tornTailAllowed: tolerate }).text, file, { allowTornTail: tolerate });
  for (const { line, value } of lines) {
    const runId = (value as { run_id?: unknown })?.run_id;
    if (typeof runId !== 'string') throw new InputError(`${file}:${line}: record has no run_id`, { file, line });
    const earlier = done.get(runId);
    if (earlier) {
      if (earlier.status !== 'missing') {
        throw new InputError(
          `${file}:${line}: run_id ${runId} already has a final record (status ${JSON.stringify(earlier.status)}); only a missing record may be superseded`,
          { file, line, item: runId },
        );
      }
      done.delete(runId);
    }
    done.set(runId, value as Record<string, unknown>);
  }
  return done;
}

/**
 * Takes the directory lock: a file holding `<pid> <nonce>`. Creating it is atomic (a private file is
 * written, then hard-linked to the lock name: `link` fails if the name exists). A lock left by a
 * process that no longer exists (for example one killed with SIGKILL) is taken over; a live holder is
 * an InputError, because two collectors appending to the same files would request cells twice.
 *
 * Takeover never removes the lock and creates it again (two collectors doing that at once could both
 * win). Instead the taker first creates `<lock>.takeover` atomically (only one process can), checks
 * under it that the lock still holds the same dead holder, and then renames its own private file
 * over the lock in one step. A takeover file whose creator died is itself replaced the same way.
 */
export function acquireLock(lockFile: string, pid = process.pid): () => void {
  ensureDir(dirname(lockFile));
  const claimant: LockClaimant = { lockFile, pid, token: `${pid} ${randomBytes(8).toString('hex')}` };
  for (let tries = 0; tries < 200; tries++) {
    const mine = writePrivate(claimant, 'new');
    try {
      linkSync(mine, lockFile);
      return releaseLock(claimant);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(mine);
    }
    const content = readHolder(lockFile);
    if (content === null) continue; // released meanwhile: try again
    if (!isStale(claimant, content)) {
      throw new InputError(`${lockFile}: another collector (pid ${holderPid(content)}) is writing to this directory`, { file: lockFile });
    }
    if (takeOver(claimant, content)) return releaseLock(claimant);
  }
  throw new InputError(`${lockFile}: could not take the directory lock`, { file: lockFile });
}

/** Who is asking for the lock: the lock file, its pid, and the `<pid> <nonce>` it writes there. */
interface LockClaimant {
  readonly lockFile: string;
  readonly pid: number;
  readonly token: string;
}

/** A new private file beside the lock holding the claimant's token, flushed to disk. */
function writePrivate(claimant: LockClaimant, tag: string): string {
  const file = `${claimant.lockFile}.${tag}.${claimant.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(file, 'wx');
  try {
    writeSync(fd, claimant.token);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return file;
}

/** The content of a lock or takeover file, or null when it does not exist. */
function readHolder(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function holderPid(content: string): number {
  return Number(content.trim().split(/\s+/)[0]);
}

/** True when the holder is gone: no valid pid, a dead process, or this pid with another token. */
function isStale(claimant: LockClaimant, content: string): boolean {
  const holder = holderPid(content);
  return !(Number.isInteger(holder) && holder > 0 && (holder === claimant.pid ? content === claimant.token : processAlive(holder)));
}

/** Removes the lock if it still holds the claimant's token. */
function releaseLock(claimant: LockClaimant): () => void {
  return () => {
    try {
      if (readFileSync(claimant.lockFile, 'utf8') === claimant.token) unlinkSync(claimant.lockFile);
    } catch {
      /* already gone */
    }
  };
}

/**
 * Takes over a stale lock still holding `content`, under the takeover mutex; true when the lock is now
 * the claimant's. False (after a short random wait when another process holds the mutex) means try again.
 */
function takeOver(claimant: LockClaimant, content: string): boolean {
  const mutex = `${claimant.lockFile}.takeover`;
  const claim = writePrivate(claimant, 'claim');
  let haveMutex = false;
  try {
    haveMutex = takeMutex(claimant, claim, mutex);
    if (!haveMutex) {
      sleepSync(5 + Math.floor(Math.random() * 10));
      return false;
    }
    if (readHolder(claimant.lockFile) !== content) return false;
    renameSync(writePrivate(claimant, 'new'), claimant.lockFile); // atomic replace: the lock is never absent
    return true;
  } finally {
    unlinkSync(claim);
    if (haveMutex && readHolder(mutex) === claimant.token) unlinkSync(mutex);
  }
}

/** Creates the takeover mutex from `claim`, or replaces one whose creator died; true when it is ours. */
function takeMutex(claimant: LockClaimant, claim: string, mutex: string): boolean {
  try {
    linkSync(claim, mutex);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const other = readHolder(mutex);
  if (other === null || !isStale(claimant, other)) return false;
  // Its creator died mid-takeover: replace that file atomically, then re-check that we hold it.
  renameSync(writePrivate(claimant, 'claim'), mutex);
  return readHolder(mutex) === claimant.token;
}

/** Blocks for `ms` (lock contention only: a few milliseconds at start-up). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

