/**
 * SIGINT during a long operation ends the command within a second, with exit 130, a line saying so,
 * and no temporary file (the command runs in a worker; cli/kstbench.ts's runInWorker stops it and
 * removes what lib/io/temporaries.ts listed). Checked on streaming a space, exporting it and counting
 * an unbounded walk; plus `--out` naming a FIFO, a device stand-in and a symlink, in a temporary folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuTicks, kstbench, ROOT } from '../support/cli';

/** A domain of `n` independent tasks (2^n states: streaming it never ends within a test). */
function wideDomain(dir: string, n: number): string {
  const file = join(dir, 'wide.json');
  const components = Array.from({ length: n }, (_, i) => ({ id: `T${i}`, description: `task ${i}` }));
  writeFileSync(file, JSON.stringify({ id: 'wide', title: 'wide', source: 'test', components, prerequisites: [] }));
  return file;
}

/** Runs the CLI, waits until `ready(dir)` holds, sends SIGINT and reports how long the exit took. */
async function interrupt(args: string[], dir: string, ready: (pid: number) => boolean, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; ms: number; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'kstbench.js'), ...args], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  while (!ready(child.pid!)) {
    assert.ok(Date.now() < deadline, `never ready: ${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const sent = Date.now();
  child.kill('SIGINT');
  const code = await exited;
  return { code, ms: Date.now() - sent, stderr };
}

/** A connected space that is not quasi-ordinal with about 2^61 states: x has one atom {x, i_k} per item. */
function writeRoutes(file: string): void {
  const items = Array.from({ length: 60 }, (_, i) => `i${i}`);
  const components = [...items, 'x'].map((id) => ({ id, description: id }));
  const basis = [...items.map((i) => [i]), ...items.map((i) => [i, 'x'])];
  writeFileSync(file, JSON.stringify({ id: 'd', title: 'd', source: 't', components, basis }));
}


const temporaries = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

for (const [label, extra] of [
  ['space streaming to --out', ['space', '--max-states', '0']],
  ['export --what space', ['export', '--what', 'space', '--format', 'srbt', '--max-states', '0']],
] as const) {
  test(`SIGINT during ${label} ends it within 1 s, exit 130, no temporary file and no output`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kst-sigint-'));
    try {
      const domain = wideDomain(dir, 40);
      const out = join(dir, 'out.txt');
      const r = await interrupt([...extra, '--domain', domain, '--out', out], dir, () => temporaries(dir).length > 0);
      assert.equal(r.code, 130, r.stderr);
      assert.ok(r.ms < 1000, `took ${r.ms} ms after SIGINT`);
      assert.match(r.stderr, /stopped by SIGINT; no output file was replaced \(removed 1 temporary file\)/);
      assert.deepEqual(temporaries(dir), []);
      assert.equal(existsSync(out), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('SIGINT during a count with no budget (an unbounded union-closure walk) ends it within 1 s', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-sigint-'));
  try {
    writeRoutes(join(dir, 'd.json'));
    // Ready once the child has spent 1.5 s of CPU (so it is counting, well past start-up and the handler's installation).
    const r = await interrupt(['space', '--domain', 'd.json', '--count', '--max-states', '0'], dir, (pid) => cpuTicks(pid) > 150);
    assert.equal(r.code, 130, r.stderr);
    assert.ok(r.ms < 1000, `took ${r.ms} ms after SIGINT`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the same count under the default budget stops by itself with an error naming --max-states', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-budget-'));
  try {
    writeRoutes(join(dir, 'd.json'));
    const r = kstbench(['space', '--domain', join(dir, 'd.json'), '--count', '--max-states', '100000']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /counting the states of .*d\.json.* needs more than 100000 steps, over the work budget --max-states 100000; raise --max-states/);
    const wide = wideDomain(dir, 64);
    const count = kstbench(['space', '--domain', wide, '--count']);
    assert.equal(count.stdout, '18446744073709551616\n');
    const stream = kstbench(['space', '--domain', wide]);
    assert.equal(stream.code, 1);
    assert.match(stream.stderr, /streaming the 18446744073709551616 states of .* over the work budget --max-states 50000000/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--out to a FIFO, a device stand-in (a link to /dev/null) and a symlink, in a temporary folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kst-out-'));
  try {
    const domain = join(ROOT, 'data', 'raw', 'domains', 'slope.json');
    const dev = join(dir, 'null');
    symlinkSync('/dev/null', dev);
    const r = kstbench(['space', '--domain', domain, '--out', dev]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /is a character device: written through directly/);
    assert.ok(lstatSync(dev).isSymbolicLink());
    const fifo = join(dir, 'pipe');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const noReader = kstbench(['export', '--domain', domain, '--what', 'basis', '--format', 'srbt', '--out', fifo]);
    assert.equal(noReader.code, 1);
    assert.match(noReader.stderr, /pipe: it is a named pipe \(FIFO\) with no reader; start the reader first/);
    assert.ok(lstatSync(fifo).isFIFO());
    const real = join(dir, 'real.jsonl');
    writeFileSync(real, 'old');
    const link = join(dir, 'link.jsonl');
    symlinkSync(real, link);
    assert.equal(kstbench(['space', '--domain', domain, '--out', link]).code, 0);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.deepEqual(readdirSync(dir).sort(), ['link.jsonl', 'null', 'pipe', 'real.jsonl']);
    const zero = kstbench(['space', '--domain', '/dev/zero']);
    assert.equal(zero.code, 1);
    assert.equal(zero.stderr, 'kstbench space: /dev/zero: cannot read domain file (it is a character device, not a regular file)\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SIGINT while the figures are drawn removes the browser profile, playwright\'s artifacts and the page folders it made in TMPDIR', { timeout: 120_000 }, async () => {
  // The worker is terminated, so no finally of lib/figures runs: the folders are listed
  // (lib/io/temporaries.ts) and the main thread removes them. They used to stay, about 4 MB each,
  // while the command said "no temporary file was left".
  const dir = mkdtempSync(join(tmpdir(), 'kst-sigint-figures-'));
  const scratch = mkdtempSync(join(tmpdir(), 'kst-sigint-tmpdir-'));
  try {
    const study = join(dir, 'study');
    for (const args of [
      ['study', 'init', study, '--domains', join(ROOT, 'data', 'examples', 'fractions.json'), '--models', 'simulated:sim-a'],
      ['study', 'collect', study],
      ['study', 'analyze', study],
    ]) {
      const r = kstbench(args, { timeoutMs: 60_000 });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    const ours = () => readdirSync(scratch).filter((f) => f.startsWith('kstbench-'));
    // Ready once a page is drawn: the browser has launched, so playwright has made what it makes.
    const drawing = () => readdirSync(scratch).some((f) => f.startsWith('kstbench-figure-'));
    const r = await interrupt(['study', 'figures', study], dir, drawing, { ...process.env, TMPDIR: scratch });
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /stopped by SIGINT; no output file was replaced \(removed \d+ temporary files?\)/);
    assert.deepEqual(ours(), [], 'no kstbench-chromium-* or kstbench-figure-* folder left');
    // Playwright's artifacts folder is inside the browser's kstbench-chromium-* (artifactsDir), not its own
    // playwright-artifacts-* in TMPDIR, which no handler of ours removed.
    assert.deepEqual(readdirSync(scratch).filter((f) => f.startsWith('playwright-')), [], 'no playwright-* folder left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    // Chromium itself outlives the CLI by up to ~3 s (it notices its closed pipe) and may still write
    // there: retry the removal (ENOTEMPTY) rather than fail on it.
    rmSync(scratch, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
});


/**
 * Runs `space --domain tiny.json --out DIR/out.jsonl` under the preload `stub` (its source), which
 * creates `$SIGNAL_MARKER` when the moment it stages has come; sends SIGINT then; what the run left.
 */
async function signalWhenMarked(stub: string, env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kst-sigint-moment-'));
  const stubFile = join(dir, 'preload.js');
  writeFileSync(stubFile, stub);
  const out = join(dir, 'out.jsonl');
  const marker = join(dir, 'marked');
  const domain = join(ROOT, 'test', 'fixtures', 'analyze', 'domains', 'tiny.json');
  const child = spawn(process.execPath, ['-r', stubFile, join(ROOT, 'bin', 'kstbench.js'), 'space', '--domain', domain, '--out', out], {
    cwd: dir,
    env: { ...process.env, SIGNAL_MARKER: marker, HOLD_OUT: out, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 20_000;
  while (!existsSync(marker)) {
    assert.ok(Date.now() < deadline, `the preload never marked its moment: ${stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGINT');
  const { code, signal } = await exited;
  const lines = existsSync(out) ? readFileSync(out, 'utf8').trimEnd().split('\n').length : 0;
  rmSync(dir, { recursive: true, force: true });
  return { code, signal, stderr, lines };
}

/**
 * A preload (`node -r`, run in the worker too) for the window between a signal and the worker's
 * termination: in the worker, the rename of `$HOLD_OUT` (the command's --out) waits 400 ms after
 * creating `$SIGNAL_MARKER`, so the test's SIGINT lands while the command is still running; in the main
 * thread, Worker#terminate takes effect only 5 s later, so the command finishes (renames its output and
 * records its exit code) between the signal and the termination. Nothing the CLI computes is stubbed.
 */
const FINISH_BEFORE_TERMINATE = `
const threads = require('node:worker_threads');
const fs = require('node:fs');
if (threads.isMainThread) {
  const terminate = threads.Worker.prototype.terminate;
  threads.Worker.prototype.terminate = function () {
    return new Promise((resolve) => setTimeout(() => resolve(terminate.call(this)), 5000).unref());
  };
} else {
  const rename = fs.renameSync;
  fs.renameSync = function (from, to) {
    if (String(to) === process.env.HOLD_OUT) {
      fs.writeFileSync(process.env.SIGNAL_MARKER, '');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
    }
    return rename.apply(this, arguments);
  };
}
`;

test('a command that finishes between a SIGINT and its worker\'s termination exits with its own code and says nothing of a stop (its output is written)', async () => {
  const r = await signalWhenMarked(FINISH_BEFORE_TERMINATE);
  assert.equal(r.stderr, '', 'no "stopped by SIGINT; no output file was replaced" line: the output was replaced');
  assert.deepEqual({ code: r.code, signal: r.signal }, { code: 0, signal: null });
  assert.equal(r.lines, 7, 'the output is whole');
});

/**
 * A preload for the last moments of a run: when the command's worker has exited, the main thread is
 * kept alive 600 ms longer (a timer), and `$SIGNAL_MARKER` is created 150 ms after the exit, when the
 * exit handler has settled the code and dropped the command's own signal listeners (its awaits take
 * a few ms): so the test's SIGINT lands after the work is done and before the process exits. Nothing
 * the CLI computes is stubbed.
 */
const LINGER_AFTER_WORKER_EXIT = `
const threads = require('node:worker_threads');
if (threads.isMainThread) {
  const emit = threads.Worker.prototype.emit;
  threads.Worker.prototype.emit = function (event, ...rest) {
    if (event === 'exit') {
      setTimeout(() => require('node:fs').writeFileSync(process.env.SIGNAL_MARKER, ''), 150);
      setTimeout(() => {}, 600);
    }
    return emit.call(this, event, ...rest);
  };
}
`;

test('a SIGINT after the command\'s worker exited (a late second Ctrl-C) does not kill the process: it exits with the command\'s code', async () => {
  const r = await signalWhenMarked(LINGER_AFTER_WORKER_EXIT);
  assert.deepEqual({ code: r.code, signal: r.signal }, { code: 0, signal: null }, r.stderr);
  assert.equal(r.stderr, '');
  assert.equal(r.lines, 7);
});

test('a program that calls main() itself gets its SIGINT/SIGTERM back within a second of the command\'s end', async () => {
  const { main } = await import('../../cli/kstbench');
  const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
  const code = await main(['space', '--count', '--domain', join(ROOT, 'test', 'fixtures', 'analyze', 'domains', 'tiny.json')]);
  assert.equal(code, 0);
  await new Promise((r) => setTimeout(r, 1200));
  assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before, 'no listener of the run is left');
});
