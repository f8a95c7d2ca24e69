/**
 * The commands of the README and docs/: every line of a fenced ```sh block, as a reader would paste
 * it. Each is either run for real (in a scratch copy of the project, so nothing committed changes)
 * or listed in NOT_RUN with why it is too slow, paid or external, and a check that what it names
 * exists: the npm script, every flag in the command's own --help, the notebooks and parameter values
 * of a `reproduce` line. A command in neither group fails the test; so does a NOT_RUN entry that no
 * command matches any more.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DocCommand {
  /** Markdown file, relative to the project root. */
  file: string;
  /** 1-based line of the command's first line. */
  line: number;
  /** The command with continuation lines joined and its trailing comment removed. */
  text: string;
}

/** `line` without a trailing `# comment` that stands outside quotes (after whitespace). */
export function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i += 1;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i += 1;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line.trimEnd();
}

/** Every command of the ```sh blocks of a Markdown text. */
export function extractCommands(markdown: string, file: string): DocCommand[] {
  const out: DocCommand[] = [];
  const lines = markdown.split('\n');
  let inSh = false;
  let pending: DocCommand | null = null;
  lines.forEach((raw, i) => {
    if (!inSh) {
      if (/^```sh\s*$/.test(raw)) inSh = true;
      return;
    }
    if (/^```\s*$/.test(raw)) {
      inSh = false;
      if (pending) out.push(pending);
      pending = null;
      return;
    }
    const text = stripComment(raw);
    const continued = text.endsWith('\\');
    const part = (continued ? text.slice(0, -1) : text).trim();
    if (pending) pending.text = `${pending.text} ${part}`.trim();
    else if (part !== '') pending = { file, line: i + 1, text: part };
    if (!continued && pending) {
      out.push(pending);
      pending = null;
    }
  });
  return out;
}

/** Shell words of a simple command line (quotes removed; no expansion). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else word = (word ?? '') + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word = word ?? '';
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/** A documented command the test does not run, why, and how its parts are checked instead. */
export interface NotRun {
  match: RegExp;
  why: string;
  check: 'npm' | 'kstbench' | 'external';
}

/**
 * The commands not run, each for its reason. Everything else in the docs is run for real.
 */
export const NOT_RUN: readonly NotRun[] = [
  { match: /^npm ci && npm run (reproduce|kernel)$/, why: 'npm ci reinstalls node_modules (minutes, network) and reproduce rewrites every output; .ci/run runs them on a fresh clone', check: 'npm' },
  { match: /^npm test$/, why: 'the suite itself (minutes); .ci/run runs it', check: 'npm' },
  { match: /^npm run reproduce -- /, why: 'runs notebooks (up to a minute each); checked: the notebooks named and every -p value as reproduce checks them before a cell runs', check: 'npm' },
  { match: /^npm run report( -- --check)?$/, why: 'rebuilds dist/ and the whole report (the report test builds it)', check: 'npm' },
  { match: /^npx kstbench collect .*--models openai:.*--concurrency/, why: 'a paid collection against real providers (needs keys and network)', check: 'kstbench' },
  { match: /^npx kstbench analyze .*runs\/study1\/extracted\.jsonl/, why: 'reads the output of the paid collection above', check: 'kstbench' },
  { match: /^Rscript /, why: 'needs R with kstMatrix installed', check: 'external' },
  { match: /^node bin\/kstbench\.js import phsg-basis\.csv/, why: 'reads the files the Rscript line writes', check: 'kstbench' },
  { match: /^sudo apt-get install/, why: 'a machine-wide install (root, network)', check: 'external' },
  { match: /^jupyter notebook$/, why: 'starts a server for a browser; test/notebook/jupyter.test.ts drives that route', check: 'external' },
  { match: /^npm ci$/, why: 'reinstalls node_modules (minutes, network); .ci/run runs it on a fresh clone', check: 'npm' },
  { match: /^npm run report -- --from /, why: 'reads the folder of a reproduce --output-dir run (minutes); test/notebook/reproduce.test.ts builds and checks such a report', check: 'npm' },
  { match: /^npx kstbench study plan my-study /, why: 'simulates 1,000 studies per candidate design (about 10 s of CPU); test/study/plan-study.test.ts runs the planner through its checks', check: 'kstbench' },
  { match: /^npx kstbench study run my-study$/, why: 'collects, then draws figures in the pinned Chromium; test/study/report.test.ts runs init, check and run end to end on a 6-task curriculum', check: 'kstbench' },
  { match: /^npx kstbench study init my-real-study .*openai-compatible:/, why: 'the study of real models it writes needs a server and keys to run; study init itself runs above', check: 'kstbench' },
  { match: /^git status --porcelain$/, why: 'meaningful only after the full reproduce (needs the git checkout); .ci/run checks it', check: 'external' },
];

/** The NOT_RUN entry for a command, if any. */
export function notRunFor(command: string): NotRun | undefined {
  return NOT_RUN.find((n) => n.match.test(command));
}

/** Every Markdown file whose commands are checked: the README and docs/*.md. */
export function documentedCommands(root: string, files: readonly string[]): DocCommand[] {
  return files.flatMap((f) => extractCommands(readFileSync(join(root, f), 'utf8'), f));
}

/** The `--flags` (and `-p`) a command passes. */
export function flagsOf(words: readonly string[]): string[] {
  return [...new Set(words.filter((w) => /^--?[a-z]/.test(w) && w !== '--').map((w) => w.split('=')[0]!))];
}

/** True when a --help text names `flag` as a whole word (`--stat` is not `--state`). */
export function listsFlag(help: string, flag: string): boolean {
  return new RegExp(`(^|[^\\w-])${flag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(help);
}

/** Problems with a kstbench command's words: the subcommand's --help must list each flag used. */
export function kstbenchProblems(root: string, words: readonly string[]): string[] {
  const at = words.findIndex((w) => w === 'kstbench' || w === 'bin/kstbench.js');
  // psi and study dispatch on a subcommand, which has the flags.
  const sub = words[at + 1] === 'psi' || words[at + 1] === 'study' ? words.slice(at + 1, at + 3) : words.slice(at + 1, at + 2);
  const help = spawnSync(process.execPath, [join(root, 'bin', 'kstbench.js'), ...sub, '--help'], { cwd: root, encoding: 'utf8' });
  if (help.status !== 0) return [`kstbench ${sub.join(' ')} --help exits ${help.status}: ${help.stderr.trim()}`];
  return flagsOf(words.slice(at + 1 + sub.length)).filter((f) => !listsFlag(help.stdout, f)).map((f) => `kstbench ${sub.join(' ')} --help does not list ${f}`);
}
