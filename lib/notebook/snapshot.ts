import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, type BigIntStats } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../io/atomic';

/**
 * The files a notebook run may write (figures/, data/processed/, ...), remembered before the run so
 * that a run which did not finish can put every one of them back, and so that a run aimed at another
 * folder (`reproduce --output-dir`) can move what it wrote there instead of leaving it in the project.
 *
 * Why a snapshot and not a redirected write: the notebooks write through the library
 * (`saveTable`, `saveFigure`, the analysis writers, the collector's appends, a spawned CLI), which
 * address the project's own folders; the runner cannot reach into every writer, but it can compare the
 * folders before and after. Bytes alone would miss a file the run wrote again with the bytes it
 * already had (a shipped table re-made on the same data); the file's identity (inode) and modification
 * time, remembered too, show that it was written.
 */
export class OutputSnapshot {
  private readonly before = new Map<string, Buffer>();
  private readonly stamps = new Map<string, string>();

  /** Remembers every file under `paths` (folders, walked recursively, or single files) below `root`. */
  constructor(
    private readonly root: string,
    private readonly paths: readonly string[],
  ) {
    for (const file of this.currentFiles()) {
      this.before.set(file, readFileSync(join(root, file)));
      this.stamps.set(file, stamp(statSync(join(root, file), { bigint: true })));
    }
  }

  /** The files under the watched paths now, relative to the root with '/' separators, sorted. */
  private currentFiles(): string[] {
    const out: string[] = [];
    const walk = (abs: string): void => {
      if (!existsSync(abs)) return;
      if (statSync(abs).isDirectory()) {
        for (const name of readdirSync(abs).sort()) walk(join(abs, name));
      } else {
        out.push(relative(this.root, abs).split(sep).join('/'));
      }
    };
    for (const p of this.paths) walk(join(this.root, p));
    return out.sort();
  }

  /** Files that are new or whose bytes differ from the snapshot, and files that disappeared. */
  changes(): { written: string[]; removed: string[] } {
    const now = this.currentFiles();
    const written = now.filter((f) => {
      const old = this.before.get(f);
      return old === undefined || !old.equals(readFileSync(join(this.root, f)));
    });
    const present = new Set(now);
    const removed = [...this.before.keys()].filter((f) => !present.has(f)).sort();
    return { written, removed };
  }

  /**
   * Every file the run wrote: new, changed, or written again with the bytes it had (a new inode from an
   * atomic rename, or a new modification time). Sorted.
   */
  writtenFiles(): string[] {
    return this.currentFiles().filter((f) => {
      const old = this.before.get(f);
      if (old === undefined) return true;
      if (this.stamps.get(f) !== stamp(statSync(join(this.root, f), { bigint: true }))) return true;
      return !old.equals(readFileSync(join(this.root, f)));
    });
  }

  /**
   * Copies every file the run wrote ({@link writtenFiles}, unchanged rewrites included) into `target`,
   * keeping their paths below the root. Returns them.
   */
  copyWrittenTo(target: string): string[] {
    const written = this.writtenFiles();
    for (const f of written) writeFileAtomic(join(target, f), readFileSync(join(this.root, f)));
    return written;
  }

  /**
   * Puts every watched file back as it was: new files deleted (and folders they alone made), changed
   * and removed ones rewritten with their old bytes. Returns how many files it touched.
   */
  restore(): number {
    const { written, removed } = this.changes();
    for (const f of written) {
      const old = this.before.get(f);
      if (old === undefined) {
        rmSync(join(this.root, f), { force: true });
        this.removeEmptyParents(dirname(join(this.root, f)));
      } else {
        writeFileAtomic(join(this.root, f), old);
      }
    }
    for (const f of removed) writeFileAtomic(join(this.root, f), this.before.get(f)!);
    return written.length + removed.length;
  }

  private removeEmptyParents(dir: string): void {
    const stops = new Set(this.paths.map((p) => join(this.root, p)));
    stops.add(this.root);
    let d = dir;
    while (!stops.has(d) && d.startsWith(this.root) && existsSync(d) && readdirSync(d).length === 0) {
      rmdirSync(d);
      d = dirname(d);
    }
  }
}

/** A file's identity and last write: inode and modification time in nanoseconds. */
function stamp(s: BigIntStats): string {
  return `${s.ino}:${s.mtimeNs}`;
}

/** The folders and files below the project root that a full `npm run reproduce` writes. */
export const PROJECT_OUTPUTS: readonly string[] = ['figures', 'data/processed', 'environment.md', 'report'];
