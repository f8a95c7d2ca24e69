#!/usr/bin/env node
// Runs test/**/*.test.ts (all, or those whose path contains one of the arguments) with Node's own
// test runner, in few processes, and prints one line per finished file and the slowest files at the end.
//
//   node scripts/run-tests.js [--jobs N] [PATH-SUBSTRING ...]
//
// Why it is more than `node --test`:
// - Speed. `node --test` starts one process per file, and with tsx each start cost about 0.5 s of CPU
//   (215 files). Here the TypeScript is tsc's own output (test-runner/hook.js: the one
//   `tsc -b tsconfig.test.json` of `npm test`, scripts/build-tests.js, type-checks and compiles
//   test/, and lib/, cli/ and scripts/ when they changed), and the files that touch no process
//   state share a few processes (test-runner/entry.js).
//   A file keeps a process of its own when it, or a test helper it imports, changes or listens to
//   process state (env, cwd, signals, exit code, patched globals, mocks), starts child processes or
//   servers, or drives the browser — see ISOLATE. Processes start longest first (times of the last run
//   in tmp/test-times.json; on a fresh clone the measured list in SLOW), N at a time (default: cores + 1,
//   see DEFAULT_JOBS).
// - No litter. Each test process has a TMPDIR of its own, removed when the process is gone.
// - No hang. Every file is a suite with a time limit (KSTBENCH_TEST_FILE_TIMEOUT, seconds, default
//   300); a process that outlives its file's limit by 30 s, or does not exit after its last test,
//   is killed with its children, and the file fails naming the reason.
'use strict';
const { readdirSync, readFileSync, statSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } = require('node:fs');
const { join, relative, dirname, resolve } = require('node:path');
const { spawn } = require('node:child_process');
const { availableParallelism, tmpdir } = require('node:os');
const { createInterface } = require('node:readline');

const root = join(__dirname, '..');
const runner = join(__dirname, 'test-runner');
const timesFile = join(root, 'tmp', 'test-times.json');
const cpuFile = join(root, 'tmp', 'test-cpu.json'); // the CPU seconds of each file of the last run (see fileDone)
const FILE_TIMEOUT_S = Number(process.env.KSTBENCH_TEST_FILE_TIMEOUT) || 300;
const KILL_GRACE_MS = Number(process.env.KSTBENCH_TEST_KILL_GRACE_MS) || 30_000;
const EXIT_GRACE_MS = 20_000;

// Seconds of the slowest files, for the order of a run with no tmp/test-times.json yet (a fresh clone,
// CI): CPU of each file run alone, its whole process tree (user + sys of the test process and all it
// started, Chromium's re-parented renderers included; docs/testing.md), December 2026. Only the order
// matters, but every file that takes long must be here: one left out starts late and ends last.
const SLOW = {
  'test/notebook/own-study-notebooks.test.ts': 46,
  'test/site/report.test.ts': 37,
  'test/figures/viewers.test.ts': 36,
  'test/study/report.test.ts': 26,
  'test/notebook/execute.test.ts': 19,
  'test/analysis/oracle.test.ts': 18,
  'test/notebook/jupyter.test.ts': 15,
  'test/docs/commands.test.ts': 15,
  'test/study/check.test.ts': 11,
  'test/collect/lock-race.test.ts': 11,
  'test/collect/cli-kill.test.ts': 11,
  'test/cli/space-fringe.test.ts': 9,
  'test/notebook/reproduce.test.ts': 8,
  'test/collect/cli-signal.test.ts': 8,
  'test/cli/analyze-errors.test.ts': 8,
};

// What makes a test file need a process of its own (see the header).
const ISOLATE = [
  /process\.(env|chdir|cwd|on|once|off|exit|exitCode|kill|umask|emit|stdout|stderr|stdin)\b/,
  /node:child_process|\b(spawn|spawnSync|execFile|execFileSync|fork)\(/,
  /\bcreateServer\(|fake-llm-server/,
  /\bmock\b/,
  /globalThis\.[\w$]+\s*=[^=]|\bDate\.now\s*=[^=]/,
  /figures\/browser|withPage|playwright/,
];

function walk(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith('.test.ts') ? [path] : [];
    });
}

/** Whether `file` or a test helper it imports (relative imports inside test/) matches ISOLATE. */
function needsOwnProcess(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  if (ISOLATE.some((pattern) => pattern.test(source))) return true;
  const testDir = join(root, 'test');
  for (const [, spec] of source.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
    const target = resolve(dirname(file), spec);
    if (!target.startsWith(testDir)) continue;
    const helper = [`${target}.ts`, join(target, 'index.ts')].find(existsSync);
    if (helper && needsOwnProcess(helper, seen)) return true;
  }
  return false;
}

function readTimes() {
  try {
    return JSON.parse(readFileSync(timesFile, 'utf8'));
  } catch {
    return {};
  }
}

/** The processes to start: an isolated file alone, the others in 2 × jobs groups of about equal time. */
function planJobs(files, jobs, times) {
  const estimate = (f, isolated) => times[f] ?? SLOW[f] ?? (isolated ? 5 : 0.5);
  const plan = [];
  const shared = [];
  for (const f of files) {
    if (needsOwnProcess(join(root, f))) plan.push({ files: [f], estimate: estimate(f, true) });
    else shared.push(f);
  }
  const groups = Array.from({ length: Math.min(shared.length, 2 * jobs) }, () => ({ files: [], estimate: 0 }));
  for (const f of shared.sort((a, b) => estimate(b, false) - estimate(a, false))) {
    const lightest = groups.reduce((a, b) => (b.estimate < a.estimate ? b : a));
    lightest.files.push(f);
    lightest.estimate += estimate(f, false);
  }
  return [...plan, ...groups].sort((a, b) => b.estimate - a.estimate);
}

// One process more than cores: many files spend part of their time waiting on what they started (the
// browser, Python, a CLI child, a fake server's delays, timers), and with one process per core that
// core idles. Measured on the 2-core machine, idle, the whole suite (run-tests only, December 2026):
// --jobs 2 127.7 s, --jobs 3 113.4 and 109.2 s, --jobs 4 113.8 s, with the same CPU (214–223 s for the
// whole process tree, Chromium included).
const DEFAULT_JOBS = availableParallelism() + 1;

function parseArgs(argv) {
  let jobs = DEFAULT_JOBS;
  const filter = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--jobs(?:=(.*))?$/.exec(argv[i]);
    if (m) {
      jobs = Number(m[1] ?? argv[++i]);
      if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs needs a whole number ≥ 1, got ${m[1] ?? argv[i]}`);
    } else filter.push(argv[i]);
  }
  return { jobs, filter };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

class Run {
  constructor(total) {
    this.total = total;
    this.finished = 0;
    this.counts = { pass: 0, fail: 0, skip: 0, todo: 0 };
    this.fileTimes = {};
    this.fileCpu = {};
    this.failures = [];
    this.skipped = [];
    this.children = new Set();
    this.tmps = new Set(); // the TMPDIR of each test process not yet removed
  }

  /** Removes a test process's TMPDIR; a folder that cannot go (something still writes there) is named. */
  removeTmp(tmp) {
    if (!this.tmps.delete(tmp)) return;
    try {
      rmSync(tmp, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
    } catch (err) {
      process.stderr.write(`run-tests: could not remove ${tmp} (${err.code ?? err.message}); remove it by hand\n`);
    }
  }

  fileDone(file, ok, ms, problems, cpu) {
    this.finished++;
    if (ok) this.fileTimes[file] = ms / 1000;
    if (cpu !== undefined) this.fileCpu[file] = cpu;
    const n = String(this.finished).padStart(String(this.total).length);
    process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} [${n}/${this.total}] ${seconds(ms).padStart(8)}  ${file}\n`);
    for (const p of problems) {
      this.failures.push({ file, ...p });
      process.stdout.write(`  ✗ ${p.name}\n${indent(p.error ?? '', '    ')}\n`);
    }
  }
}

function indent(text, prefix) {
  return text
    .split('\n')
    .slice(0, 40)
    .map((l) => prefix + l)
    .join('\n');
}

/** The command line of a test process: tsc's output through the hook, events to fd 3 (test-runner/). */
function testProcessArgs(files) {
  return [
    '--require',
    join(runner, 'hook.js'),
    `--test-reporter=${join(runner, 'events.js')}`,
    '--test-reporter-destination=stdout',
    join(runner, 'entry.js'),
    ...files,
  ];
}

/** One test process: the files it runs, what it reported, and the watchdogs that end a hang. */
class TestProcess {
  constructor(job, run) {
    this.job = job;
    this.run = run;
    this.pending = new Set(job.files);
    this.byPath = new Map(job.files.map((f) => [join(root, f), f]));
    this.problems = [];
    this.output = '';
    this.current = undefined;
    this.started = Date.now();
    this.lastEvent = Date.now();
    this.closed = false;
    this.cpuAt = 0; // CPU seconds the process had used when its last file finished
  }

  /** Starts the process; resolves when it is gone and every one of its files is reported. */
  start() {
    return new Promise((done) => {
      // Each test process gets a temporary folder of its own as TMPDIR, removed when it is gone: every
      // folder its tests make with tmpdir() (test/support/files.ts tempDir, mkdtempSync) and those its
      // children make go with it, even when it was killed, rather than pile up in /tmp.
      this.tmp = mkdtempSync(join(tmpdir(), 'kstbench-test-process-'));
      this.child = spawn(process.execPath, testProcessArgs(this.job.files), {
        cwd: root,
        detached: true, // its own process group: a kill reaches what it started too
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
        env: { ...process.env, TMPDIR: this.tmp, KSTBENCH_TEST_FILE_TIMEOUT_MS: String(FILE_TIMEOUT_S * 1000) },
      });
      this.run.tmps.add(this.tmp);
      this.run.children.add(this.child);
      const keep = (chunk) => {
        this.output += chunk;
        if (this.output.length > 200_000) this.output = this.output.slice(-100_000);
      };
      this.child.stdout.on('data', keep);
      this.child.stderr.on('data', keep);
      // A test that blocks the event loop also blocks the reporter, so the watchdog is silence: no
      // event for longer than a file may take means a hang, whatever the process is doing.
      this.watchdog = setInterval(() => {
        const quiet = Date.now() - this.lastEvent;
        if (quiet > FILE_TIMEOUT_S * 1000 + KILL_GRACE_MS) {
          this.kill(`killed after ${Math.round(quiet / 1000)} s without a test finishing (the limit is ${FILE_TIMEOUT_S} s a file): a hang`);
        }
      }, 1000);
      createInterface({ input: this.child.stdio[3] }).on('line', (line) => this.onLine(line));
      this.child.on('close', (code, signal) => {
        this.onClose(code, signal);
        done();
      });
    });
  }

  kill(reason) {
    this.killedFor ??= reason;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  /** `cpuNow`: the process's CPU seconds so far (with its waited-for children), when it reported them. */
  finishFile(file, ok, ms, cpuNow) {
    this.pending.delete(file);
    // A file's CPU is what its process used since the previous file finished: the first file of a
    // process also pays the process's start (Node, the hook, loading every file of the process).
    const cpu = cpuNow === undefined ? undefined : cpuNow - this.cpuAt;
    if (cpuNow !== undefined) this.cpuAt = cpuNow;
    this.run.fileDone(file, ok && this.problems.length === 0, ms, this.problems, cpu);
    this.problems = [];
    this.current = undefined;
    if (this.pending.size === 0 && !this.exitTimer && !this.closed) {
      const why = `did not exit ${EXIT_GRACE_MS / 1000} s after its last test: something it started (a server, a timer, a child) is still open`;
      this.exitTimer = setTimeout(() => this.kill(why), EXIT_GRACE_MS);
    }
  }

  onLine(line) {
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      return; // not one of the reporter's lines
    }
    this.lastEvent = Date.now();
    const finished = event.type === 'pass' || event.type === 'fail';
    if (event.type === 'file-start') {
      this.current = event.file;
      this.started = Date.now();
    } else if (event.type === 'diagnostic') {
      this.output += `${event.message}\n`;
    } else if (finished && event.nesting === 0) {
      const file = this.pending.has(event.name) ? event.name : this.current;
      if (event.type === 'fail' && !event.onlySubtests) this.problems.push({ name: '(the file itself)', error: event.error });
      if (file) this.finishFile(file, event.type === 'pass', event.ms ?? Date.now() - this.started, event.cpu);
    } else if (finished && !event.suite) {
      this.countTest(event);
    } else if (event.type === 'fail' && !event.onlySubtests) {
      this.problems.push({ name: `${event.name} (suite)`, error: event.error });
    }
  }

  countTest(event) {
    const { counts, skipped } = this.run;
    if (event.type === 'fail') {
      this.problems.push({ name: event.name, error: event.error });
      counts.fail++;
    } else if (event.skip || event.todo) {
      counts[event.skip ? 'skip' : 'todo']++;
      const why = event.skipReason ? ` (${event.skipReason})` : '';
      skipped.push(`${this.byPath.get(event.file) ?? this.current ?? this.job.files[0]} › ${event.name}${why}`);
    } else counts.pass++;
  }

  /** The process is gone: every file it did not finish fails, naming why; its output is shown on failure. */
  onClose(code, signal) {
    this.closed = true;
    clearInterval(this.watchdog);
    clearTimeout(this.exitTimer);
    this.run.children.delete(this.child);
    this.run.removeTmp(this.tmp);
    // Files run in the order given: when a kill came before the running file's start was reported
    // (its test blocked the reporter too), the first file not finished is the one that was running.
    if (this.killedFor && !this.current && this.pending.size > 0) this.current = this.job.files.find((f) => this.pending.has(f));
    const { run, job } = this;
    const failedBefore = run.failures.length;
    const how = this.killedFor ?? `the process exited with ${code ?? signal}`;
    const blamed = this.current !== undefined || this.pending.size > 0;
    if (this.current) {
      this.problems.push({ name: '(the process)', error: `${how} while this file ran` });
      this.finishFile(this.current, false, Date.now() - this.started);
    }
    for (const file of [...this.pending]) {
      this.problems.push({ name: '(not run)', error: `${how} before this file ran` });
      this.finishFile(file, false, 0);
    }
    const name = job.files.join(', ');
    const jobFailed = run.failures.some((f) => job.files.includes(f.file) || f.file === name);
    if (!blamed && (this.killedFor || (code !== 0 && !jobFailed))) {
      const error = this.killedFor ?? `exited with ${code ?? signal} and no failed test`;
      run.failures.push({ file: name, name: '(the process)', error });
      process.stdout.write(`FAIL ${name}: ${error}\n`);
    }
    if ((run.failures.length > failedBefore || jobFailed) && this.output.trim() !== '') {
      process.stdout.write(`--- what the process that ran ${job.files.length === 1 ? job.files[0] : `${job.files.length} files`} printed (last lines) ---\n`);
      process.stdout.write(`${this.output.trimEnd().split('\n').slice(-60).join('\n')}\n---\n`);
    }
  }
}

async function main() {
  const { jobs, filter } = parseArgs(process.argv.slice(2));
  const allFiles = walk(join(root, 'test')).map((f) => relative(root, f).split('\\').join('/'));
  const files = allFiles.filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)));
  const unknown = Object.keys(SLOW).filter((f) => !allFiles.includes(f));
  if (unknown.length > 0) process.stderr.write(`run-tests: SLOW in scripts/run-tests.js names files that do not exist (renamed? update it): ${unknown.join(', ')}\n`);
  if (files.length === 0) {
    console.error('run-tests: no test files matched');
    return 1;
  }
  const times = readTimes();
  const queue = planJobs(files, jobs, times);
  const run = new Run(files.length);
  const onSignal = (signal) => {
    for (const child of run.children) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    for (const tmp of run.tmps) run.removeTmp(tmp);
    process.stderr.write(`run-tests: ${signal}: stopped\n`);
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.stdout.write(`run-tests: ${files.length} files in ${queue.length} processes, ${jobs} at a time; per-file limit ${FILE_TIMEOUT_S} s\n`);
  const started = Date.now();
  const workers = Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    while (queue.length > 0) await new TestProcess(queue.shift(), run).start();
  });
  await Promise.all(workers);
  const wall = Date.now() - started;

  const { pass, fail, skip, todo } = run.counts;
  const slowest = Object.entries(run.fileTimes)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10);
  const cpuOf = (f) => (run.fileCpu[f] === undefined ? '' : `  cpu ${run.fileCpu[f].toFixed(1).padStart(5)} s`);
  process.stdout.write(`\nslowest files (wall; cpu of the file's process and the children it waited for):\n${slowest.map(([f, s]) => `  ${s.toFixed(1).padStart(6)} s${cpuOf(f)}  ${f}`).join('\n')}\n`);
  if (run.skipped.length > 0) process.stdout.write(`\nskipped or todo:\n${run.skipped.map((s) => `  ${s}`).join('\n')}\n`);
  if (run.failures.length > 0) {
    process.stdout.write(`\nfailed:\n${run.failures.map((f) => `  ${f.file} › ${f.name}`).join('\n')}\n`);
  }
  process.stdout.write(
    `\n${files.length} files, ${pass + fail + skip + todo} tests: ${pass} passed, ${fail} failed, ${skip} skipped, ${todo} todo` +
      ` (${run.failures.length === 0 ? 'ok' : `${run.failures.length} failure(s)`}) in ${seconds(wall)}` +
      (Object.keys(run.fileCpu).length > 0 ? `, cpu ${seconds(1000 * Object.values(run.fileCpu).reduce((a, b) => a + b, 0))}` : '') +
      '\n',
  );
  if (filter.length === 0 || Object.keys(run.fileTimes).length > 0) {
    mkdirSync(dirname(timesFile), { recursive: true });
    // Only files that still exist: a renamed or merged file's old time would linger forever.
    const kept = Object.fromEntries(Object.entries({ ...times, ...run.fileTimes }).filter(([f]) => allFiles.includes(f)));
    writeFileSync(timesFile, `${JSON.stringify(kept, null, 1)}\n`);
    writeFileSync(cpuFile, `${JSON.stringify(run.fileCpu, null, 1)}\n`);
  }
  return run.failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`run-tests: ${err.message}`);
    process.exit(2);
  },
);
