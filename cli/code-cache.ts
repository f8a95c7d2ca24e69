import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import Module from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { cachedDataVersionTag } from 'node:v8';
import vm from 'node:vm';
import { writeFileAtomic } from '../lib/io/atomic';

/**
 * A V8 code cache for the modules a command's worker thread loads (cli/command-worker.ts), so that a
 * run after the first deserialises their bytecode instead of compiling it again. Node 20 has no
 * `module.enableCompileCache` (Node 22); this is the same idea through `vm.Script`'s `cachedData`.
 *
 * Why: every kstbench process starts a worker, a second V8 isolate that compiles the command's module
 * graph from source (for most commands about 95 modules of zod and 30–100 of dist/), and compiling was
 * the largest single cost of a short command after node's own start (docs/startup.md has the profile
 * and the before/after figures).
 *
 * - Where: one file per command, Node version and V8 flag set in the user's own cache folder (codeCacheDir), not a
 *   shared temporary folder, which would be a new way in, and not dist/, which notebook kernels watch.
 *   A rebuild's new content invalidates an entry (its hash); `rm -rf ~/.cache/kstbench` clears it all.
 * - What is checked: each module's entry carries the SHA-1 of the exact string compiled (the CommonJS
 *   wrapper and the module's text), and only a match is used (V8 itself checks only the source's
 *   length); the header carries a hash of the wrapper and the compile options; the whole body carries its SHA-1, so a
 *   torn or foreign file is ignored, never given to V8; V8 rejects data from another V8 version or flag
 *   set (`cachedDataRejected`), and that module is compiled as usual.
 * - Writing: only when a module was compiled without usable data, after the command finished, with
 *   lib/io's writeFileAtomic (a temporary sibling, listed so that a signal removes it, renamed into
 *   place): concurrent runs of one command each write a complete file and the last rename wins (two
 *   threads of one process share the sibling's name; a file they interleaved fails the body's hash
 *   and is ignored). A failed write is silent: the run's own result is unchanged. A read-only install
 *   (no cache, folder not writable) does not use the cache at all, as compiling through vm.Script
 *   without data costs more than Node's own compile.
 * - Which modules: `.js` and `.cjs` files of dist/ and node_modules/ only, and none whose text holds
 *   `import(` (a vm.Script would need a loader for it), nor an ES module Node hands over through
 *   require (a format other than 'commonjs', or ESM syntax vm.Script rejects). Every other module loads through Node's own
 *   `Module.prototype._compile`, as does everything when source maps or V8 coverage are on.
 */

interface Entry {
  sha1: string;
  at: number;
  length: number;
}

interface Loaded {
  sha1: string;
  script: vm.Script;
}

const MAGIC = 'kstbench-code-cache-2';

// The CommonJS wrapper, on a line of its own counted as line -1 (LINE_OFFSET), so that stack traces name
// the file's own lines and columns. Each entry is checked against the SHA-1 of the whole string given
// to vm.Script (wrapper and text), and the header against SCRIPT_SIGNATURE (wrapper and options): V8
// itself checks only the length, so a same-length edit of the wrapper would otherwise run old bytecode.
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';
const LINE_OFFSET = -1;

/** The user's folder of every install's code caches: `$XDG_CACHE_HOME` (else `~/.cache`) `/kstbench/code-cache`. */
export function codeCacheRoot(): string {
  return join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'kstbench', 'code-cache');
}

/**
 * The cache folder of this install, Node version and V8 flag set, under codeCacheRoot():
 * `<install>/<node>-<arch>-<flags>`, where `<install>` names the compiled tree (this file is
 * dist/cli/code-cache.js) by a hash of its path and `<flags>` is V8's cachedDataVersionTag (its version
 * and the flags its code cache depends on, `--max-old-space-size` among them, from the command line or
 * NODE_OPTIONS): V8 rejects data made under other flags, so runs that alternate flag sets would
 * otherwise reject and rewrite each other's file every time.
 * Not under dist/: a notebook kernel (tslab) watches dist/ for the library's declarations, and a
 * folder or file appearing there while a notebook runs made its next cell fail ("Unexpected pending
 * rebuildTimer"; `npm ci && npm run reproduce` on a fresh clone, where notebook 03 runs the CLI).
 */
export function codeCacheDir(): string {
  const install = createHash('sha1').update(join(__dirname, '..')).digest('hex').slice(0, 16);
  return join(codeCacheRoot(), install, `${process.version}-${process.arch}-${cachedDataVersionTag().toString(16)}`);
}

/** How long a cache folder no run wrote stays before a write elsewhere under the root removes it. */
export const CODE_CACHE_UNUSED_MS = 30 * 24 * 3600 * 1000;

/**
 * The newest modification time of a folder and its files, ignoring entries that cannot be stat'ed
 * (a file renamed away between readdir and stat, a dangling link); Infinity (never old) when the
 * folder itself cannot be read: gone or changing under us, it is left to the next write.
 */
export function newestChange(dir: string): number {
  try {
    let newest = statSync(dir).mtimeMs;
    for (const f of readdirSync(dir)) {
      try {
        newest = Math.max(newest, statSync(join(dir, f)).mtimeMs);
      } catch {
        // gone since readdir: a concurrent run's staged file renamed into place, or a dangling link
      }
    }
    return newest;
  } catch {
    return Infinity;
  }
}

/**
 * Removes the cache folders under `root` (`<install>/<folder>`, other installs, Node versions and flag
 * sets) other than `keep` that nothing wrote for `unusedMs`, and install folders left empty; called
 * when a cache file is written, which is rare. Safe beside concurrent runs: a reader whose file
 * vanishes finds no cache and compiles, a writer whose folder vanishes fails its write, which is
 * silent; every error here is ignored. A folder in use whose every module hit for 30 days (nothing
 * rewrote it) costs one first run again.
 */
export function pruneCodeCaches(root: string, keep: string, now = Date.now(), unusedMs = CODE_CACHE_UNUSED_MS): void {
  const list = (dir: string): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  for (const install of list(root)) {
    const installDir = join(root, install);
    for (const folder of list(installDir)) {
      const dir = join(installDir, folder);
      if (dir === keep || now - newestChange(dir) <= unusedMs) continue;
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // A concurrent run wrote into it meanwhile (ENOTEMPTY): it is in use.
      }
    }
    try {
      if (list(installDir).length === 0) rmdirSync(installDir);
    } catch {
      // Not empty after all, or gone.
    }
  }
}

const sha1 = (data: string | Buffer): string => createHash('sha1').update(data).digest('base64');

const SCRIPT_SIGNATURE = sha1(JSON.stringify({ WRAPPER_HEAD, WRAPPER_TAIL, LINE_OFFSET }));

/** Reads a cache file: its entries by module file name and the body they point into; nothing for a missing, torn or foreign file. */
export function readCodeCache(file: string): { entries: Record<string, Entry>; body: Buffer } | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const headerEnd = bytes.indexOf(10);
  if (headerEnd < 0) return undefined;
  try {
    const header = JSON.parse(bytes.subarray(0, headerEnd).toString('utf8')) as { magic?: unknown; script?: unknown; body?: unknown; entries?: Record<string, Entry> };
    const body = bytes.subarray(headerEnd + 1);
    if (header.magic !== MAGIC || header.script !== SCRIPT_SIGNATURE || typeof header.entries !== 'object' || header.entries === null || header.body !== sha1(body)) return undefined;
    return { entries: header.entries, body };
  } catch {
    return undefined;
  }
}

/** Writes the cache file through the one atomic writer (see above); a failure only means no cache. */
function writeCodeCache(file: string, modules: ReadonlyMap<string, { sha1: string; data: Buffer }>): void {
  const entries: Record<string, Entry> = {};
  const parts: Buffer[] = [];
  let at = 0;
  for (const [name, { sha1: source, data }] of modules) {
    entries[name] = { sha1: source, at, length: data.length };
    parts.push(data);
    at += data.length;
  }
  const body = Buffer.concat(parts);
  const header = Buffer.from(`${JSON.stringify({ magic: MAGIC, script: SCRIPT_SIGNATURE, body: sha1(body), entries })}\n`);
  try {
    writeFileAtomic(file, Buffer.concat([header, body]));
  } catch {
    // No cache this time (a read-only or full disk, a folder in the way): the run itself is unaffected.
  }
}

/** The `require` Node gives a module (lib/internal/modules/helpers.js makeRequireFunction). */
function requireFor(mod: Module): NodeJS.Require {
  const internals = Module as unknown as { _resolveFilename(r: string, m: Module, main: boolean, o?: unknown): string; _resolveLookupPaths(r: string, m: Module): string[] | null };
  const require = ((id: string) => mod.require(id)) as NodeJS.Require;
  const resolve = ((request: string, options?: { paths?: string[] }) => internals._resolveFilename(request, mod, false, options)) as NodeJS.RequireResolve;
  resolve.paths = (request: string) => internals._resolveLookupPaths(request, mod);
  require.resolve = resolve;
  require.main = process.mainModule;
  require.extensions = (Module as unknown as { _extensions: NodeJS.RequireExtensions })._extensions;
  require.cache = (Module as unknown as { _cache: NodeJS.Dict<NodeModule> })._cache;
  return require;
}

/** Whether `dir` could be created and written: its nearest existing ancestor is a writable folder. */
function writable(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    try {
      accessSync(d, constants.W_OK);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(d) === d) return false;
    }
  }
}

const eligible = (filename: string, content: string): boolean =>
  /\.c?js$/.test(filename) && /[\\/](dist|node_modules)[\\/]/.test(filename) && !content.startsWith('#!') && !content.includes('import(');

/**
 * Compiles this thread's modules from then on through the cache file of `command`, and returns the
 * function that writes it when some module had no usable data (call it after the command's work),
 * then prunes the unused cache folders under `pruneUnder` (pruneCodeCaches), when given.
 */
export function useCodeCache(command: string, dir = codeCacheDir(), pruneUnder?: string): () => void {
  // Source maps and coverage (NODE_V8_COVERAGE: c8, node --test's) hook Node's own compile.
  if (process.sourceMapsEnabled || process.env.NODE_V8_COVERAGE) return () => {};
  const file = join(dir, `${command}.bin`);
  const cache = readCodeCache(file);
  // Compiling through vm.Script and hashing cost more than Node's own compile when nothing is cached:
  // a read-only install without a cache keeps Node's loader.
  if (!cache && !writable(dir)) return () => {};
  const loaded = new Map<string, Loaded>();
  let misses = 0;
  const proto = Module.prototype as unknown as { _compile(content: string, filename: string, ...rest: unknown[]): unknown };
  const compile = proto._compile;
  proto._compile = function (this: Module, content: string, filename: string, ...rest: unknown[]): unknown {
    // Node ≥ 20.19 passes a format: 'module' for a `.js` of a "type": "module" package (require(esm)),
    // null for one without a type, whose text may still be ESM syntax; only CommonJS can be wrapped.
    const format = rest[0];
    if (!eligible(filename, content) || (typeof format === 'string' && format !== 'commonjs')) return compile.call(this, content, filename, ...rest);
    const wrapped = `${WRAPPER_HEAD}${content}${WRAPPER_TAIL}`;
    const source = sha1(wrapped);
    const entry = cache?.entries[filename];
    const data = entry?.sha1 === source ? cache!.body.subarray(entry.at, entry.at + entry.length) : undefined;
    let script: vm.Script;
    try {
      script = new vm.Script(wrapped, { filename, lineOffset: LINE_OFFSET, cachedData: data });
    } catch (err) {
      // ESM syntax in a module without a format (Node tells it apart itself), or a real error, which
      // Node's compile then reports as it would without the cache.
      if (err instanceof SyntaxError) return compile.call(this, content, filename, ...rest);
      throw err;
    }
    const hit = data !== undefined && !script.cachedDataRejected;
    if (!hit) misses += 1;
    loaded.set(filename, { sha1: source, script });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };
  return () => {
    if (misses === 0) return;
    const modules = new Map<string, { sha1: string; data: Buffer }>();
    // Modules of other runs of this command (a subcommand, a code path not taken now) stay cached,
    // those of files that are gone do not.
    for (const [name, entry] of Object.entries(cache?.entries ?? {})) {
      if (!loaded.has(name) && existsSync(name)) modules.set(name, { sha1: entry.sha1, data: cache!.body.subarray(entry.at, entry.at + entry.length) });
    }
    // Made anew for the modules found in the cache too: they hold the functions this run compiled since.
    for (const [name, { sha1: source, script }] of loaded) modules.set(name, { sha1: source, data: script.createCachedData() });
    writeCodeCache(file, modules);
    if (pruneUnder !== undefined) pruneCodeCaches(pruneUnder, dir);
  };
}
