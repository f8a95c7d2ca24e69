/**
 * Overhead of the headless notebook runner on the real notebooks (goal ≤ 1.5×): the time
 * `NotebookSession` (lib/notebook/execute.ts: tslab's converter type-checks and compiles every cell)
 * takes per notebook, against the same code cells run as a plain TypeScript program with tsx.
 *
 * Everything runs in a temporary copy of the project (dist/, data/ without data/processed, notebooks/,
 * sources for the build, node_modules linked), so the repository's committed outputs are never touched.
 * Passes, in this order, each in a fresh Node process:
 *
 *  1. runner: one NotebookSession executes every notebook in order, as `npm run reproduce` does
 *     (per-notebook time as the session measures it: from the first cell to the last, the first
 *     notebook including tslab's load and converter creation);
 *  2. plain, one process: every notebook's code cells (parameters cell included, in order) as the body
 *     of one async function each — imports turned into `require` calls in place, `display` from "tslab"
 *     a no-op shim, the working directory `notebooks/` as with the kernel — run one after another in a
 *     single `node --import tsx` process (per-notebook time measured inside, from the first cell to the
 *     last, like the runner's);
 *  3. plain, a process per notebook: the same program for one notebook at a time (process wall time,
 *     which adds Node + tsx startup and a browser launch per notebook with figures);
 *  4. `npm run reproduce` end to end in the copy (build + all notebooks + environment.md), after which
 *     the copy's outputs are compared byte for byte with the repository's.
 *
 * Prints numbers only, no pass/fail. One repetition (a full pass takes about a minute); set
 * KSTBENCH_NOTEBOOK_REPEAT=3 for best of 3 of passes 1-2. Part of `npm run bench` (needs `npm run build`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import * as ts from 'typescript';
import { cellSource, cellTags, readNotebook } from '../../lib/notebook/ipynb';
import { projectRoot } from '../../lib/notebook/project';
import { z } from 'zod';
import { readJsonFile } from '../../lib/io/json';

type Times = Record<string, number>;

/** `m.default` for ES modules, the module itself for CommonJS (what esModuleInterop's default import gives). */
const IMPORT_DEFAULT = '(m: any) => (m && m.__esModule ? m.default : m)';

let tempCounter = 0;

/**
 * An import declaration as `const` bindings of a `require` made at the same place, so statement order
 * (and hence what a cell's timing covers) stays as written. Type-only imports vanish; "tslab" is the shim.
 * Example: `import { a, b as c, type T } from "x";` → `const { a, b: c } = require("x");`
 */
export function importAsRequire(node: ts.ImportDeclaration): string {
  const spec = (node.moduleSpecifier as ts.StringLiteral).text;
  const source = spec === 'tslab' ? '__tslabShim' : `require(${JSON.stringify(spec)})`;
  const clause = node.importClause;
  if (!clause) return `${source};`;
  if (clause.isTypeOnly) return '';
  const named = clause.namedBindings;
  const elements = named && ts.isNamedImports(named) ? named.elements.filter((e) => !e.isTypeOnly) : [];
  const parts: string[] = [];
  let target = source;
  if (clause.name && named) {
    target = `__import${++tempCounter}`;
    parts.push(`const ${target} = ${source};`);
  }
  if (clause.name) parts.push(`const ${clause.name.text} = (${IMPORT_DEFAULT})(${target});`);
  if (named && ts.isNamespaceImport(named)) parts.push(`const ${named.name.text} = ${target};`);
  if (elements.length > 0) {
    const names = elements.map((e) => (e.propertyName ? `${e.propertyName.text}: ${e.name.text}` : e.name.text));
    parts.push(`const { ${names.join(', ')} } = ${target};`);
  } else if (!clause.name && named && ts.isNamedImports(named) && named.elements.length > 0) {
    return ''; // only `type` names
  }
  return parts.join(' ');
}

/** A cell's code with its import declarations rewritten by `importAsRequire`, everything else untouched. */
export function cellAsPlain(source: string): string {
  const file = ts.createSourceFile('cell.ts', source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  let out = '';
  let pos = 0;
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    out += source.slice(pos, statement.getStart(file)) + importAsRequire(statement);
    pos = statement.getEnd();
  }
  return out + source.slice(pos);
}

/** The executed code cells of a notebook, in order, as the runner sees them (no injected parameters). */
function codeCells(file: string): string[] {
  return readNotebook(file)
    .cells.filter((c) => c.cell_type === 'code' && !cellTags(c).includes('injected-parameters'))
    .map((c) => cellSource(c))
    .filter((s) => s.trim() !== '');
}

/**
 * One plain TypeScript program (CommonJS, for `node --import tsx`) that runs the given notebooks' code
 * cells: each notebook is the body of an async function (top-level await works, declarations stay in
 * that notebook), called in turn with the working directory set to `notebooksDir`. Per-notebook seconds
 * go to the JSON file named by $KSTBENCH_TIMES_FILE; the shared figure browser is closed at the end.
 */
export function plainProgram(notebooksDir: string, files: readonly string[]): string {
  const lines = [
    '// Generated by scripts/bench/notebooks.ts: notebook code cells as a plain program.',
    'const __tslabShim = { display: new Proxy({}, { get: () => () => {} }) };',
    'const __times: Record<string, number> = {};',
  ];
  files.forEach((file, i) => {
    lines.push(`async function __notebook${i}() { // ${basename(file)}`);
    for (const cell of codeCells(join(notebooksDir, file))) lines.push(cellAsPlain(cell), ';');
    lines.push('}');
  });
  lines.push(
    `const __notebooks: Array<[string, () => Promise<void>]> = [${files.map((f, i) => `[${JSON.stringify(f)}, __notebook${i}]`).join(', ')}];`,
    '(async () => {',
    '  for (const [name, run] of __notebooks) {',
    `    process.chdir(${JSON.stringify(notebooksDir)});`,
    '    const t0 = process.hrtime.bigint();',
    '    await run();',
    '    __times[name] = Number(process.hrtime.bigint() - t0) / 1e9;',
    '  }',
    '  require("fs").writeFileSync(process.env.KSTBENCH_TIMES_FILE!, JSON.stringify(__times));',
    '  const browser = Object.keys(require.cache).find((k) => k.endsWith("/dist/lib/figures/browser.js"));',
    '  if (browser) await require(browser).closeFigureBrowser();',
    '})().catch((err) => { console.error(err); process.exit(1); });',
    '',
  );
  return lines.join('\n');
}

interface Run {
  seconds: number;
  times: Times;
  error?: string;
}

/** Runs `node ...args` in `cwd`, stdout discarded; returns wall seconds and the times file it wrote. */
function timedNode(args: string[], cwd: string, timesFile: string): Run {
  rmSync(timesFile, { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, {
    cwd,
    env: { ...process.env, KSTBENCH_TIMES_FILE: timesFile },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    timeout: 900_000,
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0 || !existsSync(timesFile)) {
    const why = (r.stderr ?? '').split('\n').find((l) => /Error|FAILED/.test(l)) ?? `exit ${r.status ?? r.signal}`;
    return { seconds, times: {}, error: why.trim() };
  }
  return { seconds, times: readJsonFile(timesFile, z.record(z.string(), z.number())) };
}

/** Best (smallest total) of `n` runs; a failed run is returned at once. */
function bestOf(n: number, run: () => Run): Run {
  let best: Run | undefined;
  for (let i = 0; i < n; i++) {
    const r = run();
    if (r.error) return r;
    if (!best || r.seconds < best.seconds) best = r;
  }
  return best!;
}

/**
 * Copies what the notebooks and the build need into `dest`: sources, dist/, bin/, config/, notebooks
 * (the .ipynb files), data/ without data/processed (the notebooks rewrite it); node_modules is linked.
 */
function copyProject(root: string, dest: string): void {
  for (const f of ['package.json', 'tsconfig.json']) cpSync(join(root, f), join(dest, f));
  for (const d of ['lib', 'cli', 'scripts', 'dist', 'bin', 'config']) {
    if (existsSync(join(root, d))) cpSync(join(root, d), join(dest, d), { recursive: true });
  }
  cpSync(join(root, 'notebooks'), join(dest, 'notebooks'), { recursive: true, filter: (src) => statSync(src).isDirectory() || src.endsWith('.ipynb') });
  cpSync(join(root, 'data'), join(dest, 'data'), { recursive: true, filter: (src) => src !== join(root, 'data', 'processed') });
  symlinkSync(join(root, 'node_modules'), join(dest, 'node_modules'), 'dir');
}

/** Files under `dir` (relative paths), recursively. */
function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? listFiles(p, base) : [relative(base, p)];
  });
}

/** Byte comparison of the copy's outputs with the repository's: identical, different, absent from the repo. */
function compareOutputs(root: string, copy: string): { identical: number; different: string[]; newFiles: string[] } {
  const outputs = [
    ...listFiles(join(copy, 'notebooks')).filter((f) => f.endsWith('.ipynb')).map((f) => join('notebooks', f)),
    ...listFiles(join(copy, 'figures')).filter((f) => !f.endsWith('.html')).map((f) => join('figures', f)),
    ...listFiles(join(copy, 'data', 'processed')).map((f) => join('data', 'processed', f)),
    'environment.md',
  ];
  const result = { identical: 0, different: [] as string[], newFiles: [] as string[] };
  for (const f of outputs.sort()) {
    if (!existsSync(join(copy, f))) continue;
    if (!existsSync(join(root, f))) result.newFiles.push(f);
    else if (readFileSync(join(root, f)).equals(readFileSync(join(copy, f)))) result.identical++;
    else result.different.push(f);
  }
  return result;
}

const pad = (s: string, n: number) => s.padEnd(n);
const num = (x: number | undefined, digits = 2) => (x === undefined ? '-' : x.toFixed(digits)).padStart(8);

export async function benchNotebooks(print: (line: string) => void): Promise<void> {
  const root = projectRoot();
  if (!existsSync(join(root, 'dist', 'lib', 'notebook', 'execute.js'))) {
    print('dist/ missing: run npm run build');
    return;
  }
  const files = readdirSync(join(root, 'notebooks'))
    .filter((n) => n.endsWith('.ipynb') && !n.startsWith('.'))
    .sort();
  const repeat = Math.max(1, Number(process.env['KSTBENCH_NOTEBOOK_REPEAT'] ?? '1') || 1);
  const copy = mkdtempSync(join(tmpdir(), 'kstbench-bench-nb-'));
  try {
    copyProject(root, copy);
    const nbDir = join(copy, 'notebooks');
    const timesFile = join(copy, 'times.json');
    print(`${files.length} notebooks of notebooks/, run in a temporary copy of the project; ${repeat === 1 ? 'one run each' : `best of ${repeat}`}`);

    // 1. The runner: one session over all notebooks (this module's --runner mode, in a fresh process).
    const self = [...process.execArgv, __filename, '--runner', copy];
    const runner = bestOf(repeat, () => timedNode(self, copy, timesFile));
    if (runner.error) print(`runner failed: ${runner.error}`);

    // 2. Plain program, all notebooks in one process.
    const allScript = join(nbDir, '.tmp-bench-all.ts');
    writeFileSync(allScript, plainProgram(nbDir, files));
    const plain = bestOf(repeat, () => timedNode(['--import', 'tsx', allScript], nbDir, timesFile));
    if (plain.error) print(`plain program failed: ${plain.error}`);

    // 3. Plain program, one process per notebook; and what Node + tsx cost to start.
    const empty = join(nbDir, '.tmp-bench-empty.ts');
    writeFileSync(empty, 'require("fs").writeFileSync(process.env.KSTBENCH_TIMES_FILE!, "{}");\n');
    const startup = timedNode(['--import', 'tsx', empty], nbDir, timesFile).seconds;
    const own: Record<string, Run> = {};
    for (const [i, f] of files.entries()) {
      const script = join(nbDir, `.tmp-bench-${i}.ts`);
      writeFileSync(script, plainProgram(nbDir, [f]));
      own[f] = timedNode(['--import', 'tsx', script], nbDir, timesFile);
    }
    for (const n of readdirSync(nbDir).filter((n) => n.startsWith('.tmp-bench-'))) rmSync(join(nbDir, n));

    print('');
    print(`${pad('notebook', 40)}  runner s  plain s   ratio   own process s (wall)`);
    let runnerTotal = 0;
    let plainTotal = 0;
    for (const f of files) {
      const r = runner.times[f];
      const p = plain.times[f];
      if (r !== undefined) runnerTotal += r;
      if (p !== undefined) plainTotal += p;
      const ratio = r !== undefined && p !== undefined ? `${(r / p).toFixed(2)}×`.padStart(7) : '      -';
      const o = own[f]!;
      print(`${pad(f, 40)}  ${num(r)}  ${num(p)}  ${ratio}   ${num(o.times[f])} (${o.error ? `failed: ${o.error}` : o.seconds.toFixed(2)})`);
    }
    const ownWall = Object.values(own).reduce((s, o) => s + o.seconds, 0);
    print(`${pad('total', 40)}  ${num(runnerTotal)}  ${num(plainTotal)}  ${`${(runnerTotal / plainTotal).toFixed(2)}×`.padStart(7)}   (wall ${ownWall.toFixed(2)})`);
    print(`overhead of the runner over plain code: ${(runnerTotal / plainTotal).toFixed(2)}× (goal ≤ 1.5×${runnerTotal / plainTotal <= 1.5 ? ', met' : ', NOT met'})`);
    print(
      `process wall time: runner ${runner.seconds.toFixed(2)} s, plain in one process ${plain.seconds.toFixed(2)} s (${(runner.seconds / plain.seconds).toFixed(2)}×), ` +
        `plain one process per notebook ${ownWall.toFixed(2)} s in all (Node + tsx startup alone ${startup.toFixed(2)} s each)`,
    );

    // 4. npm run reproduce, end to end, in the copy.
    const t0 = process.hrtime.bigint();
    const npm = spawnSync('npm', ['run', 'reproduce'], { cwd: copy, encoding: 'utf8', maxBuffer: 64 * 2 ** 20, timeout: 900_000 });
    const e2e = Number(process.hrtime.bigint() - t0) / 1e9;
    if (npm.status !== 0) {
      print(`npm run reproduce failed after ${e2e.toFixed(1)} s: ${(npm.stderr + npm.stdout).split('\n').find((l) => /error|FAILED/i.test(l)) ?? `exit ${npm.status}`}`);
    } else {
      const inner = /(\d+) notebook\(s\) in ([\d.]+) s/.exec(npm.stdout);
      print(`npm run reproduce end to end: ${e2e.toFixed(1)} s${inner ? ` (of which ${inner[1]} notebooks ${inner[2]} s; the rest is the tsc build and startup)` : ''}`);
      const cmp = compareOutputs(root, copy);
      print(
        `outputs of that run against the repository's: ${cmp.identical} identical, ${cmp.different.length} different${cmp.different.length ? ` (${cmp.different.slice(0, 8).join(', ')}${cmp.different.length > 8 ? ', …' : ''})` : ''}, ` +
          `${cmp.newFiles.length} not in the repository${cmp.newFiles.length ? ` (${cmp.newFiles.slice(0, 8).join(', ')}${cmp.newFiles.length > 8 ? ', …' : ''})` : ''}`,
      );
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * `--runner COPY`: executes every notebook of COPY/notebooks with one NotebookSession of COPY's own
 * dist (so the notebooks' project root is the copy), as scripts/reproduce.ts does, and writes each
 * notebook's seconds to $KSTBENCH_TIMES_FILE. Nothing is written back.
 */
async function runnerMode(copy: string): Promise<void> {
  const { NotebookSession, describeFailure } = require(join(copy, 'dist', 'lib', 'notebook', 'execute.js')) as typeof import('../../lib/notebook/execute');
  const ipynb = require(join(copy, 'dist', 'lib', 'notebook', 'ipynb.js')) as typeof import('../../lib/notebook/ipynb');
  const nbDir = join(copy, 'notebooks');
  const files = readdirSync(nbDir)
    .filter((n) => n.endsWith('.ipynb') && !n.startsWith('.'))
    .sort();
  const session = new NotebookSession({ root: copy });
  const times: Times = {};
  try {
    for (const f of files) {
      const nb = ipynb.readNotebook(join(nbDir, f));
      const result = await session.execute(nb, { file: join('notebooks', f), cwd: nbDir, parameters: {} });
      if (result.failure) throw new Error(`FAILED ${describeFailure(result.failure)}`);
      times[f] = result.seconds;
    }
  } finally {
    session.close();
    const browser = require.cache[join(copy, 'dist', 'lib', 'figures', 'browser.js')];
    if (browser) await (browser.exports as typeof import('../../lib/figures/browser')).closeFigureBrowser();
  }
  writeFileSync(process.env['KSTBENCH_TIMES_FILE']!, JSON.stringify(times));
}

if (require.main === module && process.argv[2] === '--runner' && process.argv[3]) {
  runnerMode(process.argv[3]).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
