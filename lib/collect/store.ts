import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../errors';

/**
 * Append-only JSON Lines files for the collector's audit trail.
 *
 * Crash safety: each record is serialised to one line and handed to the kernel in ONE `write` on a file
 * opened with O_APPEND, then fsync'ed before the call returns. A process killed at any point therefore
 * leaves either the whole line or (rarely, e.g. power loss) a torn final fragment without its newline;
 * `openAppender` repairs that on the next open (see `repairTail`). Nothing is ever rewritten in place.
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
  const bytes = readFileSync(file);
  const text = bytes.toString('utf8');
  const rows = text.split('\n');
  const endsWithNewline = text.length === 0 || text.endsWith('\n');
  const lastIndex = endsWithNewline ? rows.length - 2 : rows.length - 1;
  for (let i = 0; i < lastIndex; i++) {
    if (rows[i]!.trim() === '') continue;
    try {
      JSON.parse(rows[i]!);
    } catch {
      throw new InputError(`${file}:${i + 1}: not valid JSON (corrupted audit file; fix or move it before resuming)`, {
        file,
        line: i + 1,
      });
    }
  }
  if (endsWithNewline) {
    const last = rows[lastIndex];
    if (last !== undefined && last.trim() !== '') {
      try {
        JSON.parse(last);
      } catch {
        throw new InputError(`${file}:${lastIndex + 1}: not valid JSON (corrupted audit file)`, { file, line: lastIndex + 1 });
      }
    }
    return { kind: 'clean' };
  }
  const tail = rows[lastIndex]!;
  const line = lastIndex + 1;
  let parses = false;
  try {
    JSON.parse(tail);
    parses = true;
  } catch {
    parses = false;
  }
  const fd = openSync(file, 'r+');
  try {
    if (parses) {
      writeSync(fd, '\n', bytes.length);
    } else {
      appendLine(tornFile, JSON.stringify({ file, line, text: tail }));
      ftruncateSync(fd, bytes.length - Buffer.byteLength(tail, 'utf8'));
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return parses
    ? { kind: 'newline_added', line }
    : { kind: 'torn_moved', line, bytes: Buffer.byteLength(tail, 'utf8'), tornFile };
}

/** Appends one line (newline added) with a single write and fsync. For occasional use; see Appender. */
export function appendLine(file: string, line: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, Buffer.from(`${line}\n`, 'utf8'));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** An open append-only JSONL file. `append` returns after the record is on disk. */
export class Appender {
  private fd: number | null;
  constructor(
    readonly file: string,
    private readonly transform: (line: string) => string = (line) => line,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, 'a');
  }

  /** Serialises `record` to one line and writes it with one `write` + fsync. */
  append(record: unknown): void {
    if (this.fd === null) throw new Error(`${this.file}: appender is closed`);
    const line = this.transform(JSON.stringify(record));
    if (line.includes('\n')) throw new Error('internal: a JSONL record must not contain a raw newline');
    writeSync(this.fd, Buffer.from(`${line}\n`, 'utf8'));
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
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
  };
}

/**
 * Reads the final records of responses.jsonl (after `repairTail`) into a map run_id → record. These
 * cells are complete and are never requested again. A duplicated run_id is corruption: InputError.
 */
export function readCompleted(
  file: string,
  options: { tolerateTornTail?: boolean } = {},
): Map<string, Record<string, unknown>> {
  const done = new Map<string, Record<string, unknown>>();
  if (!existsSync(file)) return done;
  const text = readFileSync(file, 'utf8');
  const rows = text.split('\n');
  rows.forEach((row, i) => {
    if (row.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      // A torn tail (last line, no newline) is repaired on open; read-only callers (--dry-run) skip it.
      if (options.tolerateTornTail && i === rows.length - 1 && !text.endsWith('\n')) return;
      throw new InputError(`${file}:${i + 1}: not valid JSON`, { file, line: i + 1 });
    }
    const runId = (value as { run_id?: unknown })?.run_id;
    if (typeof runId !== 'string') throw new InputError(`${file}:${i + 1}: record has no run_id`, { file, line: i + 1 });
    if (done.has(runId)) {
      throw new InputError(`${file}:${i + 1}: run_id ${runId} already has a final record`, { file, line: i + 1, item: runId });
    }
    done.set(runId, value as Record<string, unknown>);
  });
  return done;
}

/**
 * Takes the directory lock: a file holding our pid. A lock left by a process that no longer exists (for
 * example one killed with SIGKILL) is taken over; a live holder is an InputError, because two collectors
 * appending to the same files would request cells twice.
 */
export function acquireLock(lockFile: string, pid = process.pid): () => void {
  mkdirSync(dirname(lockFile), { recursive: true });
  for (let tries = 0; tries < 2; tries++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(lockFile, 'utf8') === String(pid)) rmSync(lockFile, { force: true });
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(lockFile, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== pid && processAlive(holder)) {
        throw new InputError(`${lockFile}: another collector (pid ${holder}) is writing to this directory`, { file: lockFile });
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new InputError(`${lockFile}: could not take the directory lock`, { file: lockFile });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
