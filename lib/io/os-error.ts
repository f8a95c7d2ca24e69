import { InputError } from '../errors';

/**
 * Operating-system failures (a full disk, a read-only directory, an output path under a file) as one
 * line naming the path and what the code means, instead of "internal error" with a stack. Every
 * command and script reports them through this file; the writers in this folder stage and rename, so
 * such a failure leaves no half-written output behind.
 */

const MEANING: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EEXIST: 'a file of that name is in the way',
  ENOTDIR: 'a path component is a file, not a directory',
  EISDIR: 'a directory is where a file is expected',
  ENOENT: 'no such file or directory',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  EFBIG: 'file too large: over the file-size limit (ulimit -f) or what the file system allows',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many levels of symbolic links',
  EIO: 'input/output error on the device',
  EBUSY: 'device or resource busy',
  ETXTBSY: 'the file is a running program',
  EXDEV: 'not on the same file system',
};

/** What an OS error code means, in words ("no space left on the device"); the code itself when unknown. */
export function osErrorMeaning(code: string): string {
  return MEANING[code] ?? code;
}

/** True for a Node.js system error carrying one of the codes above. */
export function isOsError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException | null;
  return !!e && typeof e.code === 'string' && e.code in MEANING && typeof e.syscall === 'string';
}

/**
 * `cannot write /out/attempts.jsonl: ENOSPC (no space left on the device)` — plus, when given, the
 * command that resumes the run once the cause is fixed.
 */
export function osErrorMessage(err: NodeJS.ErrnoException, resumeCommand?: string): string {
  const verb = /^(open|write|mkdir|rename|link|fsync|ftruncate|unlink|copyfile)/.test(err.syscall ?? '') ? 'write' : 'read';
  const where = err.path ?? (err as { dest?: string }).dest ?? '(unknown path)';
  const hint = resumeCommand ? `; fix it, then resume with: ${resumeCommand}` : '';
  return `cannot ${verb} ${where}: ${err.code} (${osErrorMeaning(err.code ?? '')})${hint}`;
}

/** The OS error as an InputError (the CLI prints its message on one line and exits 1). */
export function osInputError(err: NodeJS.ErrnoException, resumeCommand?: string): InputError {
  return new InputError(osErrorMessage(err, resumeCommand), { file: err.path });
}

/**
 * A write failure as an InputError naming `target`, the file the caller asked for, instead of the
 * temporary sibling or parent folder the failing syscall saw (the streaming sink writes through one).
 */
export function osWriteErrorAt(target: string, err: unknown): InputError {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const why = code ? `${code} (${osErrorMeaning(code)})` : (err as Error).message;
  return new InputError(`cannot write ${target}: ${why}`, { file: target });
}
