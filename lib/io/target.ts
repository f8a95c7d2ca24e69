import { closeSync, constants, lstatSync, openSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { InputError } from '../errors';
import { osWriteErrorAt } from './os-error';

/**
 * What an output path names before anything is written, so that an atomic write never renames over
 * something that is not a regular file (`--out /dev/null` once replaced the device node with a file,
 * which as root destroys /dev/null):
 * - nothing, or a regular file: stage a temporary sibling and rename it into place;
 * - a symbolic link: the same, beside the file it points to (the link stays a link);
 * - a character device or a pipe (FIFO), directly or through a link (`/dev/stdout`): write through,
 *   with no temporary file and no rename, and say so on stderr (through `onWriteNotice`);
 * - a directory: EISDIR (Node's own error, as rename would give); a socket, a block device or a
 *   dangling link: refused with an InputError naming the path and its type.
 */
export type WriteTarget =
  | { mode: 'atomic'; path: string; requested: string }
  | { mode: 'through'; path: string; requested: string; type: string };

let notice: (message: string) => void = () => {};

/** Where notes about written-through targets go (the CLI prints them on stderr). Returns the previous hook. */
export function onWriteNotice(hook: (message: string) => void): (message: string) => void {
  const previous = notice;
  notice = hook;
  return previous;
}

/** Prints a note about an output through the hook (the CLI: one line on stderr). */
export function writeNotice(message: string): void {
  notice(message);
}

/** The kind of a file in words, as error messages print it. */
export function fileType(stats: Stats): string {
  if (stats.isFile()) return 'regular file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symbolic link';
  if (stats.isCharacterDevice()) return 'character device';
  if (stats.isBlockDevice()) return 'block device';
  if (stats.isFIFO()) return 'named pipe (FIFO)';
  if (stats.isSocket()) return 'socket';
  return 'special file';
}

function directoryError(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`EISDIR: illegal operation on a directory, rename '${path}'`), { code: 'EISDIR', errno: -21, syscall: 'rename', path });
}

/**
 * Classifies `path` as an output (see WriteTarget); throws for a directory, socket, block device or
 * dangling link. An OS error of the look itself (a name too long, a loop of links, a folder that
 * cannot be searched) is an InputError saying `cannot write PATH`: its syscall (lstat, stat) would
 * otherwise be worded as a read.
 */
export function writeTarget(path: string): WriteTarget {
  try {
    return classifyTarget(path);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (typeof e?.code === 'string' && /^(lstat|stat|realpath)$/.test(e.syscall ?? '')) throw osWriteErrorAt(path, err);
    throw err;
  }
}

function classifyTarget(path: string): WriteTarget {
  const own = lstatSync(path, { throwIfNoEntry: false });
  if (!own || own.isFile()) return { mode: 'atomic', path, requested: path };
  if (own.isDirectory()) throw directoryError(path);
  const stats = own.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : own;
  if (!stats) throw new InputError(`cannot write ${path}: it is a symbolic link to a missing file; remove the link or name its target`, { file: path });
  if (stats.isFile()) return { mode: 'atomic', path: realpathSync(path), requested: path };
  if (stats.isDirectory()) throw directoryError(path);
  if (stats.isCharacterDevice() || stats.isFIFO()) return { mode: 'through', path, requested: path, type: fileType(stats) };
  throw new InputError(`cannot write ${path}: it is a ${fileType(stats)}, not a regular file; kstbench writes regular files, or through a character device or pipe`, {
    file: path,
  });
}

/**
 * Opens a written-through target (a device or pipe) and announces it. A pipe with no reader is refused
 * (opening it would wait for ever): it is probed without blocking first.
 */
export function openThrough(target: Extract<WriteTarget, { mode: 'through' }>): number {
  // The probe stays open until the real descriptor is: closing it first would leave the pipe with no
  // writer for a moment, the reader could take that as end of file and exit, and the blocking open below
  // would then wait for ever for a new reader.
  let probe: number | undefined;
  if (target.type.startsWith('named pipe')) {
    try {
      probe = openSync(target.path, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENXIO') {
        throw new InputError(`cannot write ${target.requested}: it is a named pipe (FIFO) with no reader; start the reader first`, { file: target.requested });
      }
      throw withPath(err, target.requested);
    }
  }
  let fd: number;
  try {
    fd = openSync(target.path, constants.O_WRONLY);
  } catch (err) {
    throw withPath(err, target.requested);
  } finally {
    if (probe !== undefined) closeSync(probe);
  }
  notice(`${target.requested} is a ${target.type}: written through directly (not atomically, no temporary file)`);
  return fd;
}

/** An OS error from an fd-based call (write, fsync, close: no path of their own) given the file it was about. */
export function withPath(err: unknown, path: string): unknown {
  const e = err as NodeJS.ErrnoException | null;
  if (e && typeof e.code === 'string' && (e.path === undefined || e.path === '')) e.path = path;
  return err;
}

/**
 * The bytes of a file the program wrote itself (an audit log, a figure, a table it copies); its OS
 * error names the file, which read(2) of a folder does not ("cannot read (unknown path): EISDIR").
 */
export function readFileNamed(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw withPath(err, file);
  }
}
