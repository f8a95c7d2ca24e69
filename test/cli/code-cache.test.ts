/**
 * The worker's V8 code cache (cli/code-cache.ts), each run a fresh node process as the CLI's worker
 * would be: the cache is written once and then used (the file is not written again: a run with a
 * miss would rewrite it); a module whose text changed but kept its length (which V8's own check lets
 * through) runs its new text; entries of modules this run did not load are kept unless their file is
 * gone; a torn cache file is ignored and made anew; a cache that cannot be
 * written changes nothing of the run; stack traces name the module's own lines, with the cache and
 * without. And the built CLI gives the same output with its cache as without; a SIGINT during its
 * save (the command done) keeps the command's exit code and output and removes the save's temporary.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { kstbench, ROOT, tempDir } from '../support/cli';
import { CODE_CACHE_UNUSED_MS, newestChange, pruneCodeCaches, readCodeCache } from '../../cli/code-cache';

const CODE_CACHE = join(ROOT, 'dist', 'cli', 'code-cache.js');

// The children run without the caller's NODE_OPTIONS: --enable-source-maps there (a developer's shell)
// turns the cache off and would fail the tests that expect it on.
const WITHOUT_NODE_OPTIONS: NodeJS.ProcessEnv = { NODE_OPTIONS: undefined };

/**
 * A node process that loads `dist/m.js` of `dir` through the code cache in `dir/cache` (so the
 * module counts as one of dist/'s) and prints what it exports, or the stack of what it threw.
 */
function load(dir: string, env: NodeJS.ProcessEnv = {}, codeCache = CODE_CACHE, pruneUnder?: string): { code: number | null; stdout: string; stderr: string } {
  assert.ok(existsSync(CODE_CACHE), 'run `npm run build` before this test');
  const prune = pruneUnder === undefined ? '' : `, ${JSON.stringify(pruneUnder)}`;
  const script = [
    `const save = require(${JSON.stringify(codeCache)}).useCodeCache('test', ${JSON.stringify(join(dir, 'cache'))}${prune});`,
    `try { process.stdout.write(String(require(${JSON.stringify(join(dir, 'dist', 'm.js'))}).value)); } catch (e) { process.stdout.write(e.stack); }`,
    'save();',
  ].join('\n');
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, ...WITHOUT_NODE_OPTIONS, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function moduleDir(text: string): string {
  const dir = tempDir('kstbench-code-cache-');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'dist', 'm.js'), text);
  return dir;
}

const cacheFile = (dir: string) => join(dir, 'cache', 'test.bin');

test('the first run writes the cache, the next runs use it and do not write it again', () => {
  const dir = moduleDir("'use strict';\nfunction f(x) { return x * 2; }\nexports.value = f(21);\n");
  assert.deepEqual(load(dir), { code: 0, stdout: '42', stderr: '' });
  const written = statSync(cacheFile(dir));
  const bytes = readFileSync(cacheFile(dir));
  for (let i = 0; i < 2; i++) assert.deepEqual(load(dir), { code: 0, stdout: '42', stderr: '' });
  assert.equal(statSync(cacheFile(dir)).mtimeMs, written.mtimeMs, 'a run with every module cached writes nothing');
  assert.deepEqual(readFileSync(cacheFile(dir)), bytes);
  assert.deepEqual(readdirSync(join(dir, 'cache')), ['test.bin'], 'no temporary file is left');
});

test('a module changed to a text of the same length runs its new text, and its entry is replaced', () => {
  const dir = moduleDir("exports.value = 'old';\n");
  assert.equal(load(dir).stdout, 'old');
  const before = readFileSync(cacheFile(dir));
  writeFileSync(join(dir, 'dist', 'm.js'), "exports.value = 'new';\n");
  assert.equal(load(dir).stdout, 'new');
  assert.notDeepEqual(readFileSync(cacheFile(dir)), before, 'the changed module was cached again');
  assert.equal(load(dir).stdout, 'new');
});

test('a build whose wrapper changed but kept its length does not run the bytecode of the old wrapper', () => {
  const dir = moduleDir("exports.value = require('path').basename(__filename);\n");
  assert.equal(load(dir).stdout, 'm.js');
  // The same code cache with its wrapper's last two parameters swapped (same length): __filename is
  // then the folder. Its require of lib/io is made absolute, as the copy lives elsewhere.
  const original = readFileSync(CODE_CACHE, 'utf8');
  const edited = original.replace('__filename, __dirname) {', '__dirname, __filename) {').replace('require("../lib/io/atomic")', `require(${JSON.stringify(join(ROOT, 'dist', 'lib', 'io', 'atomic.js'))})`);
  assert.ok(edited.includes('__dirname, __filename) {') && !edited.includes('../lib/io/atomic'), 'the wrapper and the require were found in dist/cli/code-cache.js');
  const copy = join(dir, 'code-cache-edited.js');
  writeFileSync(copy, edited);
  assert.deepEqual(load(dir, {}, copy), { code: 0, stdout: 'dist', stderr: '' });
  assert.deepEqual(load(dir, {}, copy), { code: 0, stdout: 'dist', stderr: '' }, 'and its own cache, written anew, is used');
});

test('an ES module Node loads through require ("type": "module", or ESM syntax without a type) is compiled by Node, with the cache and without', () => {
  const typed = moduleDir("export const value = 'esm';\n");
  writeFileSync(join(typed, 'dist', 'package.json'), '{"type": "module"}\n');
  const untyped = moduleDir("import { sep } from 'node:path';\nexport const value = 'esm' + sep;\n");
  for (let run = 0; run < 2; run++) {
    assert.deepEqual(load(typed), { code: 0, stdout: 'esm', stderr: '' });
    assert.deepEqual(load(untyped), { code: 0, stdout: 'esm/', stderr: '' });
  }
  // A CommonJS module of a "type": "commonjs" package is still cached.
  const commonjs = moduleDir('exports.value = 3;\n');
  writeFileSync(join(commonjs, 'dist', 'package.json'), '{"type": "commonjs"}\n');
  assert.equal(load(commonjs).stdout, '3');
  assert.deepEqual(Object.keys(readCodeCache(cacheFile(commonjs))!.entries), [join(commonjs, 'dist', 'm.js')]);
});

test("a module another run of the command loaded stays cached; one whose file is gone is dropped", () => {
  const dir = moduleDir("exports.value = require('./n.js').value + require('./o.js').value;\n");
  writeFileSync(join(dir, 'dist', 'n.js'), "exports.value = 'n';\n");
  writeFileSync(join(dir, 'dist', 'o.js'), "exports.value = 'o';\n");
  assert.equal(load(dir).stdout, 'no');
  const names = () => Object.keys(readCodeCache(cacheFile(dir))!.entries).map((f) => f.slice(join(dir, 'dist').length + 1)).sort();
  assert.deepEqual(names(), ['m.js', 'n.js', 'o.js']);
  // This run loads m.js (changed, so the cache is written) and o.js, not n.js, which still exists.
  writeFileSync(join(dir, 'dist', 'm.js'), "exports.value = require('./o.js').value + '!';\n");
  assert.equal(load(dir).stdout, 'o!');
  assert.deepEqual(names(), ['m.js', 'n.js', 'o.js']);
  rmSync(join(dir, 'dist', 'n.js'));
  writeFileSync(join(dir, 'dist', 'm.js'), "exports.value = require('./o.js').value + '?';\n");
  assert.equal(load(dir).stdout, 'o?');
  assert.deepEqual(names(), ['m.js', 'o.js']);
});

test('a torn, corrupted or foreign cache file is ignored and written anew', () => {
  const dir = moduleDir('exports.value = [1, 2, 3].map((x) => x + 1).join();\n');
  assert.equal(load(dir).stdout, '2,3,4');
  const size = statSync(cacheFile(dir)).size;
  truncateSync(cacheFile(dir), size - 7);
  assert.deepEqual(load(dir), { code: 0, stdout: '2,3,4', stderr: '' });
  assert.equal(statSync(cacheFile(dir)).size, size, 'the torn file was replaced by a whole one');
  // Bytes changed inside the data, its length kept: V8 checks no checksum of a code cache (only in
  // debug builds), so only the cache's own hash of its body keeps such data from V8.
  const whole = readFileSync(cacheFile(dir));
  const corrupted = Buffer.from(whole);
  corrupted.fill(0x5a, size - 40, size - 8);
  writeFileSync(cacheFile(dir), corrupted);
  assert.deepEqual(load(dir), { code: 0, stdout: '2,3,4', stderr: '' });
  assert.notDeepEqual(readFileSync(cacheFile(dir)), corrupted, 'the corrupted file was replaced');
  writeFileSync(cacheFile(dir), 'not a cache\n');
  assert.deepEqual(load(dir), { code: 0, stdout: '2,3,4', stderr: '' });
  assert.equal(statSync(cacheFile(dir)).size, size);
});

test('a cache that cannot be written (its folder is under a file) changes nothing of the run', () => {
  const dir = moduleDir('exports.value = 7;\n');
  writeFileSync(join(dir, 'cache'), 'a file where the folder would be');
  assert.deepEqual(load(dir), { code: 0, stdout: '7', stderr: '' });
  assert.equal(readFileSync(join(dir, 'cache'), 'utf8'), 'a file where the folder would be');
  assert.deepEqual(readdirSync(dir).sort(), ['cache', 'dist']);
});

test('with source maps or V8 coverage on, modules load through Node itself and no cache is written', () => {
  const dir = moduleDir('exports.value = 5;\n');
  const coverage = join(dir, 'coverage');
  assert.deepEqual(load(dir, { NODE_V8_COVERAGE: coverage }), { code: 0, stdout: '5', stderr: '' });
  assert.ok(readdirSync(coverage).length > 0, 'the coverage was written');
  assert.deepEqual(load(dir, { NODE_OPTIONS: '--enable-source-maps' }), { code: 0, stdout: '5', stderr: '' });
  assert.equal(existsSync(cacheFile(dir)), false);
  assert.equal(load(dir).stdout, '5');
  assert.ok(existsSync(cacheFile(dir)), 'without either, the same run writes the cache');
});

test("a stack trace names the module's own line and column, with the cache and without", () => {
  const dir = moduleDir("'use strict';\n\nfunction fail() {\n  throw new Error('boom');\n}\nfail();\n");
  const at = `${join(dir, 'dist', 'm.js')}:4:9`;
  const first = load(dir);
  assert.match(first.stdout, /^Error: boom\n/);
  assert.ok(first.stdout.includes(at), first.stdout);
  assert.ok(existsSync(cacheFile(dir)));
  assert.ok(load(dir).stdout.includes(at), 'the cached run');
});

test('the built CLI writes its code cache on the first run, reads it on the next, and prints the same', () => {
  const domain = join(ROOT, 'test', 'fixtures', 'analyze', 'domains', 'tiny.json');
  // Where a user's CLI puts its cache (its name holds the children's V8 flags, which this process's may not match).
  assert.ok(!cacheDirOf([], {}).startsWith(join(ROOT, 'dist')), 'the cache is not under dist/, which notebook kernels watch');
  // A cache folder of this test's own: CLIs of concurrent test files write the user's space.bin too,
  // and one of them could rewrite it between the two runs below.
  const env = { ...WITHOUT_NODE_OPTIONS, XDG_CACHE_HOME: tempDir('kstbench-code-cache-cli-') };
  const spaceCache = join(cacheDirOf([], env), 'space.bin');
  assert.ok(!existsSync(spaceCache), 'a fresh cache folder');
  const first = kstbench(['space', '--domain', domain], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout.trimEnd().split('\n').length, 7);
  assert.ok(existsSync(spaceCache), 'the first run wrote its code cache (…/space.bin)');
  const written = { bytes: readFileSync(spaceCache), mtimeMs: statSync(spaceCache).mtimeMs };
  assert.deepEqual(kstbench(['space', '--domain', domain], { env }), first);
  assert.equal(statSync(spaceCache).mtimeMs, written.mtimeMs, 'the second run found every module cached and wrote nothing');
  assert.deepEqual(readFileSync(spaceCache), written.bytes);
});

/**
 * A preload (`node -r`, which runs in the worker thread too) that holds the code cache's save at its
 * rename, in the worker only, and creates `$STALL_MARKER` once it holds: so a test's signal lands
 * inside the save for certain. It stubs nothing the CLI computes: the command, its output and the
 * cache's staging run as they do; only the rename of a `.bin` under `$XDG_CACHE_HOME` waits (up to
 * 10 s, in Atomics.wait, which the worker's termination interrupts).
 */
const STALL_AT_CACHE_RENAME = `
const fs = require('node:fs');
if (!require('node:worker_threads').isMainThread) {
  const rename = fs.renameSync;
  fs.renameSync = function (from, to) {
    if (String(to).startsWith(process.env.XDG_CACHE_HOME) && String(to).endsWith('.bin')) {
      fs.writeFileSync(process.env.STALL_MARKER, String(from));
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10000);
    }
    return rename.apply(this, arguments);
  };
}
`;

/**
 * With the stall above, a main-thread part that holds back, for 5 s, any message of the worker that
 * announces its exit code (\`kstbenchExit\`, how the worker announced it before shared memory): so
 * the signal is handled while that notice is still queued, as happens when both arrive in one turn of
 * the main thread's event loop. Today's worker sends no such message and records its code in shared
 * memory (cli/thread.ts recordCommandExit), so this part then holds nothing.
 */
const HOLD_EXIT_MESSAGE = `
const threads = require('node:worker_threads');
if (threads.isMainThread) {
  const emit = threads.Worker.prototype.emit;
  threads.Worker.prototype.emit = function (event, message, ...rest) {
    if (event === 'message' && message && typeof message === 'object' && 'kstbenchExit' in message) {
      setTimeout(() => emit.call(this, event, message, ...rest), 5000);
      return true;
    }
    return emit.call(this, event, message, ...rest);
  };
}
`;

/** Runs `space --out` with an empty code cache, SIGINT `signals` times once its save holds; what the run left. */
async function interruptCacheSave(signals: number, holdExitMessage = false) {
  const dir = tempDir('kstbench-code-cache-signal-');
  const stub = join(dir, 'stall.js');
  writeFileSync(stub, STALL_AT_CACHE_RENAME + (holdExitMessage ? HOLD_EXIT_MESSAGE : ''));
  const marker = join(dir, 'stalled');
  const out = join(dir, 'out.jsonl');
  const domain = join(ROOT, 'test', 'fixtures', 'analyze', 'domains', 'tiny.json');
  const env = { ...process.env, ...WITHOUT_NODE_OPTIONS, XDG_CACHE_HOME: join(dir, 'xdg'), STALL_MARKER: marker };
  const child = spawn(process.execPath, ['-r', stub, join(ROOT, 'bin', 'kstbench.js'), 'space', '--domain', domain, '--out', out], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  while (!existsSync(marker)) {
    assert.ok(Date.now() < deadline, `the save never held: ${stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  const staged = readFileSync(marker, 'utf8');
  assert.ok(existsSync(staged), 'the cache was staged in its temporary when the signal came');
  for (let i = 0; i < signals; i++) {
    child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 20));
  }
  const sent = Date.now();
  const code = await exited;
  return { code, ms: Date.now() - sent, stderr, out, staged, cacheFolder: dirname(staged), dir };
}

for (const [signals, holdExitMessage] of [[1, false], [2, false], [1, true]] as const) {
  const queued = holdExitMessage ? ', the exit notice still queued in the main thread,' : '';
  test(`SIGINT ×${signals} during the code cache's save (the command done)${queued} keeps the command's exit and output, and leaves no temporary`, async () => {
    const r = await interruptCacheSave(signals, holdExitMessage);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '', 'no "stopped by SIGINT" line: the output was written');
    assert.ok(r.ms < 1000, `took ${r.ms} ms after the signal`);
    assert.equal(readFileSync(r.out, 'utf8').trimEnd().split('\n').length, 7, 'the output is whole');
    assert.equal(existsSync(r.staged), false, 'the temporary of the cut save was removed');
    assert.deepEqual(readdirSync(r.cacheFolder), [], 'and no cache file was half-written');
    rmSync(r.dir, { recursive: true, force: true });
  });
}

/** codeCacheDir() as a CLI process started with `execArgv` and `env` computes it. */
function cacheDirOf(execArgv: string[], env: NodeJS.ProcessEnv): string {
  const r = spawnSync(process.execPath, [...execArgv, '-p', `require(${JSON.stringify(CODE_CACHE)}).codeCacheDir()`], { encoding: 'utf8', env: { ...process.env, ...WITHOUT_NODE_OPTIONS, ...env } });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('a V8 flag set of its own (--max-old-space-size, on the command line or in NODE_OPTIONS) has a cache folder of its own, so alternating runs rewrite nothing', () => {
  const xdg = tempDir('kstbench-code-cache-flags-');
  const env = { XDG_CACHE_HOME: xdg };
  const plain = cacheDirOf([], env);
  assert.equal(cacheDirOf([], env), plain);
  assert.notEqual(cacheDirOf(['--max-old-space-size=300'], env), plain);
  const flagged = cacheDirOf([], { ...env, NODE_OPTIONS: '--max-old-space-size=300' });
  assert.notEqual(flagged, plain);
  const domain = join(ROOT, 'test', 'fixtures', 'analyze', 'domains', 'tiny.json');
  const run = (nodeOptions: string | undefined) => kstbench(['space', '--count', '--domain', domain], { env: { ...env, NODE_OPTIONS: nodeOptions } });
  assert.equal(run(undefined).code, 0);
  const written = statSync(join(plain, 'space.bin')).mtimeMs;
  assert.deepEqual(run('--max-old-space-size=300'), run(undefined));
  assert.ok(existsSync(join(flagged, 'space.bin')), 'the flagged run wrote its own file');
  assert.equal(run(undefined).code, 0);
  assert.equal(statSync(join(plain, 'space.bin')).mtimeMs, written, 'the runs without the flag still found their file valid');
  rmSync(xdg, { recursive: true, force: true });
});

test('a cache write removes the cache folders (other installs, Node versions, flag sets) nothing wrote for 30 days, and keeps the rest', () => {
  const root = join(tempDir('kstbench-code-cache-prune-'), 'code-cache');
  const old = (Date.now() - CODE_CACHE_UNUSED_MS - 24 * 3600 * 1000) / 1000;
  const folder = (install: string, name: string, mtime: number): string => {
    const dir = join(root, install, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'space.bin'), 'x');
    utimesSync(join(dir, 'space.bin'), mtime, mtime);
    utimesSync(dir, mtime, mtime);
    return dir;
  };
  const recent = (Date.now() - 24 * 3600 * 1000) / 1000;
  folder('a', 'v18.0.0-x64-1', old);
  folder('a', 'v20.0.0-x64-2', recent);
  folder('gone', 'v20.0.0-x64-2', old);
  const oldButWritten = folder('b', 'v20.0.0-x64-3', old);
  writeFileSync(join(oldButWritten, 'study.bin'), 'a file written now');
  // This run's module and cache folder under the root too (as 'mine/dist' and 'mine/cache'): the
  // folder it writes is kept even when old (it is written now anyway).
  const dir = join(root, 'mine');
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'dist', 'm.js'), 'exports.value = 9;\n');
  mkdirSync(join(dir, 'cache'));
  utimesSync(join(dir, 'cache'), old, old);
  assert.deepEqual(load(dir, {}, CODE_CACHE, root), { code: 0, stdout: '9', stderr: '' });
  const left = readdirSync(root).sort().flatMap((install) => readdirSync(join(root, install)).sort().map((f) => `${install}/${f}`));
  assert.deepEqual(left, ['a/v20.0.0-x64-2', 'b/v20.0.0-x64-3', 'mine/cache', 'mine/dist']);
  assert.ok(existsSync(cacheFile(dir)));
  // Nothing is pruned without a write (every module cached) nor without a root.
  folder('c', 'v16.0.0-x64-4', old);
  assert.equal(load(dir, {}, CODE_CACHE, root).stdout, '9');
  assert.ok(existsSync(join(root, 'c')));
  pruneCodeCaches(join(root, 'missing'), join(root, 'missing', 'x'));
  rmSync(dirname(root), { recursive: true, force: true });
});

test('a cache folder with an entry that cannot be stat\'ed (renamed away by a concurrent run, a dangling link) counts by its other entries, and one that cannot be read is never old', () => {
  const root = join(tempDir('kstbench-code-cache-newest-'), 'code-cache');
  const fresh = join(root, 'a', 'v20.0.0-x64-1');
  mkdirSync(fresh, { recursive: true });
  symlinkSync(join(fresh, 'renamed-away.tmp'), join(fresh, 'space.bin.tmp'));
  const before = Date.now();
  assert.ok(newestChange(fresh) >= before - 60_000, 'the folder just made is recent');
  assert.equal(newestChange(join(root, 'no-such-folder')), Infinity);
  pruneCodeCaches(root, join(root, 'mine', 'cache'));
  assert.ok(existsSync(fresh), 'a fresh folder holding a dangling entry is kept');
  rmSync(dirname(root), { recursive: true, force: true });
});
