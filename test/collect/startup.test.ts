/**
 * Start-up stays light: the built CLI, run for `--help`, `fringe --help` and a simulated collect,
 * never loads a model SDK, TensorFlow, danfojs or a browser; `fringe` and `psi score` load no
 * seedrandom, `study init` and `study check` no figure, report or claims module (docs/startup.md). Each run is given a tiny reporter
 * through NODE_OPTIONS=--require that writes, at exit, which heavy packages sit in require.cache.
 * The positive control (a live provider built through the same dist/) shows the reporter sees an SDK.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeTinyDomains } from './helpers';

const ROOT = join(__dirname, '..', '..');

/** Package folder (under node_modules/) → the name the assertions use. */
const HEAVY: Record<string, string> = {
  'openai': 'openai',
  '@anthropic-ai/sdk': 'anthropic',
  '@tensorflow': 'tensorflow',
  'danfojs-node': 'danfojs',
  'playwright-core': 'playwright',
  '@sparticuz/chromium': 'chromium',
};

// Commands run in a worker thread (cli/kstbench.ts runInWorker), which has its own require.cache and
// runs this preload too: the worker writes its modules to REPORT.worker at its exit, and the main
// thread, which exits last, adds them to its own.
const REPORTER = `
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');
const heavy = ${JSON.stringify(HEAVY)};
const report = process.env.KSTBENCH_STARTUP_REPORT;
process.on('exit', () => {
  let keys = Object.keys(require.cache).map((k) => k.split('\\\\').join('/'));
  if (!isMainThread) return writeFileSync(report + '.worker', JSON.stringify(keys));
  if (existsSync(report + '.worker')) keys = [...keys, ...JSON.parse(readFileSync(report + '.worker', 'utf8'))];
  const loaded = Object.entries(heavy).filter(([dir]) => keys.some((k) => k.includes('/node_modules/' + dir + '/'))).map(([, name]) => name);
  const commands = [...new Set(keys.filter((k) => k.includes('/dist/cli/commands/')).map((k) => k.replace(/^.*\\/dist\\/cli\\/commands\\//, '')))].sort();
  const collector = keys.some((k) => k.includes('/dist/lib/collect/'));
  const libFolders = [...new Set(keys.filter((k) => k.includes('/dist/lib/')).map((k) => k.replace(/^.*\\/dist\\/lib\\//, '').split('/')[0].replace(/\\.js$/, '')))].sort();
  const packages = [...new Set(keys.filter((k) => k.includes('/node_modules/')).map((k) => k.replace(/^.*\\/node_modules\\//, '').split('/')[0]))].sort();
  writeFileSync(report, JSON.stringify({ modules: keys.length, loaded, commands, collector, libFolders, packages }));
});
`;

interface StartupReport {
  modules: number;
  loaded: string[];
  /** dist/cli/commands/*.js files in require.cache. */
  commands: string[];
  /** Whether any dist/lib/collect module was loaded. */
  collector: boolean;
  /** The folders of dist/lib/ (or top-level files, without .js) any of whose modules was loaded. */
  libFolders: string[];
  /** The node_modules packages (scope alone for scoped ones) any of whose modules was loaded. */
  packages: string[];
}

function withReporter(args: string[], cwd = ROOT): { status: number | null; stdout: string; stderr: string; report: StartupReport } {
  assert.ok(existsSync(join(ROOT, 'dist', 'cli', 'kstbench.js')), 'run `npm run build` before this test');
  const dir = tempDir('kstbench-startup-');
  const reporter = join(dir, 'reporter.js');
  const reportFile = join(dir, 'report.json');
  writeFileSync(reporter, REPORTER);
  const run = spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: `--require ${reporter}`, KSTBENCH_STARTUP_REPORT: reportFile, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
  });
  assert.ok(existsSync(reportFile), `the reporter wrote nothing (exit ${run.status}): ${run.stderr}`);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, report: JSON.parse(readFileSync(reportFile, 'utf8')) as StartupReport };
}

const CLI = join(ROOT, 'bin', 'kstbench.js');

test('kstbench --help loads no command module, SDK, TensorFlow, danfojs or browser', () => {
  const run = withReporter([CLI, '--help']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^  collect {6}collect model responses/m);
  assert.ok(run.report.modules >= 3, `the reporter saw the CLI's own modules (${run.report.modules})`);
  assert.deepEqual(run.report.loaded, []);
  assert.deepEqual(run.report.commands, []);
  assert.equal(run.report.collector, false);
});

test('kstbench psi score loads the PSI scorer and not the collector', () => {
  const dir = tempDir();
  const text = join(dir, 'answer.md');
  writeFileSync(text, 'A slope is rise over run: for every step right, how far the line goes up.');
  const run = withReporter([CLI, 'psi', 'score', '--scenario', 'S01', '--text', text]);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.report.commands, ['psi.js']);
  assert.equal(run.report.collector, false);
  // lib/psi imports lib/kst's modules, not its index, which would load the state sampler too.
  assert.ok(!run.report.packages.includes('seedrandom'), `seedrandom loaded: ${run.report.packages.join(', ')}`);
});

test('kstbench fringe loads its own command module and not the collector', () => {
  const domains = writeTinyDomains();
  const domain = join(domains, readdirSync(domains).sort()[0]!);
  const run = withReporter([CLI, 'fringe', '--domain', domain, '--state', '']);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.report.commands, ['fringe.js']);
  assert.equal(run.report.collector, false);
  assert.deepEqual(run.report.loaded, []);
  assert.ok(!run.report.packages.includes('seedrandom'), `seedrandom loaded: ${run.report.packages.join(', ')}`);
});

test('kstbench study check loads no figure, report or claims module (they load in the steps that use them)', () => {
  const dir = tempDir();
  const study = join(dir, 'study');
  const init = withReporter([CLI, 'study', 'init', study, '--domains', join(ROOT, 'data', 'examples', 'fractions.json'), '--models', 'simulated:sim-a'], dir);
  assert.equal(init.status, 0, init.stderr);
  const run = withReporter([CLI, 'study', 'check', study], dir);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /simulated:sim-a/);
  for (const r of [init, run]) {
    assert.ok(r.report.libFolders.includes('study'), `the reporter saw lib/study: ${r.report.libFolders.join(', ')}`);
    assert.deepEqual(r.report.libFolders.filter((f) => ['figures', 'report', 'claims', 'site', 'notebook'].includes(f)), []);
    assert.deepEqual(r.report.loaded, []);
  }
});

test('kstbench fringe --help and collect --help load no heavy package', () => {
  for (const args of [['fringe', '--help'], ['collect', '--help'], ['psi', '--help']]) {
    const run = withReporter([CLI, ...args]);
    assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
    assert.deepEqual(run.report.loaded, [], args.join(' '));
  }
});

test('a simulated collect runs to completion without loading either SDK', () => {
  const domains = writeTinyDomains();
  const out = join(tempDir(), 'run');
  const run = withReporter([CLI, 'collect', '--domains', domains, '--models', 'simulated:sim-a', '--out', out, '--orders', '1', '--conditions', 'P0']);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).status, 'complete');
  assert.deepEqual(run.report.loaded, []);
});

test('positive control: building a live provider from the same dist/ loads its SDK, and only that one', () => {
  const script = `require('./dist/lib/collect/providers').createProvider('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: 'k' } });`;
  const run = withReporter(['-e', script]);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.report.loaded, ['anthropic']);
});
