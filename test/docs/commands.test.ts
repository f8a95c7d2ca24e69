/**
 * Every command of the README and docs/ works as written (see ./commands.ts for which are run and
 * which, too slow, paid or external, are checked for their scripts, flags and parameter values).
 * The commands run in a scratch copy of the project (data/, config/, bin/, package.json; dist/ and
 * node_modules linked), so nothing committed is touched. `npx kstbench` is run as
 * `node bin/kstbench.js`, the file package.json's `bin` maps it to (checked below): npx itself would
 * install the scratch copy into ~/.npm/_npx (a new folder per run, running `prepare`), which is npm's
 * business, not the documentation's. Needs `npm run build`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { documentedCommands, extractCommands, flagsOf, kstbenchProblems, listsFlag, NOT_RUN, notRunFor, shellWords, stripComment, type DocCommand } from './commands';
import { planRun } from '../../scripts/reproduce';

const ROOT = resolve(__dirname, '..', '..');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const commands = documentedCommands(ROOT, DOCS);
const where = (c: DocCommand) => `${c.file}:${c.line}: ${c.text}`;

let sandbox: string | undefined;
after(() => {
  if (sandbox) rmSync(sandbox, { recursive: true, force: true });
});

/** A scratch copy of the project in which documented commands may write what they write. */
function makeSandbox(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kstbench-docs-'));
  for (const part of ['data', 'config', 'bin', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** The command as the test runs it: `npx kstbench` becomes the file package.json's bin names. */
export function asRun(command: string): string {
  return command.replace(/(^|&&\s*)npx kstbench\b/g, '$1node bin/kstbench.js');
}

/**
 * A script's `--help`, from one run of `dist/scripts/<script>.js` per script: the documented lines of
 * one script (four of `reproduce`, two of `report`, and the wrong ones of the extraction test) are
 * checked against the same text, which a second run would print again byte for byte.
 */
const scriptHelps = new Map<string, string>();
function scriptHelp(script: string): string {
  let help = scriptHelps.get(script);
  if (help === undefined) {
    help = spawnSync(process.execPath, [join(ROOT, 'dist', 'scripts', `${script}.js`), '--help'], { cwd: ROOT, encoding: 'utf8' }).stdout;
    scriptHelps.set(script, help);
  }
  return help;
}

/** Problems with an npm line's parts: the script exists; reproduce's notebooks, flags and values pass its own checks. */
function npmProblems(command: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  return command.split('&&').map((p) => shellWords(p.trim())).flatMap((words) => {
    if (words[0] !== 'npm') return [`not an npm command: ${words.join(' ')}`];
    if (words[1] === 'ci') return [];
    const script = words[1] === 'test' ? 'test' : words[1] === 'run' ? words[2]! : '';
    if (!scripts[script]) return [`package.json has no script ${JSON.stringify(script)}`];
    const args = words.includes('--') ? words.slice(words.indexOf('--') + 1) : [];
    if (args.length === 0) return [];
    const help = scriptHelp(script);
    const problems = flagsOf(args).filter((f) => !listsFlag(help, f)).map((f) => `npm run ${script} -- --help does not list ${f}`);
    if (script === 'reproduce') {
      try {
        planRun(args, ROOT);
      } catch (e) {
        problems.push(`reproduce refuses it: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return problems;
  });
}

test('the README and docs have commands, and each not-run entry still matches one', () => {
  assert.ok(commands.length >= 25, `only ${commands.length} commands found in ${DOCS.join(', ')}`);
  assert.ok(commands.some((c) => c.file === 'README.md'), 'no command in the README');
  const unmatched = NOT_RUN.filter((n) => !commands.some((c) => n.match.test(c.text)));
  assert.deepEqual(unmatched.map((n) => String(n.match)), [], 'NOT_RUN entries that match no documented command (stale)');
});

test('every documented command that is not run has its script, flags and parameter values checked', () => {
  const problems = commands.flatMap((c) => {
    const entry = notRunFor(c.text);
    if (!entry) return [];
    const found = entry.check === 'npm' ? npmProblems(c.text) : entry.check === 'kstbench' ? kstbenchProblems(ROOT, shellWords(c.text)) : [];
    return found.map((p) => `${where(c)}: ${p}`);
  });
  assert.deepEqual(problems, []);
});

test('`npx kstbench` is bin/kstbench.js (package.json bin), the file the test runs instead', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string> };
  assert.equal(pkg.name, 'kstbench');
  assert.equal(pkg.bin.kstbench, 'bin/kstbench.js');
  assert.equal(asRun('npx kstbench fringe --x 1 && npx kstbench space'), 'node bin/kstbench.js fringe --x 1 && node bin/kstbench.js space');
});

test('every other documented command runs as written and exits 0', { timeout: 300_000 }, () => {
  sandbox = makeSandbox();
  const run = commands.filter((c) => !notRunFor(c.text));
  assert.ok(run.length >= 12, `only ${run.length} commands are run`);
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/API_KEY$/.test(key)) delete env[key];
  const failures = run.flatMap((c) => {
    const r = spawnSync('bash', ['-c', asRun(c.text)], { cwd: sandbox, encoding: 'utf8', env, timeout: 120_000 });
    return r.status === 0 ? [] : [`${where(c)}: exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`];
  });
  assert.deepEqual(failures, []);
});

test('extraction joins continuation lines, drops comments outside quotes, and a wrong flag or value is caught', () => {
  const md = ['```sh', 'npx kstbench fringe --domain d.json \\', '    --state A,B   # a comment', "echo '# kept' # dropped", '```', '```json', 'not a command', '```'].join('\n');
  assert.deepEqual(extractCommands(md, 'x.md').map((c) => [c.line, c.text]), [[2, 'npx kstbench fringe --domain d.json --state A,B'], [4, "echo '# kept'"]]);
  assert.equal(stripComment('a "#b" c # d'), 'a "#b" c');
  assert.deepEqual(shellWords(`node x --title "Linear Modelling" -p a 'b c'`), ['node', 'x', '--title', 'Linear Modelling', '-p', 'a', 'b c']);
  assert.deepEqual(kstbenchProblems(ROOT, shellWords('npx kstbench fringe --domain d.json --stat A')), ['kstbench fringe --help does not list --stat']);
  assert.match(npmProblems('npm run reproduce -- 06 -p resamples abc').join('\n'), /parameter resamples is a number/);
  assert.match(npmProblems('npm run reproduce -- 06 --outputdir x').join('\n'), /does not list --outputdir|reproduce refuses it/);
  assert.deepEqual(npmProblems('npm run reprodcue'), ['package.json has no script "reprodcue"']);
  assert.equal(notRunFor('npx kstbench fringe --domain x'), undefined, 'a cheap command must be run, not excused');
});
